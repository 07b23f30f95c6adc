// A workflow step as the config describes it (workflows[].steps[]): its identity is its name
// inside the workflow. Long text may be written as `{ file: PATH }` (WrittenStepSpec); after
// loading it is the file's text (StepSpec), so nothing past the loader sees a reference.
import type { TextFileRef } from "../../config/file-ref.js";

export const STEP_TYPES = ["email", "in_app", "sms", "chat", "push", "digest", "delay"] as const;
export type StepType = (typeof STEP_TYPES)[number];

export interface StepVariableSpec {
  name: string;
  type?: "String" | "Array" | "Boolean";
  required?: boolean;
  defaultValue?: unknown;
}

/** A filter's condition: the fields a server stores as text; its value may be anything. */
export interface StepFilterConditionSpec {
  field?: string;
  operator?: string;
  on?: string;
  webhookUrl?: string;
  timeOperator?: string;
  step?: string;
  stepType?: string;
  [key: string]: unknown;
}

/** A step filter in the server's shape, with the types the server stores each field with. */
export interface StepFilterSpec {
  isNegated?: boolean;
  type?: string;
  value?: string;
  children?: StepFilterConditionSpec[];
  [key: string]: unknown;
}

/** Digest and delay settings, with the types the server stores each field with. */
export interface StepMetadataSpec {
  type?: string;
  amount?: number;
  unit?: string;
  digestKey?: string;
  delayPath?: string;
  backoff?: boolean;
  backoffAmount?: number;
  backoffUnit?: string;
  updateMode?: boolean;
  timed?: {
    atTime?: string;
    weekDays?: string[];
    monthDays?: number[];
    ordinal?: string;
    ordinalValue?: string;
    monthlyType?: string;
  };
  [key: string]: unknown;
}

export interface StepTemplateSpec<Text = string> {
  subject?: string;
  /** Text (HTML for email customHtml), or for email with contentType editor the server's block list. */
  content?: Text | Record<string, unknown>[];
  contentType?: "editor" | "customHtml";
  preheader?: Text;
  senderName?: string;
  title?: string;
  cta?: { type?: string; action?: unknown; [key: string]: unknown };
  /** A layout identifier, resolved to the layout's id in each environment. */
  layout?: string;
  variables?: StepVariableSpec[];
}

export interface StepSpec<Text = string> {
  name: string;
  type: StepType;
  active?: boolean;
  shouldStopOnFail?: boolean;
  filters?: StepFilterSpec[];
  metadata?: StepMetadataSpec;
  replyCallback?: { active?: boolean; url?: string };
  template?: StepTemplateSpec<Text>;
}

/** A step as written in a file, before `{ file: PATH }` references are read. */
export type WrittenStepSpec = StepSpec<string | TextFileRef>;

/**
 * A step's template as it is sent and rendered: an e-mail step whose config sets its content but
 * no `contentType` is `customHtml` (a block list must say `editor`: the checks require it). The
 * type is always sent, because a server reads a step without one as `editor`, and an editor step
 * holding HTML fails every render (r4-66): at send time, after the write was accepted.
 */
export function templateAsSent(step: StepSpec): StepTemplateSpec | undefined {
  const template = step.template;
  if (step.type !== "email" || template === undefined || template.content === undefined) return template;
  if (template.contentType !== undefined) return template;
  return { ...template, contentType: Array.isArray(template.content) ? "editor" : "customHtml" };
}
