// Seeded workflows' content: each step list a seed gives is built as a PUT with `steps` builds it
// (steps.ts: a message template per step with a fresh id, the trigger's variables derived from
// the templates). It runs before the layouts are seeded: an e-mail template is on no layout, in
// Development as in Production (which has no layout until one is promoted), so a seeded
// workflow's content plans alike in both.
// A Production workflow stands for a promoted copy: each of its templates points (`_parentId`)
// at the Development template of the step of the same name, as promotion would have left it.
import type { Seed } from "./seed.js";
import { buildSteps, triggerVariables } from "./steps.js";
import type { EmulatorData } from "./store.js";

export function seedSteps(data: EmulatorData, seed: Seed, now: string): void {
  for (const name of ["development", "production"] as const) {
    const store = data.environments[name];
    for (const seeded of seed.environments?.[name]?.workflows ?? []) {
      const workflow = store.workflows.find((w) => w._id === seeded._id);
      if (workflow === undefined || seeded.steps === undefined) continue;
      const ctx = { data, store, now };
      // A copy: building takes the list as a request body, and the seed stays as it was read.
      const sent: Record<string, unknown>[] = structuredClone(seeded.steps).map((step) => ({ ...step }));
      workflow.steps = buildSteps(ctx, sent);
      const trigger = workflow.triggers[0];
      if (trigger !== undefined) Object.assign(trigger, triggerVariables(ctx, workflow.steps));
    }
  }
  const development = data.environments.development.workflows;
  for (const workflow of data.environments.production.workflows) {
    const parent = development.find((w) => w._id === workflow._parentId);
    for (const step of workflow.steps) {
      const source = parent?.steps.find((s) => s.name !== undefined && s.name === step.name);
      const template = step.template as Record<string, unknown> | undefined;
      if (source?._templateId !== undefined && template !== undefined)
        template._parentId = source._templateId;
    }
  }
}
