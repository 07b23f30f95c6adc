// Topics on the wire (spec endpoints 1-4).

export interface Topic {
  _id: string;
  _organizationId: string;
  _environmentId: string;
  key: string;
  name: string;
  subscribers: string[];
}

/** POST /v1/topics answers only `{_id, key}` on a real server (spec G4). */
export interface CreatedTopic {
  _id: string;
  key: string;
}

export interface TopicPage {
  data: Topic[];
  page: number;
  pageSize: number;
  totalCount: number;
}
