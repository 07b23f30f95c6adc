// The preview of a config: every message step rendered with each of its workflow's examples (or
// placeholder values), and with --changed the steps the plan changes, rendered from the server's
// current content too. Pure: the config, the renderer and what was read come in; the model
// (model.ts) goes out.

import type { DesiredState } from "../config/model.js";
import { previewExamplesOf, previewPayloadOf } from "../kinds/workflow/preview-examples.js";
import { type StepTemplateSpec, templateAsSent } from "../kinds/workflow/step-spec.js";
import { type Masker, maskDeep } from "../mask.js";
import type { LayoutTemplate, Renderer } from "../render/index.js";
import type { MessageStep } from "./message-steps.js";
import type { PreviewSite, PreviewStep, RenderedExample } from "./model.js";
import { placeholderPayload } from "./placeholders.js";
import { type RenderInputs, renderStep, templateTexts } from "./render-step.js";

/** The server's side of a changed step (--changed). */
export interface LiveSide {
  /** undefined: the step is new. */
  template: StepTemplateSpec | undefined;
  inputs: RenderInputs;
  /**
   * Not rendered: the step's template, or a layout or the branding it renders with, held a value
   * from the environment when last applied (changed-steps.ts), which the render would show.
   */
  withheld?: true;
}

/** What a withheld live side says instead of its render. */
export const WITHHELD_SIDE =
  "held back: when last applied, this message's content held a value from the environment, which is not shown";

export interface BuildOptions {
  /** --changed: only these steps (by `base`), each with the server's side. */
  changed?: ReadonlyMap<string, LiveSide>;
}

/**
 * buildSite over masked inputs (config, steps, the server's side): a value from the environment
 * comes out of a template escaped (`=` as &#x3D;) or changed by a helper (`uppercase`), forms a
 * mask of the finished text cannot know; rendered masked, it shows as the mask whatever the
 * template does with it. The preview and the plan's comment render so.
 */
export function buildMaskedSite(
  renderer: Renderer,
  desired: DesiredState,
  steps: readonly MessageStep[],
  changed: BuildOptions["changed"],
  masker: Masker,
): PreviewSite {
  return buildSite(
    renderer,
    maskDeep(desired, masker),
    maskDeep(steps, masker),
    changed === undefined
      ? {}
      : { changed: new Map([...changed].map(([base, side]) => [base, maskDeep(side, masker)])) },
  );
}

export function buildSite(
  renderer: Renderer,
  desired: DesiredState,
  steps: readonly MessageStep[],
  options: BuildOptions = {},
): PreviewSite {
  const inputs = configInputs(desired);
  const out: PreviewStep[] = [];
  for (const item of steps) {
    const live = options.changed?.get(item.base);
    if (options.changed !== undefined && live === undefined) continue;
    const notes = new Set<string>();
    const template = templateAsSent(item.step) ?? {};
    let examples = previewExamplesOf(item.workflow).map((example) => ({
      name: example.name,
      placeholder: false,
      payload: previewPayloadOf(example),
    }));
    if (examples.length === 0) {
      const names = [
        ...templateTexts(item.step).flatMap((text) => renderer.templateVariables(text)),
        ...layoutPlaceholders(renderer, template, inputs),
      ];
      examples = [{ name: "placeholders", placeholder: true, payload: placeholderPayload(names) }];
      notes.add(
        "The workflow has no preview example: each variable shows as [its name]. Add `preview: { payload: ..., subscriber: ... }` to the workflow for real values.",
      );
    }
    const rendered: RenderedExample[] = examples.map((example) => {
      const after = renderStep(renderer, item.channel, template, example.payload, inputs, notes);
      const result: RenderedExample = { name: example.name, placeholder: example.placeholder, after };
      if (live?.withheld === true) result.before = { ok: false, error: WITHHELD_SIDE, withheld: true };
      else if (live?.template !== undefined)
        result.before = renderStep(
          renderer,
          item.channel,
          live.template,
          example.payload,
          live.inputs,
          new Set(),
        );
      return result;
    });
    out.push({
      workflow: item.workflow.key,
      workflowName: item.workflow.name,
      step: item.step.name,
      channel: item.channel,
      base: item.base,
      examples: rendered,
      ...(live !== undefined
        ? { change: live.template === undefined ? ("added" as const) : ("changed" as const) }
        : {}),
      notes: [...notes],
      source: item.source,
    });
  }
  return { steps: out, changedOnly: options.changed !== undefined };
}

/** Layouts and branding as the config holds them. */
export function configInputs(desired: DesiredState): RenderInputs {
  const layouts = new Map<string, LayoutTemplate>();
  for (const { spec } of desired.resources.layout) {
    if (typeof spec.content !== "string") continue;
    layouts.set(spec.identifier, {
      content: spec.content,
      ...(spec.variables !== undefined ? { variables: spec.variables } : {}),
    });
  }
  const branding = desired.resources.branding[0]?.spec;
  return {
    layouts,
    branding:
      branding === undefined
        ? undefined
        : {
            ...(branding.logo !== undefined ? { logo: branding.logo } : {}),
            ...(branding.color !== undefined ? { color: branding.color } : {}),
          },
  };
}

/**
 * The variables of the layout an email step names, for its placeholders: each shows as [its
 * name] like the step's own, except one the layout gives a default (the default shows).
 */
function layoutPlaceholders(renderer: Renderer, template: StepTemplateSpec, inputs: RenderInputs): string[] {
  const layout = typeof template.layout === "string" ? inputs.layouts.get(template.layout) : undefined;
  if (layout === undefined) return [];
  const defaulted = new Set(
    (layout.variables ?? [])
      .filter((v) => v.defaultValue !== undefined && v.defaultValue !== "")
      .map((v) => v.name),
  );
  return renderer.templateVariables(layout.content).filter((name) => !defaulted.has(name));
}
