// Workflow overrides on the wire (spec endpoints 9-11 and the update extensions).
import type { WirePreferenceSettings } from "../wire.js";

export interface WorkflowOverride {
  _id: string;
  _organizationId: string;
  _environmentId: string;
  _workflowId: string;
  _tenantId: string;
  active: boolean;
  preferenceSettings: WirePreferenceSettings;
  deleted: boolean;
  deletedAt?: string;
  deletedBy?: string;
  createdAt: string;
  updatedAt: string;
}

/** Endpoint 9, normalized: the client accepts the spec's nested and the real server's flat envelope. */
export interface WorkflowOverridePage {
  data: WorkflowOverride[];
  hasMore: boolean;
  page: number;
  pageSize: number;
}

export interface CreateWorkflowOverrideBody {
  workflowId: string;
  tenantId: string;
  active?: boolean;
  preferenceSettings?: Partial<WirePreferenceSettings>;
}

/** Extension: PUT /v1/workflow-overrides/{id}; channels are merged into the stored ones. */
export interface UpdateWorkflowOverrideBody {
  active?: boolean;
  preferenceSettings?: Partial<WirePreferenceSettings>;
}
