// What every route handler receives, and what it answers.
import { badRequest } from "../http-error.js";
import type { EmulatorData, EmulatorStore, StoreIndex } from "../store.js";

export type Flavor = "spec" | "real";

export interface HandlerContext {
  data: EmulatorData;
  store: EmulatorStore;
  index: StoreIndex;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  flavor: Flavor;
  now: string;
  /** Production keys may not use development-only routes. */
  environment: "development" | "production";
}

export interface Answer {
  status: number;
  /** The response body, already enveloped as the route answers it. */
  body: unknown;
  /** The request changed the state (persist with --data). */
  wrote?: boolean;
}

/** Synchronous, except where an answer needs a module loaded on first use (the renderer). */
export type Handler = (ctx: HandlerContext) => Answer | Promise<Answer>;

export const ok = (data: unknown, status = 200, wrote = false): Answer => ({ status, body: { data }, wrote });

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export const OBJECT_ID = /^[0-9a-f]{24}$/i;
export const CHANNELS = ["email", "sms", "in_app", "chat", "push"] as const;

/** The `name` of a create/rename body, refused like a real server's validation when missing or empty. */
export function requireName(body: unknown): string {
  const b = isObject(body) ? body : {};
  if (typeof b.name !== "string" || b.name.trim() === "") {
    throw badRequest(["name must be a string", "name should not be empty"]);
  }
  return b.name;
}

/**
 * A text's length as a real server's `@MaxLength` counts it (class-validator's validator.js
 * `isLength`): a surrogate pair (an emoji) is one character and a variation selector none, where
 * `.length` counts UTF-16 units.
 */
export function validatorLength(text: string): number {
  const pairs = text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0;
  const selectors = text.match(/[\uFE0E\uFE0F]/g)?.length ?? 0;
  return text.length - pairs - selectors;
}
