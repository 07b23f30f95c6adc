// How content changes read, in text and markdown alike: a step's field as
// `step NAME  FIELD: old -> new`, the step list as the steps added and removed (or reordered),
// and long text (a template's or a layout's HTML) as a unified diff from the `diff` package
// instead of one escaped string. Renderers only format: the changes themselves come from the plan.
import { createRequire } from "node:module";
import { type JsonValue, sortKeysDeep } from "../canonical.js";
import type { FieldChange } from "../kinds/plan-action.js";
import { parseStepField, STEPS_FIELD } from "../kinds/workflow/steps-canonical.js";
import { visibleText as v, visibleLine } from "../sanitize.js";

/** Text longer than this, or on more than one line, is shown as a diff. */
const LONG_TEXT = 80;

/** A change as lines: the first is its summary, the rest (a unified diff) belong under it. */
export interface RenderedChange {
  line: string;
  diff: string[];
}

/** What the two sides of a diff are called: the plan's live/desired, a promotion's environments. */
export interface DiffSides {
  before: string;
  after: string;
}

export const PLAN_SIDES: DiffSides = { before: "live", after: "desired" };

/**
 * A content change rendered: a step's field, the step list, or any field holding long text (a
 * layout's content); undefined when `change` is none of them (the caller formats it).
 */
export function renderContentChange(
  change: FieldChange,
  formatValue: (value: JsonValue) => string,
  sides: DiffSides = PLAN_SIDES,
): RenderedChange | undefined {
  return renderStepChange(change, formatValue, sides) ?? renderLongText(change, sides);
}

/** A field's long text (strings only: data keeps its one-line form) as a summary and a diff. */
function renderLongText(change: FieldChange, sides: DiffSides): RenderedChange | undefined {
  const text = (value: JsonValue | undefined) => typeof value === "string" && isLong(value);
  if (change.unknown === true || !(text(change.old) || text(change.new))) return undefined;
  if (!(isTextOrAbsent(change.old) && isTextOrAbsent(change.new))) return undefined;
  return {
    line: changedLine(v(change.field), change),
    diff: textDiff(change.old, change.new, change.field, sides),
  };
}

function isTextOrAbsent(value: JsonValue | undefined): boolean {
  return value === undefined || value === null || typeof value === "string";
}

function changedLine(head: string, change: FieldChange): string {
  const count = lineCount(change.new);
  // Text and data (an object) can print as the same lines: then the line says which is which.
  const from = shapeOf(change.old);
  const to = shapeOf(change.new);
  const what =
    change.old === undefined
      ? "(new)"
      : from !== to && from && to
        ? `changed from ${from} to ${to}`
        : "changed";
  return `${head}: ${what}, ${count} line${count === 1 ? "" : "s"}`;
}

function shapeOf(value: JsonValue | undefined): string | undefined {
  if (typeof value === "string") return "text";
  return value !== null && typeof value === "object" ? "data" : undefined;
}

/** A step's change rendered, or undefined when `change` is not one. */
export function renderStepChange(
  change: FieldChange,
  formatValue: (value: JsonValue) => string,
  sides: DiffSides = PLAN_SIDES,
): RenderedChange | undefined {
  if (change.field === STEPS_FIELD) return { line: stepListLine(change), diff: [] };
  const parsed = parseStepField(change.field);
  if (parsed === undefined) return undefined;
  const head = `step ${v(parsed.step)}  ${v(parsed.field.replace(/^template\./, ""))}`;
  const before = change.old;
  const after = change.new;
  if (change.unknown !== true && (isLong(before) || isLong(after))) {
    return { line: changedLine(head, change), diff: textDiff(before, after, parsed.step, sides) };
  }
  if (change.unknown === true) return { line: `${head}: (unknown) -> ${formatValue(after)}`, diff: [] };
  if (before === undefined) return { line: `${head}: ${formatValue(after)}`, diff: [] };
  return { line: `${head}: ${formatValue(before)} -> ${formatValue(after)}`, diff: [] };
}

/** `steps: + chat-ping, - in-app-welcome` (or the new order when only the order changed). */
function stepListLine(change: FieldChange): string {
  const after = namesOf(change.new);
  if (change.old === undefined || change.unknown === true) return `steps: ${after.map(v).join(", ")}`;
  const before = namesOf(change.old);
  const added = after.filter((name) => !before.includes(name));
  const removed = before.filter((name) => !after.includes(name));
  const parts = [...added.map((name) => `+ ${v(name)}`), ...removed.map((name) => `- ${v(name)} (removed)`)];
  const kept = after.filter((name) => before.includes(name));
  const keptBefore = before.filter((name) => after.includes(name));
  if (kept.join("\u0000") !== keptBefore.join("\u0000")) parts.push(`order: ${after.map(v).join(", ")}`);
  return `steps: ${parts.join(", ")}`;
}

function namesOf(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

function isLong(value: JsonValue | undefined): boolean {
  if (typeof value === "string") return value.length > LONG_TEXT || value.includes("\n");
  // Data (metadata, filters, a block list) stays on one line while it is short.
  return (
    value !== undefined &&
    value !== null &&
    typeof value === "object" &&
    JSON.stringify(value).length > LONG_TEXT
  );
}

/** Text as a diff shows it: strings as they are, block lists and objects as indented JSON. */
function asText(value: JsonValue | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  // Keys sorted, as a saved plan holds them: `show plan.json` prints what `plan` printed.
  if (typeof value === "object") return JSON.stringify(sortKeysDeep(value), null, 2);
  return undefined;
}

function lineCount(value: JsonValue | undefined): number {
  return (asText(value) ?? "").replace(/\n$/, "").split("\n").length;
}

// Loaded when a plan has long text to show: every other run would pay for loading it at start-up.
const require = createRequire(import.meta.url);

function textDiff(
  before: JsonValue | undefined,
  after: JsonValue | undefined,
  name: string,
  sides: DiffSides,
): string[] {
  const { createTwoFilesPatch } = require("diff") as typeof import("diff");
  const old = asText(before) ?? "";
  const next = asText(after) ?? "";
  // A text without a final newline gets one, so that a last line does not read as changed, unless
  // the final newline is what changes: then the diff keeps its "\ No newline at end of file".
  const even = old === "" || next === "" || old.endsWith("\n") === next.endsWith("\n");
  const withEnd = (text: string) => (!even || text === "" || text.endsWith("\n") ? text : `${text}\n`);
  const patch = createTwoFilesPatch(
    `${name} (${sides.before})`,
    `${name} (${sides.after})`,
    withEnd(old),
    withEnd(next),
    undefined,
    undefined,
    { context: 2 },
  );
  return (
    patch
      .split("\n")
      .filter(
        (line) => line !== "" && !line.startsWith("=====") && !(even && line.startsWith("\\ No newline")),
      )
      // The two file heads and the hunk heads are notiform's; a text line's content is the user's.
      .map((line, index) =>
        index < 2 || !/^[-+ ]/.test(line) ? v(line) : line[0] + visibleLine(line.slice(1)),
      )
  );
}
