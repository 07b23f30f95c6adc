// How a failure is shown: text on stderr for people, or (with --output json) exactly one JSON
// object on stdout for machines (schemas/error.schema.json). The exit code is the same either
// way. Secrets are masked structurally, so the JSON stays valid whatever a secret contains.
import {
  ConfigError,
  InternalError,
  isNotiformError,
  type NotiformError,
  type Position,
  type Problem,
} from "../errors.js";
import { maskDeep } from "../mask.js";
import type { CommandContext } from "./command.js";
import { EXIT } from "./exit-codes.js";

export const ERROR_FORMAT_VERSION = 1;

// A type, not an interface: like the schema, it admits a command's own fields beside the error.
export type ErrorReport = {
  formatVersion: typeof ERROR_FORMAT_VERSION;
  error: {
    code: string;
    message: string;
    hint?: string;
    location?: Position;
    problems?: {
      severity: Problem["severity"];
      rule: string;
      message: string;
      location: Position;
      field?: string;
    }[];
  };
};

export interface ReportOptions {
  json: boolean;
  verbose: boolean;
}

/** Render a failure and choose its exit code: the one place errors become exit codes. */
export function reportError(
  error: unknown,
  context: Pick<CommandContext, "terminal" | "masker">,
  options: ReportOptions,
): number {
  const exitCode = isNotiformError(error) && error.code === "INTERRUPTED" ? EXIT.interrupted : EXIT.error;
  if (error instanceof ConfigError) context.masker.add(...error.sensitive);
  if (options.json) {
    const report = maskDeep(errorReport(error, options.verbose), context.masker);
    context.terminal.out(`${JSON.stringify(report, null, 2)}\n`);
  } else context.terminal.err(errorText(error, options.verbose));
  return exitCode;
}

/** A typed error the user can act on; anything else (untyped, or an InternalError) is a bug of notiform. */
function isExpected(error: unknown): error is NotiformError {
  return isNotiformError(error) && !(error instanceof InternalError);
}

export function errorReport(error: unknown, verbose: boolean): ErrorReport {
  if (!isExpected(error)) {
    return {
      formatVersion: ERROR_FORMAT_VERSION,
      error: { code: "INTERNAL", message: internalMessage(error, verbose), hint: REPORT_BUG },
    };
  }
  const body: ErrorReport["error"] = { code: error.code, message: error.message };
  if (error.hint !== undefined) body.hint = error.hint;
  if (error.pos !== undefined) body.location = error.pos;
  if (error instanceof ConfigError) body.problems = error.problems.map(problemJson);
  return { formatVersion: ERROR_FORMAT_VERSION, error: body };
}

function problemJson(p: Problem) {
  return {
    severity: p.severity,
    rule: p.rule,
    message: p.message,
    location: p.pos,
    ...(p.field !== undefined ? { field: p.field } : {}),
  };
}

const REPORT_BUG = "This is a bug in notiform; please report it with the command you ran.";

function internalMessage(error: unknown, verbose: boolean): string {
  if (!(error instanceof Error)) return String(error);
  return verbose ? (error.stack ?? error.message) : error.message;
}

export function errorText(error: unknown, verbose: boolean): string {
  if (!isExpected(error)) {
    return `internal error: ${internalMessage(error, verbose)}\nThis is a bug in notiform; please report it with the command you ran${verbose ? "" : " and its --verbose output"}.\n`;
  }
  if (error.code === "USAGE") {
    return `error: ${error.message}\n${error.hint !== undefined ? `hint: ${error.hint}\n` : ""}Run with --help for usage.\n`;
  }
  if (error instanceof ConfigError) return configErrorText(error);
  return notiformErrorText(error, verbose);
}

function configErrorText(error: ConfigError): string {
  const lines = error.problems.map(
    (p) => `${p.pos.file}:${p.pos.line}:${p.pos.col}  ${p.severity}  ${p.message}`,
  );
  return `${lines.join("\n")}\n${error.message}\n`;
}

function notiformErrorText(error: NotiformError, verbose: boolean): string {
  const where = error.pos ? `${error.pos.file}:${error.pos.line}:${error.pos.col}  ` : "";
  let text = `error: ${where}${error.message}\n`;
  if (error.hint) text += `hint: ${error.hint}\n`;
  if (verbose && error.stack) text += `${error.stack}\n`;
  return text;
}
