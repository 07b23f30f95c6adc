// The one error rendering raises: a template the engine cannot parse or render, or a payload a
// layout refuses. `message` is the engine's (or the server's) own text, exactly as the server
// answers it in a 400, so the emulator and the preview show what a real server would say.

import { NotiformError } from "../errors.js";
import type { TemplatePosition } from "./types.js";

/**
 * - "parse": the text is not a template (unclosed block, mismatched close, incomplete mustache);
 * - "render": it parsed but failed while rendering (unknown helper, partial, a helper's own error);
 * - "payload": a layout's required variable is missing from the payload.
 */
export type RenderErrorKind = "parse" | "render" | "payload";

export class RenderError extends NotiformError {
  readonly kind: RenderErrorKind;
  /** The template field that failed ("subject", "content", "blocks[1].url", "layout", ...). */
  readonly field: string | undefined;
  /** Where in that field's text, when the engine says. */
  readonly at: TemplatePosition | undefined;

  constructor(
    kind: RenderErrorKind,
    message: string,
    options: { field?: string; at?: TemplatePosition } = {},
  ) {
    super("TEMPLATE_INVALID", message);
    this.name = "RenderError";
    this.kind = kind;
    this.field = options.field;
    this.at = options.at;
  }

  /** The same error, naming the field it came from. */
  inField(field: string): RenderError {
    if (this.field !== undefined) return this;
    return new RenderError(this.kind, this.message, {
      field,
      ...(this.at === undefined ? {} : { at: this.at }),
    });
  }
}
