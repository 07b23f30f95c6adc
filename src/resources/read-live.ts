// Reading live state for a plan: the I/O edge of src/resources/. Topics and overrides through
// their paged lists (never one GET per resource), workflows and notification groups through the
// observed read extensions when the server has them. Lists of a kind the config does not
// manage are not read: a plan of topics costs only topic pages.
import type { NotificationApi, Workflow } from "../api/types.js";
import type { DesiredState } from "../config/model.js";
import { isNotiformError } from "../errors.js";
import type { LiveSnapshot } from "./kind.js";
import { overrideLookupKey } from "./workflow-override.js";

export interface ReadLiveOptions {
  signal?: AbortSignal;
}

export async function readLive(
  client: NotificationApi,
  desired: DesiredState,
  organization: LiveSnapshot["organization"],
  options: ReadLiveOptions = {},
): Promise<LiveSnapshot> {
  const request = options.signal ? { signal: options.signal } : {};
  const [topics, overrides, workflows, notificationGroups] = await Promise.all([
    desired.topics.length > 0 ? client.listAllTopics(request) : Promise.resolve([]),
    desired.overrides.length > 0 ? client.listAllWorkflowOverrides(request) : Promise.resolve([]),
    desired.workflows.length > 0 || desired.overrides.length > 0
      ? readWorkflows(client, desired, request)
      : Promise.resolve(undefined),
    desired.notificationGroups.length > 0 ||
    desired.workflows.some((w) => w.spec.notificationGroup !== undefined)
      ? unlessUnsupported(client.listNotificationGroups(request))
      : Promise.resolve(undefined),
  ]);
  return {
    organization,
    topics: new Map(topics.map((topic) => [topic.key, topic])),
    overrides: new Map(overrides.map((o) => [overrideLookupKey(o._workflowId, o._tenantId), o])),
    workflows,
    notificationGroups,
    canUpdateOverrides: client.capability("updateWorkflowOverride") !== "unsupported",
  };
}

/**
 * Workflows through the list extension; failing that, one GET per configured workflow through
 * the get extension; failing both, undefined (the state file is all we know).
 */
async function readWorkflows(
  client: NotificationApi,
  desired: DesiredState,
  request: { signal?: AbortSignal },
): Promise<Map<string, Workflow> | undefined> {
  if (desired.workflows.length === 0) return undefined;
  const listed = await unlessUnsupported(client.listAllWorkflows(request));
  if (listed !== undefined) return new Map(listed.map((w) => [w._id, w]));
  const ids = [...new Set(desired.workflows.map((w) => w.spec.id))];
  const first = ids[0];
  if (first === undefined) return new Map();
  const probe = await unlessUnsupported(getOrMissing(client, first, request));
  if (probe === undefined) return undefined;
  const rest = await Promise.all(ids.slice(1).map((id) => getOrMissing(client, id, request)));
  const found = [probe, ...rest].filter((w): w is Workflow => w !== null);
  return new Map(found.map((w) => [w._id, w]));
}

async function getOrMissing(
  client: NotificationApi,
  id: string,
  request: { signal?: AbortSignal },
): Promise<Workflow | null> {
  try {
    return await client.getWorkflow(id, request);
  } catch (error) {
    if (isNotiformError(error) && error.code === "API_NOT_FOUND") return null;
    throw error;
  }
}

/** The value, or undefined when the server lacks that extension endpoint. */
export async function unlessUnsupported<T>(promise: Promise<T>): Promise<T | undefined> {
  try {
    return await promise;
  } catch (error) {
    if (isNotiformError(error) && error.code === "API_UNSUPPORTED") return undefined;
    throw error;
  }
}
