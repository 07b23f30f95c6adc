// A layout's types, declared into KindTypes (src/kinds/kinds.ts): its config entry, what a plan
// reads of it, the writes a plan can make, and its share of the typed client.
import type { JsonObject } from "../../canonical.js";
import type { LayoutEndpoints, LayoutExtension } from "./api.js";
import type { Layout } from "./wire.js";

/** An e-mail layout, authored in Development and promoted. */
export interface LayoutSpec {
  /** Identity, the same in every environment; a step's `template.layout` names it. */
  identifier: string;
  name?: string;
  description?: string;
  /** The HTML; must hold `{{{body}}}` (`{ file: PATH }` is read by the loader). */
  content?: string;
  contentType?: string;
  variables?: { name: string; type?: string; required?: boolean; defaultValue?: unknown }[];
  isDefault?: boolean;
}

export type LayoutOperation =
  /** POST /v1/layouts (answers the id only). */
  | { type: "layout.create"; identifier: string; body: JsonObject }
  | {
      type: "layout.update";
      identifier: string;
      layoutId: string;
      fields: JsonObject;
      /** After this action's create: the id it produced (`layout/IDENTIFIER`). */
      layoutFromAction?: string;
    }
  | {
      type: "layout.setDefault";
      identifier: string;
      layoutId: string;
      /** After this action's create: the id it produced (`layout/IDENTIFIER`). */
      layoutFromAction?: string;
    };

declare module "../kinds.js" {
  interface KindTypes {
    layout: {
      spec: LayoutSpec;
      /** Keyed by identifier; undefined when the server does not list layouts. */
      live: Map<string, Layout> | undefined;
      operation: LayoutOperation;
      endpoints: LayoutEndpoints;
      extension: LayoutExtension;
      promoted: true;
    };
  }
}
