// The human rendering of a plan: a target line, the summary line, then one line per change
// with field-level old -> new. Colour only when the terminal allows it, as Terraform and git
// use it: each change's line in its op's colour, a field's old -> new in yellow (~), a diff's
// added lines green (+), removed lines red (-), hunk heads cyan. --verbose adds a unified diff
// per changed resource. Renderers only format: they never decide anything.
// Every embedded value passes through visibleText: names and values may come from the server.
import { createRequire } from "node:module";
import { canonicalJson, type JsonValue, sortKeysDeep } from "../canonical.js";
import type { FieldChange, PlanAction } from "../kinds/plan-action.js";
import { visibleText as v, visibleKey } from "../sanitize.js";
import type { Plan } from "./model.js";
import { describeKind, OP_SYMBOL, summaryLine, unlistedNote } from "./render-common.js";
import { renderContentChange } from "./render-steps.js";

export interface TextRenderOptions {
  color: boolean;
  verbose: boolean;
}

const COLORS: Record<PlanAction["op"], string> = {
  create: "\u001b[32m",
  update: "\u001b[33m",
  unverified: "\u001b[36m",
  "not-applicable": "\u001b[35m",
  uncertain: "\u001b[31m",
};
const RESET = "\u001b[0m";
const DIM = "\u001b[2m";
const GREEN = "\u001b[32m";
const RED = "\u001b[31m";
const YELLOW = "\u001b[33m";
const CYAN = "\u001b[36m";

/** A unified diff line's colour: added, removed, hunk head; file heads and context stay plain. */
function diffColor(line: string): string | undefined {
  if (line.startsWith("+++") || line.startsWith("---")) return DIM;
  if (line.startsWith("+")) return GREEN;
  if (line.startsWith("-")) return RED;
  if (line.startsWith("@@")) return CYAN;
  return undefined;
}

/** A field's change: green when it is new (+), yellow when it changes (~). */
function changeColor(change: FieldChange): string {
  return change.old === undefined && change.unknown !== true ? GREEN : YELLOW;
}

export function renderPlanText(plan: Plan, options: TextRenderOptions): string {
  const paint = (code: string | undefined, text: string) =>
    options.color && code !== undefined ? `${code}${text}${RESET}` : text;
  const lines: string[] = [];
  const env = plan.target.environment === null ? "" : `, environment ${v(plan.target.environment)}`;
  lines.push(`Target: ${v(plan.target.apiUrl)} (organization ${v(plan.target.organization)}${env})`);
  lines.push(summaryLine(plan));
  if (plan.actions.length > 0) lines.push("");
  for (const action of plan.actions) {
    const head = `${OP_SYMBOL[action.op]} ${describeKind(action.kind)} ${visibleKey(action.key)}`;
    const suffix =
      action.op === "create" || action.op === "update" ? "" : ` (${action.op}: ${v(action.reason ?? "")})`;
    lines.push(paint(COLORS[action.op], `  ${head}`) + (suffix ? paint(DIM, suffix) : ""));
    for (const change of action.changes) {
      const step = renderContentChange(change, formatValue);
      const color = changeColor(change);
      if (step === undefined) lines.push(`      ${paint(color, formatChange(change))}`);
      else {
        lines.push(`      ${paint(color, step.line)}`);
        for (const line of step.diff) lines.push(`        ${paint(diffColor(line), line)}`);
      }
    }
    if (options.verbose)
      for (const line of unifiedDiff(action)) lines.push(`      ${paint(diffColor(line), line)}`);
  }
  if (plan.unmanaged.length > 0) {
    lines.push(
      "",
      `Unmanaged (on the server, not in the config; notiform never deletes): ${plan.unmanaged.length}`,
    );
    const shown = options.verbose ? plan.unmanaged : plan.unmanaged.slice(0, 20);
    for (const item of shown) {
      lines.push(
        `    ${describeKind(item.kind)} ${visibleKey(item.key)}${item.name === undefined ? "" : ` (${v(item.name)})`}`,
      );
    }
    if (shown.length < plan.unmanaged.length)
      lines.push(`    ... and ${plan.unmanaged.length - shown.length} more (--verbose lists all)`);
  }
  const unlisted = unlistedNote(plan);
  if (unlisted !== undefined) lines.push("", paint(DIM, unlisted));
  if (plan.warnings.length > 0) {
    lines.push("", "Warnings:");
    for (const warning of plan.warnings) {
      const where = warning.source
        ? `${v(warning.source.file)}:${warning.source.line}:${warning.source.col}  `
        : "";
      lines.push(`  ${where}${v(warning.message)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** `field: old -> new`, each value through `format` (the markdown comment cuts them to a width). */
export function formatChange(
  change: FieldChange,
  format: (value: JsonValue) => string = formatValue,
): string {
  const next = format(change.new);
  const field = v(change.field);
  if (change.unknown === true) return `${field}: (unknown) -> ${next}`;
  if (change.old === undefined) return `${field}: ${next}`;
  return `${field}: ${format(change.old)} -> ${next}`;
}

/** A value as JSON (as it is sent), with what JSON leaves raw (C1, bidi controls) escaped too. */
export function formatValue(value: JsonValue): string {
  return v(typeof value === "string" ? JSON.stringify(value) : canonicalJson(value));
}

// Loaded only for --verbose: every other run would pay for loading it at start-up.
const require = createRequire(import.meta.url);

function unifiedDiff(action: PlanAction): string[] {
  const { createTwoFilesPatch } = require("diff") as typeof import("diff");
  const before: Record<string, JsonValue> = {};
  const after: Record<string, JsonValue> = {};
  for (const change of action.changes) {
    if (change.old !== undefined) before[change.field] = change.old;
    after[change.field] = change.new;
  }
  const patch = createTwoFilesPatch(
    `${action.id} (live)`,
    `${action.id} (desired)`,
    action.op === "create" ? "" : `${JSON.stringify(sortKeysDeep(before), null, 2)}\n`,
    `${JSON.stringify(sortKeysDeep(after), null, 2)}\n`,
    undefined,
    undefined,
    { context: 3 },
  );
  return patch
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("====="))
    .map((line) => v(line));
}
