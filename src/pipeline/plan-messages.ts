// The changed messages of a plan, rendered for its pull-request comment: the steps the plan adds
// or changes (preview/changed-steps.ts), each rendered with its workflow's first preview example
// (or placeholders) from the server's content and from the config's. Loaded by `plan --output
// markdown` only when the plan changes content: the renderer comes with it. What is rendered is
// masked first, as the preview's is (preview.ts): a value from the environment printed by a
// template comes out escaped or changed by a helper, forms a mask of the finished text misses.

import type { Masker } from "../mask.js";
import type { MessageChange, MessageSide } from "../plan/render-messages.js";
import { buildMaskedSite } from "../preview/build-site.js";
import { changedSteps } from "../preview/changed-steps.js";
import { channelLabel } from "../preview/channel-views.js";
import { messageStepsOf } from "../preview/message-steps.js";
import type { RenderOutcome } from "../preview/model.js";
import { loadRenderer } from "../render/index.js";
import type { PreparedPlan } from "./prepare-plan.js";

export async function renderMessageChanges(prepared: PreparedPlan, masker: Masker): Promise<MessageChange[]> {
  const desired = prepared.session.desired;
  const steps = messageStepsOf(desired);
  const changed = changedSteps(prepared.plan, prepared.live, desired, steps, prepared.state.heldSecrets);
  if (changed.size === 0) return [];
  const renderer = await loadRenderer();
  const site = buildMaskedSite(renderer, desired, steps, changed, masker);
  return site.steps.flatMap((step) => {
    const first = step.examples[0];
    if (first === undefined) return [];
    return [
      {
        workflow: step.workflow,
        step: step.step,
        channel: channelLabel(step.channel),
        ...(first.before !== undefined ? { before: sideOf(first.before) } : {}),
        after: sideOf(first.after),
      },
    ];
  });
}

function sideOf(outcome: RenderOutcome): MessageSide {
  if (!outcome.ok && outcome.withheld === true) return { withheld: true };
  if (!outcome.ok) return { error: outcome.error };
  const m = outcome.message;
  const headline =
    m.subject ??
    m.title ??
    (m.content ?? "")
      .split("\n")
      .find((line) => line.trim() !== "")
      ?.trim();
  return {
    ...(headline !== undefined ? { headline } : {}),
    ...(m.segments !== undefined ? { segments: m.segments.segments } : {}),
  };
}
