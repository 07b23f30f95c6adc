// Reading a saved plan and deciding whether it may still be applied. A plan is refused (with
// nothing written) when it is not a plan of a known format, targets another API URL,
// organization or environment, was made from another config, or when any live object it was
// computed from has moved since: those are re-read (only those) and planned again, and the
// fresh actions must be the saved ones. Actions already as desired (a run of the plan was
// interrupted) are not sent again, and the rest may name their resources by id (resumed-plan.ts).

import { readBoundedFile } from "../bounded-file.js";
import { canonicalJson } from "../canonical.js";
import type { DesiredState } from "../config/model.js";
import { NotiformError } from "../errors.js";
import type { LiveSnapshot, ServerEnvironment } from "../kinds/kind.js";
import type { NotificationApi } from "../kinds/notification-api.js";
import type { PlanAction } from "../kinds/plan-action.js";
import { readLive } from "../kinds/read-live.js";
import { requestsOf } from "../kinds/requests.js";
import type { Masker } from "../mask.js";
import { MAX_DOCUMENT_NESTING, nestsDeeperThan } from "../nesting.js";
import { withholdAndMaskSecretValues } from "../plan/held-secrets.js";
import { isPlanContentSealed, keyPlanDigests } from "../plan/key-plan-digests.js";
import { maskAction, maskKeys } from "../plan/mask-plan.js";
import { PLAN_FORMAT_VERSION, type Plan, type PlanTarget, summarizePlan } from "../plan/model.js";
import { desiredIds, planChanges, selectTargets } from "../plan/plan-changes.js";
import { validatorOf } from "../schemas.js";
import { KEY_CHECK_TEXT, type KeyedDigest, keyedDigest, type Protect } from "../secrets/keyed-digest.js";
import type { StateFile } from "../state/model.js";
import { normalizeUrl } from "../state/state-store.js";
import { boundByApplied, partlySentRest, sameButResolved } from "./resumed-plan.js";

export async function readSavedPlan(path: string): Promise<Plan> {
  // Bounded: a regular file of at most 20 MB (not /dev/zero, not a pipe).
  const read = await readBoundedFile(path);
  if (!read.ok) {
    throw new NotiformError("PLAN_INVALID", `cannot read the plan ${path}: it ${read.reason}`, {
      pos: { file: path, line: 1, col: 1 },
    });
  }
  const text = read.bytes.toString("utf8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new NotiformError(
      "PLAN_INVALID",
      `the plan ${path} is not valid JSON (${(error as Error).message}); is it truncated?`,
      {
        hint: "Run `notiform plan --out FILE` again.",
      },
    );
  }
  if (nestsDeeperThan(parsed)) {
    throw new NotiformError(
      "PLAN_INVALID",
      `the plan ${path} nests values more than ${MAX_DOCUMENT_NESTING} levels deep: no plan notiform writes does`,
      {
        hint: "Run `notiform plan --out FILE` again.",
        pos: { file: path, line: 1, col: 1 },
      },
    );
  }
  if (!looksLikePlan(parsed)) {
    throw new NotiformError("PLAN_INVALID", `${path} is not a notiform plan${whatItIs(parsed)}`, {
      hint: "Save a plan with `notiform plan --out FILE`.",
      pos: { file: path, line: 1, col: 1 },
    });
  }
  const version = parsed.formatVersion;
  if (version !== PLAN_FORMAT_VERSION) {
    throw new NotiformError(
      "PLAN_INVALID",
      `the plan ${path} has format version ${JSON.stringify(version ?? null)}; this notiform applies version ${PLAN_FORMAT_VERSION}`,
      { hint: "Make the plan with the same notiform version that applies it." },
    );
  }
  const validatePlan = validatorOf("plan");
  if (!validatePlan(parsed)) {
    const problems = (validatePlan.errors ?? [])
      .slice(0, 3)
      .map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`);
    throw new NotiformError(
      "PLAN_INVALID",
      `the plan ${path} is not a notiform plan: ${problems.join("; ")}`,
    );
  }
  // The counts are the actions' and the unmanaged list's, never the file's word (an edited
  // "0 to update" beside an update); what cannot be recounted is covered by contentDigest.
  const written = parsed as Plan;
  const plan: Plan = { ...written, summary: summarizePlan(written, written.summary.unchanged) };
  // Apply performs the operations; the requests are what the reviewer saw. They must agree.
  for (const action of plan.actions) {
    if (canonicalJson(action.operations.flatMap(requestsOf)) !== canonicalJson(action.requests)) {
      throw new NotiformError(
        "PLAN_INVALID",
        `the plan ${path} was edited: the requests of ${action.id} are not the ones its operations send`,
        { hint: "Run `notiform plan --out FILE` again; a plan file is applied as written or not at all." },
      );
    }
  }
  return plan;
}

/**
 * For `show`, which needs no key: whether the plan's content (summary, warnings, unmanaged list)
 * is what notiform saved, checked under `apiKey` when it is the key the plan was made with.
 * "unchecked": no key, or another one; the caller says so rather than vouch for the file.
 */
export function checkSavedPlanContent(
  plan: Plan,
  apiKey: string | undefined,
): "sealed" | "edited" | "unchecked" {
  if (apiKey === undefined || apiKey.trim() === "") return "unchecked";
  const keyed = keyedDigest(apiKey);
  if (plan.keyCheck === undefined || plan.keyCheck !== keyed(KEY_CHECK_TEXT)) return "unchecked";
  return isPlanContentSealed(plan, keyed) ? "sealed" : "edited";
}

/** A plan of some format version: an object with a numeric formatVersion and a list of actions. */
function looksLikePlan(value: unknown): value is { formatVersion: number } {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return typeof record.formatVersion === "number" && Array.isArray(record.actions);
}

/** A guess at what a file that is not a plan is: the files notiform writes are easy to mix up. */
function whatItIs(value: unknown): string {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return " (not a JSON object)";
  const record = value as Record<string, unknown>;
  if (Array.isArray(record.entries)) return ": it looks like a promotion (`notiform promote FILE` takes it)";
  if ("notificationGroups" in record && "workflows" in record) return ": it looks like a state file";
  if (Array.isArray(record.results)) return ": it looks like an apply or promote result";
  return " (no formatVersion and actions)";
}

/** Where a run goes before it has asked the server anything: the API URL and the --env name. */
export interface RunTarget {
  apiUrl: string;
  environment: string | null;
}

/**
 * Before any request: refuse a plan made for another API URL or --env, with another API key, or
 * from another config. All of it is known from the flags, the config and the key alone.
 */
export function checkPlanBeforeConnecting(
  plan: Plan,
  run: RunTarget,
  desired: DesiredState,
  keyed: KeyedDigest,
): void {
  const moved: string[] = [];
  if (normalizeUrl(plan.target.apiUrl) !== normalizeUrl(run.apiUrl))
    moved.push(`API URL ${plan.target.apiUrl}, not ${run.apiUrl}`);
  if (plan.target.environment !== run.environment)
    moved.push(`environment ${plan.target.environment ?? "(none)"}, not ${run.environment ?? "(none)"}`);
  refuseTarget(moved);
  // Every keyed digest differs under another key: say that, not "the config changed".
  if (plan.keyCheck !== undefined && plan.keyCheck !== keyed(KEY_CHECK_TEXT))
    throw new NotiformError(
      "PLAN_TARGET_MISMATCH",
      "the plan was made with another API key (another environment's key, or one rotated since); nothing was applied",
      {
        hint: "Apply with the key (and --env) the plan was made with, or run `notiform plan --out FILE` with this one.",
      },
    );
  // Beside its actions (planned again before any write), a plan shows a summary, warnings and
  // an unmanaged list: they must be what notiform saved, not what an editor wrote.
  if (!isPlanContentSealed(plan, keyed))
    throw new NotiformError(
      "PLAN_INVALID",
      "the plan was edited: its summary, warnings or unmanaged list are not the ones notiform saved; nothing was applied",
      { hint: "Run `notiform plan --out FILE` again; a plan file is applied as written or not at all." },
    );
  if (plan.configDigest !== keyed(desired.digest)) {
    if (desired.shapeDigest !== undefined && plan.configShapeDigest === keyed(desired.shapeDigest)) {
      throw new NotiformError(
        "PLAN_CONFIG_CHANGED",
        "an environment variable the config interpolates changed since the plan was made; the config files did not. Nothing was applied",
        {
          hint: "Apply with the same environment the plan was made with, or run `notiform plan --out FILE` again.",
        },
      );
    }
    throw new NotiformError(
      "PLAN_CONFIG_CHANGED",
      "the config changed since the plan was made; nothing was applied",
      {
        hint: "Run `notiform plan --out FILE` again and review it.",
      },
    );
  }
}

/**
 * Once the organization and the environment the key reaches are read (GETs only, before any
 * write): refuse a plan made for another organization (by name, or by id where the server sends
 * one: two organizations may share a name) or another server environment.
 */
export function checkPlanTarget(plan: Plan, target: PlanTarget): void {
  const saved = plan.target;
  const moved: string[] = [];
  if (normalizeUrl(saved.apiUrl) !== normalizeUrl(target.apiUrl))
    moved.push(`API URL ${saved.apiUrl}, not ${target.apiUrl}`);
  if (saved.organization !== target.organization)
    moved.push(`organization "${saved.organization}", not "${target.organization}"`);
  else if (saved.organizationId !== target.organizationId)
    moved.push(
      `organization id ${saved.organizationId ?? "(none)"}, not ${target.organizationId ?? "(none)"} (another organization of the same name)`,
    );
  if (saved.environment !== target.environment)
    moved.push(`environment ${saved.environment ?? "(none)"}, not ${target.environment ?? "(none)"}`);
  if (saved.serverEnvironment?.id !== target.serverEnvironment?.id)
    moved.push(
      `the ${describeEnvironment(saved.serverEnvironment)} environment, not ${describeEnvironment(target.serverEnvironment)}`,
    );
  refuseTarget(moved);
}

function describeEnvironment(environment: PlanTarget["serverEnvironment"]): string {
  return environment === undefined ? "(unknown)" : `${environment.name} (${environment.id})`;
}

function refuseTarget(moved: readonly string[]): void {
  if (moved.length === 0) return;
  throw new NotiformError(
    "PLAN_TARGET_MISMATCH",
    `the plan was made for ${moved.join(", ")}; nothing was applied`,
    {
      hint: "Apply it with the --env, --api-url and key it was made with, or run `notiform plan --out FILE` for this target.",
    },
  );
}

/** The managed fields whose live value moved, by their per-field digests ("it" when unknown). */
function movedFields(saved: Plan["actions"][number], now: Plan["actions"][number]): string {
  const before = saved.live.fields ?? {};
  const after = now.live.fields ?? {};
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((field) => before[field] !== after[field])
    .sort();
  return names.length === 0 ? "it" : names.join(", ");
}

export interface RefreshInput {
  saved: Plan;
  desired: DesiredState;
  state: StateFile;
  client: NotificationApi;
  organization: LiveSnapshot["organization"];
  /** The server environment the key reaches, where the server says (as the plan that made it knew). */
  environment?: ServerEnvironment;
  masker: Masker;
  keyed: KeyedDigest;
  protect: Protect;
}

/**
 * Re-read the objects the saved plan's actions were computed from and plan those actions again.
 * Returns the fresh plan (unmasked, ready to execute) when it is the saved one; otherwise
 * refuses and names each resource that moved.
 */
export async function refreshSavedPlan(
  input: RefreshInput,
): Promise<{ plan: Plan; alreadyApplied: string[] }> {
  const { saved, client } = input;
  // The very reads `plan` makes (each kind's readLive, with what a kind reads besides its own
  // objects: a workflow's layout ids, its default group), narrowed to the saved actions and what
  // they depend on. A second read path for saved plans drifted from the first and planned
  // differently: a step naming a layout failed as if the server listed none.
  // The file's ids are masked as the rest of it is (a topic keyed by ${VAR} is topic/********):
  // the config's resources whose masked id a saved action has are those it may stand for.
  const savedIds = new Set(saved.actions.map((action) => action.id));
  const ids = desiredIds(input.desired).filter((id) => savedIds.has(input.masker.mask(id)));
  // And the groups whose bindings the plan records (checked below), whether or not an action
  // of the plan touches them: a group bound by name that needs no change has no action.
  const groupKeys = new Set(input.desired.resources.notificationGroup.map(({ spec }) => spec.key));
  // (Their keys are masked in the file too: a group keyed by ${VAR} is bound as ********.)
  const bound = [...groupKeys]
    .filter((key) => Object.hasOwn(saved.bindings.notificationGroups, input.masker.mask(key)))
    .map((key) => `notificationGroup/${key}`);
  const live = await readLive(client, input.desired, input.organization, {
    selected: selectTargets(input.desired, [...ids, ...bound]) ?? new Set(),
    ...(input.environment !== undefined ? { environment: input.environment } : {}),
  });

  // Withheld and masked as the plan was when saved (prepare-plan.ts): what it shows is compared.
  const fresh = withholdAndMaskSecretValues(
    keyPlanDigests(
      planChanges({
        desired: input.desired,
        live,
        state: input.state,
        target: saved.target,
        createdBy: saved.createdBy,
        only: new Set(ids),
        protect: input.protect,
      }),
      input.keyed,
    ),
    input.state.secretValues,
    input.keyed,
    input.masker,
  );
  // Each saved action's fresh one: the next, in plan order, whose masked id is its id (two
  // resources keyed by values from the environment are both topic/******** in the file).
  const byMaskedId = new Map<string, PlanAction[]>();
  for (const action of fresh.actions) {
    const id = input.masker.mask(action.id);
    byMaskedId.set(id, [...(byMaskedId.get(id) ?? []), action]);
  }
  const freshOf = new Map(saved.actions.map((action) => [action, byMaskedId.get(action.id)?.shift()]));
  // Already as desired (an interrupted run of this plan applied it, or someone did): not sent
  // again. The rest may name the resources those created by id now (resumed-plan.ts).
  // An action that now sends nothing because its other changes were sent (what is left, fewer
  // fields, the server cannot take: an emptied layout description) is as desired as it can be:
  // applied too. One that became not applicable whole (a change now arriving by promotion) moved.
  const alreadyApplied = saved.actions
    .filter((action) => {
      const now = freshOf.get(action);
      return now === undefined || partlySentRest(action, now);
    })
    .map((a) => a.id);
  const applied = new Set(alreadyApplied);
  const resolved = new Map<string, string>();
  const moved: string[] = [];
  // A create an interrupted run of the plan left in flight, which the server cannot settle:
  // `notiform resolve` settles it, and the plan applies then (it is not stale).
  const uncertain: string[] = [];
  // A fresh action no saved one stands for (one of two alike that has moved) was not reviewed.
  for (const action of [...byMaskedId.values()].flat())
    moved.push(`${input.masker.mask(action.id)} (plans differently now)`);
  for (const action of saved.actions) {
    const now = freshOf.get(action);
    if (now === undefined || applied.has(action.id)) continue;
    if (now.op === "uncertain" && action.op === "create") uncertain.push(action.id);
    else if (now.live.digest !== action.live.digest)
      moved.push(`${action.id} (${movedFields(action, now)} changed on the server since the plan)`);
    else {
      const masked = maskAction(now, input.masker);
      if (
        canonicalJson(masked) !== canonicalJson(action) &&
        !(applied.size > 0 && sameButResolved(action, masked, applied, resolved))
      )
        moved.push(`${action.id} (plans differently now)`);
    }
  }
  // Bindings are recorded in the state file: never on the plan's word. Each must be what the
  // state file and the server say now (an edited plan could otherwise bind a foreign group).
  const freshBindings = maskKeys(fresh.bindings.notificationGroups, input.masker);
  for (const key of Object.keys(saved.bindings.notificationGroups)) {
    const claimed = saved.bindings.notificationGroups[key];
    const actual = Object.hasOwn(freshBindings, key) ? freshBindings[key] : undefined;
    if (claimed !== actual)
      moved.push(
        `the binding of notification group ${key} (the plan says ${claimed}, the server and state file ${actual ?? "nothing"})`,
      );
  }
  // A group this plan created (an interrupted run of it): bound now, by the id its requests use.
  for (const key of Object.keys(freshBindings)) {
    if (Object.hasOwn(saved.bindings.notificationGroups, key) || !applied.has(`notificationGroup/${key}`))
      continue;
    if (!boundByApplied(key, freshBindings[key], applied, resolved))
      moved.push(`the binding of notification group ${key} (the plan made none)`);
  }
  if (moved.length === 0 && uncertain.length > 0)
    throw new NotiformError(
      "CREATE_UNCERTAIN",
      `the plan cannot be applied yet; nothing was applied: an earlier run's create of ${uncertain.join(", ")} was interrupted before its answer was recorded, and the server cannot tell whether it happened`,
      {
        hint: `Run \`notiform resolve ${uncertain[0]} --id ID\` if it exists, or \`--not-created\` if it does not, then apply the plan again.`,
      },
    );
  for (const id of uncertain) moved.push(`${id} (its create by an earlier run was interrupted: resolve it)`);
  if (moved.length > 0) {
    throw new NotiformError(
      "PLAN_STALE",
      `the plan is stale; nothing was applied. Moved since the plan: ${moved.join(", ")}`,
      {
        hint: "Run `notiform plan --out FILE` again and review it.",
      },
    );
  }
  return { plan: { ...fresh, unmanaged: saved.unmanaged, warnings: saved.warnings }, alreadyApplied };
}
