// Notification groups on the wire (spec endpoints 14-15 and the read extensions).

export interface NotificationGroup {
  _id: string;
  name: string;
  _environmentId: string;
  _organizationId: string;
  _parentId?: string;
}
