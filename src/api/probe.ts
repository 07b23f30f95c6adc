// Finding out whether the server serves an extension, with requests that can never change
// state or read a real record:
//   listNotificationGroups        GET /v1/notification-groups                 (a read)
//   getNotificationGroup          GET /v1/notification-groups/000000000000000000000000
//   getWorkflow                   GET /v1/workflows/000000000000000000000000
//   listWorkflows                 GET /v1/workflows?page=0&limit=1            (a read)
//   updateWorkflowOverride        PUT /v1/workflow-overrides/000000000000000000000000 {}
//   getWorkflowOverrideByPair     GET /v1/workflow-overrides/workflows/0…0/tenants/0…0
//   updateWorkflowOverrideByPair  PUT /v1/workflow-overrides/workflows/0…0/tenants/0…0 {}
//   getCurrentEnvironment         GET /v1/environments/me                     (a read)
//   getTenant                     GET /v1/tenants/000000000000000000000000
//   listTenants                   GET /v1/tenants?page=0&limit=1              (a read)
//   listChanges, countChanges     GET /v1/changes?promoted=false&page=0&limit=1, /v1/changes/count
//   applyChange                   POST /v1/changes/000000000000000000000000/apply
//   bulkApplyChanges              POST /v1/changes/bulk/apply {changeIds:[0…0]}
//   createWorkflow                POST /v1/workflows {}                        (refused: no name)
//   updateOrganizationBranding    PUT /v1/organizations/branding {logo:"not-an-image"} (refused)
// The all-zero id is a valid ObjectId no server hands out (it encodes time 0), so the route, if
// present, answers 404 (or 400) about the record; a missing route answers "Cannot <METHOD> ..."
// (or 405/501). The PUTs carry an empty body: even a server that upserted would have nothing to set.
// The create and branding probes send a body a real server refuses before writing (400); the
// change probes name a change that cannot exist (404 "Parent Change not found").
import { NEVER_ID } from "./capabilities.js";
import { ApiError } from "./errors.js";
import type { EndpointCall, Requester } from "./requester.js";
import type { Extension, NotificationApi, RequestOptions } from "./types.js";

export async function probeExtension(
  api: NotificationApi,
  requester: Requester,
  extension: Extension,
  options: RequestOptions,
): Promise<boolean> {
  const known = requester.capabilities.get(extension);
  if (known !== "unknown") return known === "supported";
  // Bodies the client's own checks would stop: sent as they are so the server's validation answers.
  const raw = (call: Omit<EndpointCall, "extension">) => requester.request({ ...call, extension }, options);
  const probes: Record<Extension, () => Promise<unknown>> = {
    listNotificationGroups: () => api.listNotificationGroups(options),
    getNotificationGroup: () => api.getNotificationGroup(NEVER_ID, options),
    getWorkflow: () => api.getWorkflow(NEVER_ID, options),
    listWorkflows: () => api.listWorkflows({ page: 0, limit: 1 }, options),
    updateWorkflowOverride: () => api.updateWorkflowOverride(NEVER_ID, {}, options),
    getWorkflowOverrideByPair: () => api.getWorkflowOverrideByPair(NEVER_ID, NEVER_ID, options),
    updateWorkflowOverrideByPair: () => api.updateWorkflowOverrideByPair(NEVER_ID, NEVER_ID, {}, options),
    getCurrentEnvironment: () => api.getCurrentEnvironment(options),
    getTenant: () => api.getTenant(NEVER_ID, options),
    listTenants: () => api.listTenants({ page: 0, limit: 1 }, options),
    listChanges: () => api.listChanges({ promoted: false, page: 0, limit: 1 }, options),
    countChanges: () => api.countChanges(options),
    applyChange: () => api.applyChange(NEVER_ID, options),
    bulkApplyChanges: () => api.bulkApplyChanges([NEVER_ID], options),
    createWorkflow: () =>
      raw({ endpoint: "createWorkflow", method: "POST", path: "/v1/workflows", body: {} }),
    updateOrganizationBranding: () =>
      raw({
        endpoint: "updateOrganizationBranding",
        method: "PUT",
        path: "/v1/organizations/branding",
        body: { logo: "not-an-image" },
      }),
  };
  try {
    await probes[extension]();
  } catch (error) {
    // Anything but an answer from the server (a network failure, a bad key) says nothing.
    if (!(error instanceof ApiError)) throw error;
    if (error.code === "API_UNSUPPORTED") return false;
    if (requester.capabilities.get(extension) !== "supported") throw error;
  }
  return requester.capabilities.get(extension) === "supported";
}
