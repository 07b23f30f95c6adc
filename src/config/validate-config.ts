// `notiform validate` as data: load the config, and turn the outcome (valid, or every problem)
// into a result the command renders. Offline: no network, no state file.

import { ConfigError, type Problem } from "../errors.js";
import { count } from "../plural.js";
import { loadConfig } from "./index.js";
import type { LoadOptions } from "./model.js";

export interface ValidateResult {
  valid: boolean;
  problems: Problem[];
  summary: {
    files: number;
    topics: number;
    notificationGroups: number;
    workflows: number;
    overrides: number;
  } | null;
  /** Values from the environment: the renderer masks them. */
  sensitive: string[];
}

export async function validateConfig(options: LoadOptions): Promise<ValidateResult> {
  try {
    const { desired, warnings } = await loadConfig(options);
    return {
      valid: true,
      problems: warnings,
      summary: {
        files: desired.files.length,
        topics: desired.topics.length,
        notificationGroups: desired.notificationGroups.length,
        workflows: desired.workflows.length,
        overrides: desired.overrides.length,
      },
      sensitive: desired.sensitive,
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
  const s = result.summary;
  const out = `${count(s.files, "file")} valid: ${count(s.topics, "topic")}, ${count(s.notificationGroups, "notification group")}, ${count(s.workflows, "workflow")}, ${count(s.overrides, "override")}\n`;
  return { out, err: lines.length > 0 ? `${lines.join("\n")}\n` : "" };
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
  return { valid: result.valid, problems, summary: result.summary };
}
