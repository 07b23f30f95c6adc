// `notiform validate` as data: load the config, and turn the outcome (valid, or every problem)
// into a result the command renders. Offline: no network, no state file.

import type { DesiredState, LoadOptions } from "../config/model.js";
import { ConfigError, type Problem } from "../errors.js";
import { describeKind, KINDS, registry } from "../kinds/registry.js";
import { count } from "../plural.js";
import { loadConfig } from "./index.js";

function summaryOf(desired: DesiredState): ValidateResult["summary"] {
  return { files: desired.files.length, ...countsOf(desired.resources) };
}

/** Entries per config section ("topics": 3, ...). */
function countsOf(resources: DesiredState["resources"]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of KINDS) counts[registry[kind].section.name] = resources[kind].length;
  return counts;
}

export interface ValidateResult {
  valid: boolean;
  problems: Problem[];
  /** Files loaded, and entries per config section ("topics": 3, ...). */
  summary: ({ files: number } & Record<string, number>) | null;
  /** Values from the environment: the renderer masks them. */
  sensitive: string[];
  /**
   * Without --env, each environment's entries per section (its overlay over the base), by name;
   * absent when the config names no environment or one was selected.
   */
  environments?: Record<string, Record<string, number>>;
}

export async function validateConfig(options: LoadOptions): Promise<ValidateResult> {
  try {
    const { desired, warnings, environments } = await loadConfig(options);
    return {
      valid: true,
      problems: warnings,
      summary: summaryOf(desired),
      sensitive: desired.sensitive,
      ...(environments === undefined
        ? {}
        : {
            environments: Object.fromEntries(
              Object.entries(environments).map(([name, resources]) => [name, countsOf(resources)]),
            ),
          }),
    };
  } catch (error) {
    if (error instanceof ConfigError)
      return { valid: false, problems: error.problems, summary: null, sensitive: error.sensitive };
    throw error;
  }
}

export function renderValidateText(result: ValidateResult): { out: string; err: string } {
  const lines = result.problems.map(
    (p) => `${p.pos.file}:${p.pos.line}:${p.pos.col}  ${p.severity}  ${p.message}`,
  );
  const errors = result.problems.filter((p) => p.severity === "error").length;
  if (!result.valid || result.summary === null) {
    return {
      out: "",
      err: `${lines.join("\n")}\n${errors} ${errors === 1 ? "error" : "errors"}: the configuration is not valid\n`,
    };
  }
  // With environments, the base's entries, then what each environment has over it.
  const environments = Object.entries(result.environments ?? {});
  const base = environments.length === 0 ? "" : "the base: ";
  const out = [
    `${count(result.summary.files, "file")} valid: ${base}${countsText(result.summary)}`,
    ...environments.map(([name, counts]) => `environment ${name}: ${countsText(counts)}`),
  ];
  return { out: `${out.join("\n")}\n`, err: lines.length > 0 ? `${lines.join("\n")}\n` : "" };
}

function countsText(s: Record<string, number>): string {
  return KINDS.filter(
    (kind) => registry[kind].section.shape === "list" || (s[registry[kind].section.name] ?? 0) > 0,
  )
    .map((kind) => {
      const n = s[registry[kind].section.name] ?? 0;
      return registry[kind].section.shape === "single" ? describeKind(kind) : `${n} ${describeKind(kind, n)}`;
    })
    .join(", ");
}

export function renderValidateJson(result: ValidateResult): string {
  return `${JSON.stringify(validateJsonDocument(result), null, 2)}\n`;
}

/** The document `validate --output json` prints (the CLI adds the error object when invalid). */
export function validateJsonDocument(result: ValidateResult) {
  const problems = result.problems.map((p) => ({
    severity: p.severity,
    rule: p.rule,
    message: p.message,
    file: p.pos.file,
    line: p.pos.line,
    col: p.pos.col,
    field: p.field ?? null,
  }));
  return {
    valid: result.valid,
    problems,
    summary: result.summary,
    ...(result.environments === undefined ? {} : { environments: result.environments }),
  };
}
