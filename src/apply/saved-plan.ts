// Reading a saved plan and deciding whether it may still be applied. A plan is refused (with
// nothing written) when it is not a plan of a known format, targets another API URL,
// organization or environment, was made from another config, or when any live object it was
// computed from has moved since: those are re-read (only those) and planned again, and the
// fresh actions must be the saved ones.
import { readFile } from "node:fs/promises";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { NotificationApi, WorkflowOverride } from "../api/types.js";
import type { DesiredState } from "../config/model.js";
import { NotiformError } from "../errors.js";
import type { Masker } from "../mask.js";
import { readPackageJson } from "../package-files.js";
import { maskAction } from "../plan/mask-plan.js";
import { PLAN_FORMAT_VERSION, type Plan, type PlanTarget } from "../plan/model.js";
import { planChanges } from "../plan/plan-changes.js";
import { canonicalJson } from "../resources/canonical.js";
import { resourceExecutors } from "../resources/executors.js";
import type { LiveSnapshot } from "../resources/kind.js";
import { unlessUnsupported } from "../resources/read-live.js";
import type { StateFile } from "../state/model.js";
import { normalizeUrl } from "../state/state-store.js";

const planSchema: object = readPackageJson("schemas", "plan.schema.json") as object;
let validatePlan: ReturnType<Ajv2020["compile"]> | undefined;

export async function readSavedPlan(path: string): Promise<Plan> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new NotiformError("PLAN_INVALID", `cannot read the plan ${path}: ${(error as Error).message}`);
  }
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
  const version = (parsed as { formatVersion?: unknown } | null)?.formatVersion;
  if (version !== PLAN_FORMAT_VERSION) {
    throw new NotiformError(
      "PLAN_INVALID",
      `the plan ${path} has format version ${JSON.stringify(version ?? null)}; this notiform applies version ${PLAN_FORMAT_VERSION}`,
      { hint: "Make the plan with the same notiform version that applies it." },
    );
  }
  validatePlan ??= new Ajv2020({ allErrors: true, strict: false }).compile(planSchema);
  if (!validatePlan(parsed)) {
    const problems = (validatePlan.errors ?? [])
      .slice(0, 3)
      .map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`);
    throw new NotiformError(
      "PLAN_INVALID",
      `the plan ${path} is not a notiform plan: ${problems.join("; ")}`,
    );
  }
  return parsed as Plan;
}

/** Refuse a plan made for another target or from another config. */
export function checkPlanTarget(plan: Plan, target: PlanTarget, desired: DesiredState): void {
  const moved: string[] = [];
  if (normalizeUrl(plan.target.apiUrl) !== normalizeUrl(target.apiUrl))
    moved.push(`API URL ${plan.target.apiUrl}, not ${target.apiUrl}`);
  if (plan.target.organization !== target.organization)
    moved.push(`organization "${plan.target.organization}", not "${target.organization}"`);
  if (plan.target.environment !== target.environment)
    moved.push(`environment ${plan.target.environment ?? "(none)"}, not ${target.environment ?? "(none)"}`);
  if (moved.length > 0) {
    throw new NotiformError(
      "PLAN_TARGET_MISMATCH",
      `the plan was made for ${moved.join(", ")}; nothing was applied`,
    );
  }
  if (plan.configDigest !== desired.digest) {
    throw new NotiformError(
      "PLAN_CONFIG_CHANGED",
      "the config changed since the plan was made; nothing was applied",
      {
        hint: "Run `notiform plan --out FILE` again and review it.",
      },
    );
  }
}

export interface RefreshInput {
  saved: Plan;
  desired: DesiredState;
  state: StateFile;
  client: NotificationApi;
  organization: LiveSnapshot["organization"];
  masker: Masker;
}

/**
 * Re-read the objects the saved plan's actions were computed from and plan those actions again.
 * Returns the fresh plan (unmasked, ready to execute) when it is the saved one; otherwise
 * refuses and names each resource that moved.
 */
export async function refreshSavedPlan(input: RefreshInput): Promise<Plan> {
  const { saved, client } = input;
  const needsWorkflows = saved.actions.some((a) => a.kind === "workflow" && a.live.origin === "api");
  const live: LiveSnapshot = {
    organization: input.organization,
    topics: new Map(),
    overrides: new Map(),
    workflows: needsWorkflows ? new Map() : undefined,
    notificationGroups:
      input.desired.notificationGroups.length > 0
        ? await unlessUnsupported(client.listNotificationGroups())
        : undefined,
    canUpdateOverrides: true,
  };
  if (saved.actions.some((a) => a.kind === "override" && (a.op === "update" || a.op === "not-applicable"))) {
    live.canUpdateOverrides = await client.probe("updateWorkflowOverride");
  }
  let overrides: Promise<WorkflowOverride[]> | undefined;
  const context = { client, listOverrides: () => (overrides ??= client.listAllWorkflowOverrides()) };
  await Promise.all(
    saved.actions.map((action) => resourceExecutors[action.kind].reread(action, live, context)),
  );

  const fresh = planChanges({
    desired: input.desired,
    live,
    state: input.state,
    target: saved.target,
    createdBy: saved.createdBy,
    only: new Set(saved.actions.map((a) => a.id)),
  });
  const freshById = new Map(fresh.actions.map((a) => [a.id, a]));
  const moved: string[] = [];
  for (const action of saved.actions) {
    const now = freshById.get(action.id);
    if (now === undefined) moved.push(`${action.id} (now already as desired)`);
    else if (now.live.digest !== action.live.digest)
      moved.push(`${action.id} (changed on the server since the plan)`);
    else if (canonicalJson(maskAction(now, input.masker)) !== canonicalJson(action))
      moved.push(`${action.id} (plans differently now)`);
  }
  if (moved.length > 0) {
    throw new NotiformError(
      "PLAN_STALE",
      `the plan is stale; nothing was applied. Moved since the plan: ${moved.join(", ")}`,
      {
        hint: "Run `notiform plan --out FILE` again and review it.",
      },
    );
  }
  return { ...fresh, bindings: saved.bindings, unmanaged: saved.unmanaged, warnings: saved.warnings };
}
