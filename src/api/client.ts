// The typed client: the endpoint groups (one module each) joined into one NotificationApi,
// plus capability(), probe() and the whole-list helpers. It holds no policy of its own: HTTP
// behaviour is in transport.ts, request checks in request-checks.ts, shapes in envelope.ts.
import { createChangeEndpoints } from "./changes.js";
import { createEnvironmentEndpoints } from "./environments.js";
import { createLayoutEndpoints } from "./layouts.js";
import type { PageProgress } from "./log-events.js";
import { createNotificationGroupEndpoints } from "./notification-groups.js";
import { createOrganizationEndpoints } from "./organizations.js";
import { listAllFollowing, listAllPaged } from "./pagination.js";
import { probeExtension } from "./probe.js";
import { createReferenceEndpoints } from "./reference-reads.js";
import type { Requester } from "./requester.js";
import { createTenantWriteEndpoints } from "./tenant-writes.js";
import { createTopicEndpoints, TOPIC_PAGE_SIZE } from "./topics.js";
import type { NotificationApi } from "./types.js";
import { createWorkflowOverrideEndpoints } from "./workflow-overrides.js";
import { createWorkflowEndpoints } from "./workflows.js";

/** Real servers refuse override and workflow pages above 100. */
export const LIST_LIMIT = 100;

export function buildApi(
  requester: Requester,
  bounds: { maxPages: number; onPage?: (progress: PageProgress) => void },
): NotificationApi {
  const overrides = createWorkflowOverrideEndpoints(requester);
  const environments = createEnvironmentEndpoints(requester);
  const api: NotificationApi = {
    ...createTopicEndpoints(requester),
    ...createOrganizationEndpoints(requester),
    ...createReferenceEndpoints(requester),
    ...overrides,
    ...createWorkflowEndpoints(requester),
    ...createNotificationGroupEndpoints(requester),
    ...environments,
    ...createChangeEndpoints(requester),
    ...createLayoutEndpoints(requester),
    ...createTenantWriteEndpoints(requester),

    capability: (extension) => requester.capabilities.get(extension),
    probe: (extension, options = {}) => probeExtension(api, requester, extension, options),

    listAllTopics: ({ first, ...options } = {}) =>
      listAllPaged(
        async (page) => {
          const result =
            page === 0 && first !== undefined
              ? first
              : await api.listTopics({ page, pageSize: TOPIC_PAGE_SIZE }, options);
          return { items: result.data, totalCount: result.totalCount, pageSize: result.pageSize };
        },
        (topic) => topic._id,
        { endpoint: "listTopics", maxPages: bounds.maxPages, onPage: bounds.onPage },
      ),

    listAllWorkflowOverrides: ({ read = [], ...options } = {}) =>
      listAllFollowing(
        async (page) => {
          // Each page waits on the one before: let it jump the queue of other lists' fan-outs.
          const result =
            read[page] ??
            (await overrides.listWorkflowOverrides(
              { page, limit: LIST_LIMIT },
              { ...options, urgent: true },
            ));
          return { items: result.data, hasMore: result.hasMore };
        },
        (override) => override._id,
        { endpoint: "listWorkflowOverrides", maxPages: bounds.maxPages, onPage: bounds.onPage },
      ),

    listAllWorkflows: ({ first, ...options } = {}) =>
      listAllPaged(
        async (page) => {
          const result =
            page === 0 && first !== undefined
              ? first
              : await api.listWorkflows({ page, limit: LIST_LIMIT }, options);
          return { items: result.data, totalCount: result.totalCount, pageSize: result.pageSize };
        },
        (workflow) => workflow._id,
        { endpoint: "listWorkflows", maxPages: bounds.maxPages, onPage: bounds.onPage },
      ),

    listAllTenants: (options = {}) =>
      listAllFollowing(
        async (page) => {
          const result = await environments.listTenants(
            { page, limit: LIST_LIMIT },
            { ...options, urgent: true },
          );
          return { items: result.data, hasMore: result.hasMore };
        },
        (tenant) => tenant._id,
        { endpoint: "listTenants", maxPages: bounds.maxPages, onPage: bounds.onPage },
      ),

    listAllLayouts: (options = {}) =>
      listAllPaged(
        async (page) => {
          const result = await api.listLayouts({ page, pageSize: LIST_LIMIT }, options);
          return { items: result.data, totalCount: result.totalCount, pageSize: result.pageSize };
        },
        (layout) => layout._id,
        { endpoint: "listLayouts", maxPages: bounds.maxPages, onPage: bounds.onPage },
      ),

    listAllChanges: (query = {}, options = {}) =>
      listAllPaged(
        async (page) => {
          const result = await api.listChanges(
            { promoted: query.promoted === true, page, limit: LIST_LIMIT },
            options,
          );
          return { items: result.data, totalCount: result.totalCount, pageSize: result.pageSize };
        },
        (change) => change._id,
        { endpoint: "listChanges", maxPages: bounds.maxPages, onPage: bounds.onPage },
      ),
  };
  return api;
}
