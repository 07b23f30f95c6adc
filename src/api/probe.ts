// Finding out whether the server serves an extension, with requests that can never change
// state or read a real record:
//   listNotificationGroups        GET /v1/notification-groups                 (a read)
//   getNotificationGroup          GET /v1/notification-groups/000000000000000000000000
//   getWorkflow                   GET /v1/workflows/000000000000000000000000
//   listWorkflows                 GET /v1/workflows?page=0&limit=1            (a read)
//   updateWorkflowOverride        PUT /v1/workflow-overrides/000000000000000000000000 {}
//   getWorkflowOverrideByPair     GET /v1/workflow-overrides/workflows/0…0/tenants/0…0
//   updateWorkflowOverrideByPair  PUT /v1/workflow-overrides/workflows/0…0/tenants/0…0 {}
// The all-zero id is a valid ObjectId no server hands out (it encodes time 0), so the route, if
// present, answers 404 (or 400) about the record; a missing route answers "Cannot <METHOD> ..."
// (or 405/501). The PUTs carry an empty body: even a server that upserted would have nothing to set.
import { NEVER_ID } from "./capabilities.js";
import { ApiError } from "./errors.js";
import type { Requester } from "./requester.js";
import type { Extension, NotificationApi, RequestOptions } from "./types.js";

export async function probeExtension(
  api: NotificationApi,
  requester: Requester,
  extension: Extension,
  options: RequestOptions,
): Promise<boolean> {
  const known = requester.capabilities.get(extension);
  if (known !== "unknown") return known === "supported";
  const probes: Record<Extension, () => Promise<unknown>> = {
    listNotificationGroups: () => api.listNotificationGroups(options),
    getNotificationGroup: () => api.getNotificationGroup(NEVER_ID, options),
    getWorkflow: () => api.getWorkflow(NEVER_ID, options),
    listWorkflows: () => api.listWorkflows({ page: 0, limit: 1 }, options),
    updateWorkflowOverride: () => api.updateWorkflowOverride(NEVER_ID, {}, options),
    getWorkflowOverrideByPair: () => api.getWorkflowOverrideByPair(NEVER_ID, NEVER_ID, options),
    updateWorkflowOverrideByPair: () => api.updateWorkflowOverrideByPair(NEVER_ID, NEVER_ID, {}, options),
    // Branding has no harmless write: a server with the read extensions serves it too.
    updateOrganizationBranding: () => api.listNotificationGroups(options),
  };
  const exercised: Extension =
    extension === "updateOrganizationBranding" ? "listNotificationGroups" : extension;
  try {
    await probes[extension]();
  } catch (error) {
    // Anything but an answer from the server (a network failure, a bad key) says nothing.
    if (!(error instanceof ApiError)) throw error;
    if (error.code === "API_UNSUPPORTED") return false;
    if (requester.capabilities.get(exercised) !== "supported") throw error;
  }
  return requester.capabilities.get(exercised) === "supported";
}
