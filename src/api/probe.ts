// Finding out whether the server serves an extension, with reads that can never read a real
// record. The write extensions are never probed (a probe would be a PUT, and `plan` never
// writes): probe() answers from what an earlier answer taught, else "assume served" (real servers
// serve them), and a server without the route is found out on first use.
//   listNotificationGroups        GET /v1/notification-groups                 (a read)
//   getNotificationGroup          GET /v1/notification-groups/000000000000000000000000
//   getWorkflow                   GET /v1/workflows/000000000000000000000000
//   listWorkflows                 GET /v1/workflows?page=0&limit=1            (a read)
//   getWorkflowOverrideByPair     GET /v1/workflow-overrides/workflows/0…0/tenants/0…0
//   getCurrentEnvironment         GET /v1/environments/me                     (a read)
//   getTenant                     GET /v1/tenants/000000000000000000000000
//   listTenants                   GET /v1/tenants?page=0&limit=1              (a read)
//   listChanges, countChanges     GET /v1/changes?promoted=false&page=0&limit=1, /v1/changes/count
//   listLayouts                   GET /v1/layouts?page=0&pageSize=1           (a read)
// The writes (override updates, applying a change, creating a workflow, branding) are never
// probed. The all-zero id is a valid ObjectId no server hands out (it encodes time 0), so the
// route, if present, answers 404 (or 400) about the record; a missing route answers "Cannot
// <METHOD> ..." (or 405/501).
import { NEVER_ID } from "./capabilities.js";
import { ApiError } from "./errors.js";
import type { Requester } from "./requester.js";
import type { Extension, NotificationApi, RequestOptions } from "./types.js";

type WriteExtension =
  | "updateWorkflowOverride"
  | "updateWorkflowOverrideByPair"
  | "applyChange"
  | "bulkApplyChanges"
  | "createWorkflow"
  | "updateOrganizationBranding"
  | "createLayout"
  | "updateLayout"
  | "setDefaultLayout"
  | "createTenant"
  | "updateTenant";
const WRITES: ReadonlySet<Extension> = new Set<WriteExtension>([
  "updateWorkflowOverride",
  "updateWorkflowOverrideByPair",
  "applyChange",
  "bulkApplyChanges",
  "createWorkflow",
  "updateOrganizationBranding",
  "createLayout",
  "updateLayout",
  "setDefaultLayout",
  "createTenant",
  "updateTenant",
]);

export async function probeExtension(
  api: NotificationApi,
  requester: Requester,
  extension: Extension,
  options: RequestOptions,
): Promise<boolean> {
  const known = requester.capabilities.get(extension);
  if (known !== "unknown") return known === "supported";
  if (WRITES.has(extension)) return true;
  const probes: Record<Exclude<Extension, WriteExtension>, () => Promise<unknown>> = {
    listNotificationGroups: () => api.listNotificationGroups(options),
    getNotificationGroup: () => api.getNotificationGroup(NEVER_ID, options),
    getWorkflow: () => api.getWorkflow(NEVER_ID, options),
    listWorkflows: () => api.listWorkflows({ page: 0, limit: 1 }, options),
    getWorkflowOverrideByPair: () => api.getWorkflowOverrideByPair(NEVER_ID, NEVER_ID, options),
    getCurrentEnvironment: () => api.getCurrentEnvironment(options),
    getTenant: () => api.getTenant(NEVER_ID, options),
    listTenants: () => api.listTenants({ page: 0, limit: 1 }, options),
    listChanges: () => api.listChanges({ promoted: false, page: 0, limit: 1 }, options),
    countChanges: () => api.countChanges(options),
    listLayouts: () => api.listLayouts({ page: 0, pageSize: 1 }, options),
    getLayout: () => api.getLayout(NEVER_ID, options),
  };
  try {
    await probes[extension as Exclude<Extension, WriteExtension>]();
  } catch (error) {
    // Anything but an answer from the server (a network failure, a bad key) says nothing.
    if (!(error instanceof ApiError)) throw error;
    if (error.code === "API_UNSUPPORTED") return false;
    if (requester.capabilities.get(extension) !== "supported") throw error;
  }
  return requester.capabilities.get(extension) === "supported";
}
