// The message steps a preview shows, in config order: each workflow's email, in-app, SMS, chat and
// push steps (digest and delay steps send nothing), with the files they are written to, named as
// `export` names template files (`<workflow>/<step>`, steps-export.ts): the same slug rules, so a
// step's preview sits at the path its template would be exported to (except a device name Windows
// reserves, which gets a suffix here). Pure.

import type { DesiredState } from "../config/model.js";
import type { Position } from "../errors.js";
import { DEVICE_NAMES, slug, uniqueKey } from "../kinds/export-keys.js";
import type { StepSpec } from "../kinds/workflow/step-spec.js";
import type { WorkflowSpec } from "../kinds/workflow/types.js";
import { MESSAGE_CHANNELS, type MessageChannel } from "./model.js";

export interface MessageStep {
  workflow: WorkflowSpec;
  step: StepSpec;
  channel: MessageChannel;
  /** `<workflow>/<step>`, relative to the site's folder. */
  base: string;
  source: Position;
}

/**
 * Every message step of the selected workflows (all when `only` is empty). `shown` is what a name
 * is shown as (masked: a workflow or step named by a value from the environment must not name
 * its file after it, slugged, it is still most of the value).
 */
// A slug that is a device name (DEVICE_NAMES: Windows refuses such a file or folder) is taken as
// used, so it gets a suffix (con-2).
export function messageStepsOf(
  desired: DesiredState,
  only: readonly string[] = [],
  shown: (name: string) => string = (name) => name,
): MessageStep[] {
  const out: MessageStep[] = [];
  const usedFolders = new Set<string>(DEVICE_NAMES);
  for (const { spec, source } of desired.resources.workflow) {
    const folder = uniqueKey(slug(shown(spec.key)) || "workflow", usedFolders);
    if (only.length > 0 && !only.includes(spec.key) && !only.includes(spec.identifier ?? "")) continue;
    const usedNames = new Set<string>(DEVICE_NAMES);
    for (const step of spec.steps ?? []) {
      const name = uniqueKey(slug(shown(step.name)) || "step", usedNames);
      if (!isMessageChannel(step.type)) continue;
      out.push({ workflow: spec, step, channel: step.type, base: `${folder}/${name}`, source: source.pos });
    }
  }
  return out;
}

export function isMessageChannel(type: string): type is MessageChannel {
  return (MESSAGE_CHANNELS as readonly string[]).includes(type);
}

/** The workflow keys and identifiers the config holds, for a --workflow that names none of them. */
export function workflowNamesOf(desired: DesiredState): string[] {
  return desired.resources.workflow.flatMap(({ spec }) =>
    spec.identifier !== undefined && spec.identifier !== spec.key ? [spec.key, spec.identifier] : [spec.key],
  );
}
