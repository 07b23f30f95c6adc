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

export type TenantOperation =
  | { type: "tenant.create"; identifier: string; name: string; data?: JsonObject }
  /** PATCH replaces `data` whole: when sent, it is all of it. */
  | { type: "tenant.update"; identifier: string; name?: string; data?: JsonObject };

export type LayoutOperation =
  /** POST /v1/layouts (answers the id only). */
  | { type: "layout.create"; identifier: string; body: JsonObject }
  | { type: "layout.update"; identifier: string; layoutId: string; fields: JsonObject }
  | {
      type: "layout.setDefault";
      identifier: string;
      layoutId: string;
      /** After this action's create: the id it produced (`layout/IDENTIFIER`). */
      layoutFromAction?: string;
    };

export type NotificationGroupOperation =
  | { type: "notificationGroup.create"; name: string }
  | { type: "notificationGroup.rename"; groupId: string; name: string };

/** A step (index in the body's `steps`) whose layout is created by another action (`layout/ID`). */
export interface LayoutFromAction {
  step: number;
  action: string;
}

export type WorkflowOperation =
  | {
      /**
       * POST /v1/workflows (Development): the server makes the trigger identifier from the name,
       * so the executor then sets `identifier` with PUT when that slug differs.
       */
      type: "workflow.create";
      identifier: string;
      /** The body as sent: name, notificationGroupId, steps and the settings the config sets. */
      body: JsonObject;
      /** The group is one another action of this plan creates. */
      groupFromAction?: string;
      /** Steps whose layout another action of this plan creates. */
      layoutsFromActions?: LayoutFromAction[];
    }
  | {
      type: "workflow.update";
      workflowId: string;
      /** The body fields, as sent (preferenceSettings whole: the server replaces it). */
      fields: JsonObject;
      /** The group joins a notification group another action of this plan creates. */
      groupFromAction?: string;
      /** Steps whose layout another action of this plan creates. */
      layoutsFromActions?: LayoutFromAction[];
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
      /** The tenant is one another action of this plan creates: the id it produced is sent. */
      tenantFromAction?: string;
      /** The workflow is one another action of this plan creates (Development): likewise. */
      workflowFromAction?: string;
      active: boolean;
      preferenceSettings: JsonObject;
    }
  | { type: "override.update"; overrideId: string; active?: boolean; preferenceSettings?: JsonObject };

export type BrandingOperation = { type: "branding.update"; branding: JsonObject };

/** Each kind's operations: a kind without its line here fails to compile in the registry. */
export interface OperationByKind {
  notificationGroup: NotificationGroupOperation;
  topic: TopicOperation;
  tenant: TenantOperation;
  layout: LayoutOperation;
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
    case "tenant.create":
      return {
        method: "POST",
        path: "/v1/tenants",
        body: {
          identifier: op.identifier,
          name: op.name,
          ...(op.data !== undefined ? { data: op.data } : {}),
        },
      };
    case "tenant.update":
      return {
        method: "PATCH",
        path: `/v1/tenants/${seg(op.identifier)}`,
        body: {
          ...(op.name !== undefined ? { name: op.name } : {}),
          ...(op.data !== undefined ? { data: op.data } : {}),
        },
      };
    case "layout.create":
      return { method: "POST", path: "/v1/layouts", body: { ...op.body } };
    case "layout.update":
      return { method: "PATCH", path: `/v1/layouts/${seg(op.layoutId)}`, body: { ...op.fields } };
    case "layout.setDefault": {
      const id = op.layoutFromAction !== undefined ? `<id of ${op.layoutFromAction}>` : seg(op.layoutId);
      return { method: "POST", path: `/v1/layouts/${id}/default`, body: {} };
    }
    case "notificationGroup.create":
      return { method: "POST", path: "/v1/notification-groups", body: { name: op.name } };
    case "notificationGroup.rename":
      return { method: "PATCH", path: `/v1/notification-groups/${seg(op.groupId)}`, body: { name: op.name } };
    case "workflow.create": {
      const request: PlannedRequest = { method: "POST", path: "/v1/workflows", body: { ...op.body } };
      if (op.groupFromAction !== undefined) {
        request.body.notificationGroupId = `<id of ${op.groupFromAction}>`;
        request.refs = [{ field: "notificationGroupId", action: op.groupFromAction }];
      }
      return withLayoutRefs(request, op.layoutsFromActions);
    }
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
      return withLayoutRefs(request, op.layoutsFromActions);
    }
    case "workflow.setStatus":
      return {
        method: "PUT",
        path: `/v1/workflows/${seg(op.workflowId)}/status`,
        body: { active: op.active },
      };
    case "override.create": {
      const request: PlannedRequest = {
        method: "POST",
        path: "/v1/workflow-overrides",
        body: {
          workflowId: op.workflowId,
          tenantId: op.tenantId,
          active: op.active,
          preferenceSettings: op.preferenceSettings,
        },
      };
      const refs: { field: string; action: string }[] = [];
      if (op.workflowFromAction !== undefined) {
        request.body.workflowId = `<id of ${op.workflowFromAction}>`;
        refs.push({ field: "workflowId", action: op.workflowFromAction });
      }
      if (op.tenantFromAction !== undefined) {
        request.body.tenantId = `<id of ${op.tenantFromAction}>`;
        refs.push({ field: "tenantId", action: op.tenantFromAction });
      }
      if (refs.length > 0) request.refs = refs;
      return request;
    }
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

/** The steps' layouts another action creates, as refs (the body already holds their placeholders). */
function withLayoutRefs(request: PlannedRequest, layouts: readonly LayoutFromAction[] | undefined) {
  if (layouts === undefined || layouts.length === 0) return request;
  request.refs = [
    ...(request.refs ?? []),
    ...layouts.map(({ step, action }) => ({ field: `steps[${step}].template.layoutId`, action })),
  ];
  return request;
}

/** Creates: the writes that may make a second resource if sent twice (their intent is recorded first). */
export function isCreate(op: Operation): boolean {
  return (
    op.type === "topic.create" ||
    op.type === "notificationGroup.create" ||
    op.type === "override.create" ||
    op.type === "workflow.create"
  );
}

/** The operation's type names its kind ("topic.create" -> "topic"). */
export function kindOfOperation(op: Operation): Kind {
  return op.type.slice(0, op.type.indexOf(".")) as Kind;
}
