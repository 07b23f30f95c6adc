// Which message steps a plan changes (--changed), with the server's side of each: the plan's
// workflow actions name them (a step added to the list, a step's template field changed, every
// step of a workflow to create), its layout actions name the emails that render inside a changed
// layout, and the live snapshot the plan was computed from holds their current templates,
// layouts and branding. Nothing is re-derived: the plan decides what changed. A live side that
// would render a value from the environment the config no longer names is withheld.

import type { DesiredState } from "../config/model.js";
import type { LiveSnapshot } from "../kinds/kind.js";
import { LAYOUT_RENDER_FIELDS } from "../kinds/layout/render-fields.js";
import type { Layout } from "../kinds/layout/wire.js";
import { layoutIdentifiersOf } from "../kinds/workflow/content.js";
import type { StepTemplateSpec } from "../kinds/workflow/step-spec.js";
import { liveStepName, parseStepField, STEPS_FIELD } from "../kinds/workflow/steps-canonical.js";
import { liveTemplateOf } from "../kinds/workflow/steps-export.js";
import type { Plan } from "../plan/model.js";
import type { LayoutTemplate } from "../render/index.js";
import { isKeyedDigest } from "../secrets/keyed-digest.js";
import { ownRecord, type StateFile } from "../state/model.js";
import type { LiveSide } from "./build-site.js";
import type { MessageStep } from "./message-steps.js";
import type { RenderInputs } from "./render-step.js";

/** The steps (by `base`) the plan adds or whose template it changes, each with its live side. */
export function changedSteps(
  plan: Plan,
  live: LiveSnapshot,
  desired: DesiredState,
  steps: readonly MessageStep[],
  /** The state's: a live side rendered from a field that held a secret is withheld. */
  heldSecrets?: StateFile["heldSecrets"],
): Map<string, LiveSide> {
  const touched = new Map<string, Set<string> | "all">();
  // An email renders inside the layout its template names: a change of how that layout renders
  // changes the email as the subscriber sees it, though not a field of the step.
  const layouts = new Set<string>();
  for (const action of plan.actions) {
    if (action.kind === "layout" && action.op !== "not-applicable") {
      if (action.changes.some((change) => LAYOUT_RENDER_FIELDS.has(change.field))) layouts.add(action.key);
      continue;
    }
    if (action.kind !== "workflow") continue;
    if (action.op === "create") {
      touched.set(action.key, "all");
      continue;
    }
    if (action.op !== "update" && action.op !== "unverified") continue;
    const names = new Set<string>();
    for (const change of action.changes) {
      if (change.field === STEPS_FIELD) {
        const before = Array.isArray(change.old) ? change.old.map(String) : [];
        for (const name of Array.isArray(change.new) ? change.new.map(String) : [])
          if (!before.includes(name)) names.add(name);
        continue;
      }
      const parsed = parseStepField(change.field);
      if (parsed !== undefined && (parsed.field.startsWith("template") || parsed.field === "type"))
        names.add(parsed.step);
    }
    if (names.size > 0) touched.set(action.key, names);
  }
  const inputs = liveInputs(live);
  const ids = new Map(desired.resources.workflow.map(({ spec }) => [spec.key, spec.id]));
  const out = new Map<string, LiveSide>();
  for (const item of steps) {
    const wanted = touched.get(item.workflow.key);
    const itself = wanted === "all" || wanted?.has(item.step.name) === true;
    if (!itself && !(item.channel === "email" && layouts.has(item.step.template?.layout ?? ""))) continue;
    const id = ids.get(item.workflow.key);
    const workflow = id === undefined ? undefined : live.kinds.workflow?.get(id);
    const liveSteps = workflow?.steps ?? [];
    const index = liveSteps.findIndex((step, i) => liveStepName(step, i) === item.step.name);
    const step = index < 0 ? undefined : liveSteps[index];
    const template =
      step === undefined
        ? undefined
        : (liveTemplateOf(step, layoutIdentifiersOf(live.kinds.workflow)) as StepTemplateSpec);
    out.set(item.base, {
      template,
      inputs,
      ...(template !== undefined && rendersHeldSecret(heldSecrets, item, template)
        ? { withheld: true as const }
        : {}),
    });
  }
  return out;
}

/**
 * Whether the step's live side renders a field that held a value from the environment when last
 * applied: one of the step's own (or the workflow's list of steps), or, for an email, one of the
 * layout its live template names, or the branding's (which a layout may show).
 */
function rendersHeldSecret(
  heldSecrets: StateFile["heldSecrets"],
  item: MessageStep,
  template: StepTemplateSpec,
): boolean {
  if (heldSecrets === undefined) return false;
  const own = ownRecord(heldSecrets, `workflow/${item.workflow.key}`) ?? [];
  // A step's field whose name held a secret is kept as a keyed digest: which step is not known.
  const ofStep = (field: string) =>
    field === STEPS_FIELD || isKeyedDigest(field) || parseStepField(field)?.step === item.step.name;
  if (own.some(ofStep)) return true;
  if (item.channel !== "email") return false;
  const layout =
    template.layout === undefined ? undefined : ownRecord(heldSecrets, `layout/${template.layout}`);
  return layout !== undefined || Object.keys(heldSecrets).some((id) => id.startsWith("branding/"));
}

/** Layouts and branding as the server holds them (what the plan read). */
function liveInputs(live: LiveSnapshot): RenderInputs {
  const layouts = new Map<string, LayoutTemplate>();
  const read = live.kinds.layout as Map<string, Layout> | undefined;
  for (const [identifier, layout] of read ?? []) {
    if (typeof layout.content !== "string") continue;
    layouts.set(identifier, {
      content: layout.content,
      ...(layout.variables !== undefined ? { variables: layout.variables } : {}),
    });
  }
  const current = (live.kinds.branding as { current?: { logo?: string; color?: string } } | undefined)
    ?.current;
  return {
    layouts,
    branding:
      current === undefined
        ? undefined
        : {
            ...(current.logo !== undefined ? { logo: current.logo } : {}),
            ...(current.color !== undefined ? { color: current.color } : {}),
          },
  };
}
