// A workflow's preview examples (`preview:` in the config), as a list with names: the one place
// that reads the field, for `notiform preview` and the render checks. An example loaded from a
// file was not seen by the schema, so a payload or subscriber that is not a mapping is reported
// here, at the workflow's `preview` field.

import type { Position, Problem } from "../../errors.js";
import type { WorkflowSpec } from "./types.js";

export interface PreviewExample {
  name: string;
  payload: Record<string, unknown>;
  subscriber: Record<string, unknown> | undefined;
}

/** The workflow's examples, named (`example-N` when unnamed); [] when it has none. */
export function previewExamplesOf(spec: WorkflowSpec): PreviewExample[] {
  const written =
    spec.preview === undefined ? [] : Array.isArray(spec.preview) ? spec.preview : [spec.preview];
  return written.map((example, index) => ({
    name: typeof example.name === "string" && example.name !== "" ? example.name : `example-${index + 1}`,
    payload: isRecord(example.payload) ? example.payload : {},
    subscriber: isRecord(example.subscriber) ? example.subscriber : undefined,
  }));
}

/**
 * The data a template is rendered with for one example: the payload's keys at the top, and the
 * subscriber under `subscriber`, as the server's worker builds it at send time (the subscriber
 * replaces a payload key of that name).
 */
export function previewPayloadOf(example: PreviewExample): Record<string, unknown> {
  return example.subscriber === undefined
    ? example.payload
    : { ...example.payload, subscriber: example.subscriber };
}

/** Examples whose parts are not mappings, or names used twice (read from a file, past the schema). */
export function checkPreviewExamples(spec: WorkflowSpec, pos: Position, problems: Problem[]): void {
  if (spec.preview === undefined) return;
  const written: unknown[] = Array.isArray(spec.preview) ? spec.preview : [spec.preview];
  const names = new Set<string>();
  written.forEach((example, index) => {
    const label = written.length > 1 ? `preview example ${index + 1}` : "preview example";
    const fail = (message: string) =>
      problems.push({
        severity: "error",
        rule: "preview-example",
        message: `workflow "${spec.key}": ${label} ${message}`,
        pos,
        field: "preview",
      });
    if (!isRecord(example)) {
      fail("must be a mapping of name, payload and subscriber");
      return;
    }
    for (const key of Object.keys(example))
      if (!["name", "payload", "subscriber"].includes(key))
        fail(`has an unknown field "${key}" (allowed: name, payload, subscriber)`);
    for (const part of ["payload", "subscriber"] as const)
      if (example[part] !== undefined && !isRecord(example[part])) fail(`${part} must be a mapping`);
    const name = example.name;
    if (name !== undefined && typeof name !== "string") fail("name must be a string");
    if (typeof name === "string") {
      if (names.has(name)) fail(`name "${name}" is used twice`);
      names.add(name);
    }
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
