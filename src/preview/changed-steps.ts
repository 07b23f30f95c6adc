// Which message steps a plan changes (--changed), with the server's side of each: the plan's
// workflow actions name them (a step added to the list, a step's template field changed, every
// step of a workflow to create), and the live snapshot the plan was computed from holds their
// current templates, layouts and branding. Nothing is re-derived: the plan decides what changed.

import type { DesiredState } from "../config/model.js";
import type { LiveSnapshot } from "../kinds/kind.js";
import type { Layout } from "../kinds/layout/wire.js";
import { layoutIdentifiersOf } from "../kinds/workflow/content.js";
import type { StepTemplateSpec } from "../kinds/workflow/step-spec.js";
import { liveStepName, parseStepField, STEPS_FIELD } from "../kinds/workflow/steps-canonical.js";
import { liveTemplateOf } from "../kinds/workflow/steps-export.js";
import type { Plan } from "../plan/model.js";
import type { LayoutTemplate } from "../render/index.js";
import type { LiveSide } from "./build-site.js";
import type { MessageStep } from "./message-steps.js";
import type { RenderInputs } from "./render-step.js";

/** The steps (by `base`) the plan adds or whose template it changes, each with its live side. */
export function changedSteps(
  plan: Plan,
  live: LiveSnapshot,
  desired: DesiredState,
  steps: readonly MessageStep[],
): Map<string, LiveSide> {
  const touched = new Map<string, Set<string> | "all">();
  for (const action of plan.actions) {
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
    if (wanted === undefined || (wanted !== "all" && !wanted.has(item.step.name))) continue;
    const id = ids.get(item.workflow.key);
    const workflow = id === undefined ? undefined : live.kinds.workflow?.get(id);
    const liveSteps = workflow?.steps ?? [];
    const index = liveSteps.findIndex((step, i) => liveStepName(step, i) === item.step.name);
    const step = index < 0 ? undefined : liveSteps[index];
    out.set(item.base, {
      template:
        step === undefined
          ? undefined
          : (liveTemplateOf(step, layoutIdentifiersOf(live.kinds.workflow)) as StepTemplateSpec),
      inputs,
    });
  }
  return out;
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
