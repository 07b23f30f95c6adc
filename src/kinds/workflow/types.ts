// A workflow's types, declared into KindTypes (src/kinds/kinds.ts): its config entry, what a
// plan reads of it, the writes a plan can make, and its share of the typed client.

import type { JsonObject } from "../../canonical.js";
import type { PreferenceSettings } from "../../config/model.js";
import type { WorkflowEndpoints, WorkflowExtension } from "./api.js";
import type { StepSpec } from "./step-spec.js";
import type { Workflow } from "./wire.js";

/**
 * A workflow is created in Development when missing (with a name). Fields left out are not managed: notiform neither
 * compares nor sends them. `notificationGroup` names a notificationGroups key of this config.
 * Ids differ per environment and trigger identifiers do not, so an entry names its workflow by
 * `identifier` (resolved per environment before planning) and/or `id`.
 */
export interface WorkflowSpec {
  /** Defaults to `identifier` (the loader fills it in). */
  key: string;
  /** The trigger identifier: the same in every environment. */
  identifier?: string;
  /** The server `_id` (24 hex) in this environment: given, or resolved from `identifier`. */
  id?: string;
  /**
   * Set by resolve (never in a config file) when `id` is a workflow an interrupted create made,
   * adopted by its name: the server named its trigger after the name, so the plan sets
   * `identifier` on it (resolve.ts).
   */
  adopted?: true;
  name?: string;
  active?: boolean;
  description?: string;
  tags?: string[];
  critical?: boolean;
  preferenceSettings?: Partial<PreferenceSettings>;
  notificationGroup?: string;
  data?: Record<string, unknown>;
  /** The workflow's content, in order; managed as a whole when present (step-spec.ts). */
  steps?: StepSpec[];
  /** Examples to render previews with: never sent, planned or digested (preview-examples.ts). */
  preview?: PreviewExampleSpec | PreviewExampleSpec[];
}

/** One preview example as loaded (a `{ file: PATH }` already replaced by the file's mapping). */
export interface PreviewExampleSpec {
  name?: string;
  payload?: Record<string, unknown>;
  subscriber?: Record<string, unknown>;
}

/** As written: an example may be `{ file: PATH }` (so may its payload and subscriber, objects too). */
export type WrittenPreviewExampleSpec = PreviewExampleSpec & { file?: string };

/** A step (index in the body's `steps`) whose layout is created by another action (`layout/ID`). */
export interface LayoutFromAction {
  step: number;
  action: string;
}

export type WorkflowOperation =
  | {
      /**
       * POST /v1/workflows (Development): the server makes the trigger identifier from the name,
       * so the executor then sets `identifier` with PUT when that slug differs.
       */
      type: "workflow.create";
      identifier: string;
      /** The body as sent: name, notificationGroupId, steps and the settings the config sets. */
      body: JsonObject;
      /** The group is one another action of this plan creates. */
      groupFromAction?: string;
      /** Steps whose layout another action of this plan creates. */
      layoutsFromActions?: LayoutFromAction[];
    }
  | {
      type: "workflow.update";
      workflowId: string;
      /** The body fields, as sent (preferenceSettings whole: the server replaces it). */
      fields: JsonObject;
      /** The group joins a notification group another action of this plan creates. */
      groupFromAction?: string;
      /** Steps whose layout another action of this plan creates. */
      layoutsFromActions?: LayoutFromAction[];
    }
  | {
      type: "workflow.setStatus";
      workflowId: string;
      active: boolean;
      /** The live status was unknown: a "must provide a different status" 400 means done. */
      acceptUnchanged?: boolean;
    };

declare module "../kinds.js" {
  interface KindTypes {
    workflow: {
      spec: WorkflowSpec;
      /** Keyed by workflow id; undefined when the server has no workflow read extension. */
      live: Map<string, Workflow> | undefined;
      operation: WorkflowOperation;
      endpoints: WorkflowEndpoints;
      extension: WorkflowExtension;
      promoted: true;
    };
  }
}
