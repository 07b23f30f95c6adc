// The route table: the 17 endpoints of the spec, then the observed extensions (left out with
// strictSpec, so a client meets "Cannot GET ..." exactly like on a spec-only server).

import * as b from "./handlers/branding.js";
import * as c from "./handlers/changes.js";
import * as cp from "./handlers/content-preview.js";
import type { Handler } from "./handlers/context.js";
import * as e from "./handlers/environments.js";
import * as l from "./handlers/layouts.js";
import * as o from "./handlers/other.js";
import * as ov from "./handlers/overrides.js";
import * as tn from "./handlers/tenants.js";
import * as t from "./handlers/topics.js";
import * as wc from "./handlers/workflow-create.js";
import * as w from "./handlers/workflows.js";

export interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: Handler;
  extension: boolean;
}

function route(method: string, path: string, handler: Handler, extension = false): Route {
  const names: string[] = [];
  const pattern = new RegExp(
    `^${path.replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name);
      return "([^/]+)";
    })}$`,
  );
  return { method, pattern, names, handler, extension };
}

export const ROUTES: Route[] = [
  route("GET", "/v1/topics", t.listTopics),
  route("GET", "/v1/topics/{key}", t.getTopic),
  route("POST", "/v1/topics", t.createTopic),
  route("PATCH", "/v1/topics/{key}", t.renameTopic),
  route("POST", "/v1/organizations", o.createOrganization),
  route("GET", "/v1/organizations", o.listOrganizations),
  route("GET", "/v1/organizations/me", o.me),
  route("GET", "/v1/blueprints/{id}", o.getBlueprint),
  route("GET", "/v1/workflow-overrides", ov.listOverrides),
  route("POST", "/v1/workflow-overrides", ov.createOverride),
  route(
    "GET",
    "/v1/workflow-overrides/workflows/{workflowId}/tenants/{tenantId}",
    ov.getOverrideByPair,
    true,
  ),
  route(
    "PUT",
    "/v1/workflow-overrides/workflows/{workflowId}/tenants/{tenantId}",
    ov.updateOverrideByPair,
    true,
  ),
  route("GET", "/v1/workflow-overrides/{id}", ov.getOverride),
  route("PUT", "/v1/workflow-overrides/{id}", ov.updateOverride, true),
  route("PUT", "/v1/workflows/{id}", w.updateWorkflow),
  route("PUT", "/v1/workflows/{id}/status", w.updateWorkflowStatus),
  route("GET", "/v1/workflows", w.listWorkflows, true),
  route("POST", "/v1/workflows", wc.createWorkflow, true),
  route("GET", "/v1/workflows/{id}", w.getWorkflow, true),
  route("DELETE", "/v1/workflows/{id}", w.deleteWorkflow, true),
  route("POST", "/v1/notification-groups", w.createGroup),
  route("PATCH", "/v1/notification-groups/{id}", w.renameGroup),
  route("GET", "/v1/notification-groups", w.listGroups, true),
  route("GET", "/v1/notification-groups/{id}", w.getGroup, true),
  route("GET", "/v1/execution-details", o.listExecutionDetails),
  route("GET", "/v1/subscribers/{subscriberId}/preferences/{level}", o.subscriberPreferences),
  // Environments, tenants, promotion and branding (extensions).
  route("GET", "/v1/environments/me", e.currentEnvironment, true),
  route("GET", "/v1/tenants", tn.listTenants, true),
  route("POST", "/v1/tenants", tn.createTenant, true),
  route("GET", "/v1/tenants/{identifier}", tn.getTenant, true),
  route("PATCH", "/v1/tenants/{identifier}", tn.updateTenant, true),
  route("DELETE", "/v1/tenants/{identifier}", tn.deleteTenant, true),
  route("GET", "/v1/changes", c.listPendingChanges, true),
  route("GET", "/v1/changes/count", c.countPendingChanges, true),
  route("POST", "/v1/changes/bulk/apply", c.applyChangesInBulk, true),
  route("POST", "/v1/changes/{id}/apply", c.applyOneChange, true),
  route("PUT", "/v1/organizations/branding", b.updateBranding, true),
  route("GET", "/v1/layouts", l.listLayouts, true),
  route("POST", "/v1/layouts", l.createLayout, true),
  route("GET", "/v1/layouts/{id}", l.getLayout, true),
  route("PATCH", "/v1/layouts/{id}", l.updateLayout, true),
  route("DELETE", "/v1/layouts/{id}", l.deleteLayout, true),
  route("POST", "/v1/layouts/{id}/default", l.setDefaultLayout, true),
  // The server's template preview, rendered by notiform's renderer (API key accepted here).
  route("POST", "/v1/content-templates/preview/email", cp.previewEmail, true),
  route("POST", "/v1/content-templates/preview/in-app", cp.previewInApp, true),
  route("POST", "/v1/content-templates/preview/sms", cp.previewSms, true),
  route("POST", "/v1/content-templates/preview/chat", cp.previewChat, true),
  route("POST", "/v1/content-templates/preview/push", cp.previewPush, true),
];

export function matchRoute(
  method: string,
  path: string,
  strictSpec: boolean,
): { route: Route; params: Record<string, string> } | undefined {
  for (const candidate of ROUTES) {
    if (candidate.method !== method || (strictSpec && candidate.extension)) continue;
    const match = candidate.pattern.exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    candidate.names.forEach((name, i) => {
      params[name] = decodeURIComponent(match[i + 1] ?? "");
    });
    return { route: candidate, params };
  }
  return undefined;
}
