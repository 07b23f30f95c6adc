// The typed client: the endpoint groups (one module each) joined into one NotificationApi,
// plus capability(), probe() and the whole-list helpers. It holds no policy of its own: HTTP
// behaviour is in transport.ts, request checks in request-checks.ts, shapes in envelope.ts.

import type { PageProgress } from "../api/log-events.js";
import { listAllFollowing, listAllPaged } from "../api/pagination.js";
import { probeExtension } from "../api/probe.js";
import type { Requester } from "../api/requester.js";
import type { NotificationApi } from "../api/types.js";
import { createChangeEndpoints } from "./endpoints/changes.js";
import { createEnvironmentEndpoints } from "./endpoints/environments.js";
import { createOrganizationEndpoints } from "./endpoints/organizations.js";
import { createReferenceEndpoints } from "./endpoints/reference-reads.js";
import { createNotificationGroupEndpoints } from "./notification-group/api.js";
import { createWorkflowOverrideEndpoints } from "./override/api.js";
import { createTopicEndpoints, TOPIC_PAGE_SIZE } from "./topic/api.js";
import { createWorkflowEndpoints } from "./workflow/api.js";

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
