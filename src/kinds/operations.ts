// The typed change model: every write a plan can make is one Operation, a discriminated union in
// the spirit of drizzle-kit's statements. A plan action carries its operations; the HTTP request
// each one sends is rendered here and only here (requestOf), both for the plan's `requests`
// (what a reviewer sees) and as the contract the executors' client calls keep: apply sends
// exactly what the plan showed, and nothing takes a path apart again.

import type { JsonObject } from "./canonical.js";
import type { Kind } from "./kinds.js";

export type TopicOperation =
  | { type: "topic.create"; key: string; name: string }
  | { type: "topic.rename"; key: string; name: string };

export type NotificationGroupOperation =
  | { type: "notificationGroup.create"; name: string }
  | { type: "notificationGroup.rename"; groupId: string; name: string };

export type WorkflowOperation =
  | {
      type: "workflow.update";
      workflowId: string;
      /** The body fields, as sent (preferenceSettings whole: the server replaces it). */
      fields: JsonObject;
      /** The group joins a notification group another action of this plan creates. */
      groupFromAction?: string;
    }
  | {
      type: "workflow.setStatus";
      workflowId: string;
      active: boolean;
      /** The live status was unknown: a "must provide a different status" 400 means done. */
      acceptUnchanged?: boolean;
    };

export type OverrideOperation =
  | {
      type: "override.create";
      workflowId: string;
      tenantId: string;
      active: boolean;
      preferenceSettings: JsonObject;
    }
  | { type: "override.update"; overrideId: string; active?: boolean; preferenceSettings?: JsonObject };

export type BrandingOperation = { type: "branding.update"; branding: JsonObject };

/** Each kind's operations: a kind without its line here fails to compile in the registry. */
export interface OperationByKind {
  notificationGroup: NotificationGroupOperation;
  topic: TopicOperation;
  workflow: WorkflowOperation;
  override: OverrideOperation;
  branding: BrandingOperation;
}

export type Operation = OperationByKind[Kind];

export interface PlannedRequest {
  method: "POST" | "PUT" | "PATCH";
  path: string;
  body: JsonObject;
  /**
   * Body fields filled at apply time with the server id that another action of this plan
   * creates (a workflow moved into a group created in the same apply).
   */
  refs?: { field: string; action: string }[];
}

const seg = (value: string) => encodeURIComponent(value);

/** The one rendering of an operation as the HTTP request apply sends for it. */
export function requestOf(op: Operation): PlannedRequest {
  switch (op.type) {
    case "topic.create":
      return { method: "POST", path: "/v1/topics", body: { key: op.key, name: op.name } };
    case "topic.rename":
      return { method: "PATCH", path: `/v1/topics/${seg(op.key)}`, body: { name: op.name } };
    case "notificationGroup.create":
      return { method: "POST", path: "/v1/notification-groups", body: { name: op.name } };
    case "notificationGroup.rename":
      return { method: "PATCH", path: `/v1/notification-groups/${seg(op.groupId)}`, body: { name: op.name } };
    case "workflow.update": {
      const request: PlannedRequest = {
        method: "PUT",
        path: `/v1/workflows/${seg(op.workflowId)}`,
        body: { ...op.fields },
      };
      if (op.groupFromAction !== undefined) {
        request.body.notificationGroupId = `<id of ${op.groupFromAction}>`;
        request.refs = [{ field: "notificationGroupId", action: op.groupFromAction }];
      }
      return request;
    }
    case "workflow.setStatus":
      return {
        method: "PUT",
        path: `/v1/workflows/${seg(op.workflowId)}/status`,
        body: { active: op.active },
      };
    case "override.create":
      return {
        method: "POST",
        path: "/v1/workflow-overrides",
        body: {
          workflowId: op.workflowId,
          tenantId: op.tenantId,
          active: op.active,
          preferenceSettings: op.preferenceSettings,
        },
      };
    case "override.update": {
      const body: JsonObject = {};
      if (op.active !== undefined) body.active = op.active;
      if (op.preferenceSettings !== undefined) body.preferenceSettings = op.preferenceSettings;
      return { method: "PUT", path: `/v1/workflow-overrides/${seg(op.overrideId)}`, body };
    }
    case "branding.update":
      return { method: "PUT", path: "/v1/organizations/branding", body: { ...op.branding } };
  }
}

/** Creates: the writes that may make a second resource if sent twice (their intent is recorded first). */
export function isCreate(op: Operation): boolean {
  return (
    op.type === "topic.create" || op.type === "notificationGroup.create" || op.type === "override.create"
  );
}

/** The operation's type names its kind ("topic.create" -> "topic"). */
export function kindOfOperation(op: Operation): Kind {
  return op.type.slice(0, op.type.indexOf(".")) as Kind;
}
