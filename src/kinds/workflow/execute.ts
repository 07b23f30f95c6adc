// The workflow kind's I/O: reading workflows through the observed read extensions, and
// executing its operations — PUT for fields, PUT status for `active`. The status call is not
// idempotent on real servers: a "must provide a different status" 400 means the workflow already
// is as desired when the plan could not know its status, or when an earlier attempt of this very
// call may have landed (its answer lost, the retry then met the 400).

import type { JsonObject } from "../../canonical.js";
import { STEPS_COUNT } from "../../config/section-scan.js";
import { InternalError } from "../../errors.js";
import { mapInLanes } from "../../lanes.js";
import { LIST_LIMIT } from "../endpoint-group.js";
import type { ExecuteContext, ExecuteResult, ReadAheadContext, ReadScope } from "../kind.js";
import type { NotificationApi } from "../notification-api.js";
import type { PlanAction } from "../plan-action.js";
import {
  type CostedRead,
  mustList,
  type PagedReadAhead,
  readAheadPaged,
  readPagedByCost,
} from "../read-by-cost.js";
import { unlessUnsupported } from "../unsupported.js";
import { hasCode } from "../write-outcomes.js";
import { isUnchangedStatusError } from "./api.js";
import { canonicalWorkflowFields } from "./canonical.js";
import { createWorkflow, withCreatedLayouts } from "./create.js";
import { liveStepFields } from "./steps-canonical.js";
import type { WorkflowOperation } from "./types.js";
import type { Workflow, WorkflowPage } from "./wire.js";

function resultOf(workflow: Workflow, key: string, groupKeys: ReadonlyMap<string, string>): ExecuteResult {
  const fields = canonicalWorkflowFields(workflow, groupKeys);
  return {
    serverId: workflow._id,
    fields,
    stateChange: { section: "workflows", id: workflow._id, key, values: fields },
  };
}

export async function executeWorkflow(
  action: PlanAction,
  op: WorkflowOperation,
  { client, groupKeys, createdIds, signal }: ExecuteContext,
): Promise<ExecuteResult> {
  const options = signal ? { signal } : {};
  if (op.type === "workflow.create")
    return createWorkflow(action, op, { client, groupKeys, createdIds, ...options });
  if (op.type === "workflow.update") {
    const body = { ...op.fields };
    if (op.groupFromAction !== undefined) {
      const groupId = createdIds.get(op.groupFromAction);
      if (groupId === undefined) {
        throw new InternalError(`${op.groupFromAction} produced no id for the workflow's group`);
      }
      body.notificationGroupId = groupId;
    }
    if (Array.isArray(body.steps))
      body.steps = withCreatedLayouts(body.steps as JsonObject[], op.layoutsFromActions, createdIds);
    const updated = await client.updateWorkflow(op.workflowId, body, options);
    const result = resultOf(updated, action.key, groupKeys);
    // This PUT does not set `active` (the status call does, Development only): its answer's
    // status verifies nothing, and with a Production key no status call follows.
    if (result.fields !== undefined) delete result.fields.active;
    // An adopted workflow's identifier (resolve.ts): verified like any field sent, never recorded
    // (a copy: the state file's values are the same object and hold no identifier).
    if (body.identifier !== undefined && result.fields !== undefined)
      result.fields = { ...result.fields, identifier: updated.triggers?.[0]?.identifier ?? "" };
    if (body.steps !== undefined && result.fields !== undefined) {
      // The content the server now holds, to verify the changes against; never into the state
      // file (a copy). Layouts are answered by id, so they are not verified here.
      const content: JsonObject = {};
      liveStepFields(updated.steps ?? [], undefined, content);
      for (const field of Object.keys(content)) if (field.endsWith(".template.layout")) delete content[field];
      result.fields = { ...result.fields, ...content };
    }
    return result;
  }
  try {
    return resultOf(
      await client.updateWorkflowStatus(op.workflowId, op.active, options),
      action.key,
      groupKeys,
    );
  } catch (error) {
    const earlierAttempt = (error as { attempts?: number }).attempts ?? 1;
    if (isUnchangedStatusError(error) && (op.acceptUnchanged === true || earlierAttempt > 1)) {
      const values = { active: op.active };
      return {
        serverId: op.workflowId,
        fields: values,
        stateChange: { section: "workflows", id: op.workflowId, key: action.key, values },
        note:
          op.acceptUnchanged === true
            ? `already ${op.active ? "active" : "inactive"}`
            : "the first attempt's answer was lost; the retry found the status already set",
      };
    }
    throw error;
  }
}

/**
 * Workflows through the list extension (or id by id when the config names fewer than its pages);
 * failing that, one GET per configured workflow through the get extension; failing both,
 * undefined (the state file is all we know).
 */
export async function readWorkflows(
  client: NotificationApi,
  scope: ReadScope,
  /** The ids this plan covers (the config's, narrowed by --target). */
  wanted: readonly string[],
): Promise<CostedRead<Workflow> | undefined> {
  const request = scope.signal ? { signal: scope.signal } : {};
  const { desired, everything } = scope;
  if (desired.resources.workflow.length === 0 && !everything) return undefined;
  if (mustList(scope)) {
    const listed = await unlessUnsupported(client.listAllWorkflows(request));
    if (listed !== undefined) return { items: listed, listed: true };
    if (everything) return undefined;
  }
  const ids = [...new Set(wanted)];
  if (ids.length === 0) return { items: [], listed: false };
  const ahead = (await scope.readAhead?.workflow) as PagedReadAhead<Workflow, WorkflowPage> | undefined;
  if (ahead?.all !== undefined) return { items: await ahead.all, listed: true };
  const first =
    ahead?.first ?? (await unlessUnsupported(client.listWorkflows({ page: 0, limit: LIST_LIMIT }, request)));
  if (first !== undefined) {
    return readPagedByCost({
      lanes: client.lanes,
      wanted: ids,
      identityOf: (workflow) => workflow._id,
      firstPage: async () => first,
      listRest: (page) => client.listAllWorkflows({ ...request, first: page }),
      getOne: async (id) => (await getOrMissing(client, id, request)) ?? undefined,
      probeFirst: true,
    });
  }
  const each = await getEach(client, ids, request);
  return each === undefined ? undefined : { items: [...each.values()], listed: false };
}

/** What the workflow kind read while the config loaded. */
export interface WorkflowReadAhead extends PagedReadAhead<Workflow, WorkflowPage> {
  /** Listed workflows read by id (with their content), when the config manages content of all of them. */
  content?: Promise<Map<string, Workflow>>;
}

/**
 * While the config loads: the first page of the list extension, and the whole list when large.
 * When the files parsed so far manage the content of at least as many workflows as the server
 * lists (`countOf("workflows/steps")`), each listed workflow is read by id too: the plan reads
 * each of them anyway, and the reads overlap the config's load instead of following it.
 */
export async function readWorkflowsAhead(
  client: NotificationApi,
  count: () => number,
  early?: ReadAheadContext,
): Promise<WorkflowReadAhead | undefined> {
  const ahead: WorkflowReadAhead | undefined = await unlessUnsupported(
    readAheadPaged(
      () => client.listWorkflows({ page: 0, limit: LIST_LIMIT }),
      (first) => client.listAllWorkflows({ first }),
      count,
    ),
  );
  const managed = () => early?.countOf?.(STEPS_COUNT) ?? 0;
  if (ahead === undefined || managed() === 0) return ahead;
  const { first } = ahead;
  const listed =
    ahead.all ?? (first.totalCount <= first.data.length ? Promise.resolve(first.data) : undefined);
  if (listed === undefined || first.data.length === 0 || managed() < first.totalCount) return ahead;
  // The first page's workflows are read at once, the other pages' as soon as the list is whole.
  const readEach = (workflows: readonly Workflow[]) =>
    mapInLanes(workflows, client.lanes, (w) => getOrMissing(client, w._id, {}));
  const early_ = readEach(first.data);
  const content = listed.then(async (workflows) => {
    const onFirst = new Set(first.data.map((w) => w._id));
    const [a, b] = await Promise.all([early_, readEach(workflows.filter((w) => !onFirst.has(w._id)))]);
    return new Map([...a, ...b].filter((w): w is Workflow => w !== null).map((w) => [w._id, w]));
  });
  early_.catch(() => undefined);
  // Awaited by readLive; until then (or if the config fails to load) never an unhandled rejection.
  content.catch(() => undefined);
  return { ...ahead, content };
}

async function getEach(
  client: NotificationApi,
  ids: readonly string[],
  request: { signal?: AbortSignal },
): Promise<Map<string, Workflow> | undefined> {
  const first = ids[0];
  if (first === undefined) return new Map();
  const probe = await unlessUnsupported(getOrMissing(client, first, request));
  if (probe === undefined) return undefined;
  const rest = await mapInLanes(ids.slice(1), client.lanes, (id) => getOrMissing(client, id, request));
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
    if (hasCode(error, "API_NOT_FOUND")) return null;
    throw error;
  }
}
