// Compile-time proof that each hand-written model has the whole shape of its published schema
// (checked by `npm run typecheck`, part of `npm test`): the type json-schema-to-ts derives from
// src/schemas/*.ts (generated from schemas/*.json, kept current by schemas.test.ts) and the model
// must be assignable both ways, and again with every property made required, so a field, an
// optionality, a type or an enum member on one side only fails to compile.
//
// What the comparison cannot see, and how it is handled:
// - Keywords without a type-level meaning (pattern, minLength, minimum, minProperties,
//   x-message, format) are not compared; the validator enforces them at run time.
// - Openness (additionalProperties) is compared only in part: an open schema object derives an
//   index signature, which a model *interface* lacks (the check fails: the seed's subscriber
//   preferences and the error report are type aliases for that reason), but TypeScript lets a
//   closed type literal stand for an open object, and an open model for a closed schema object.
// - A schema `{}` (any JSON) derives as `unknown`; the models say `JsonValue`. `Json` maps the
//   derived `unknown` to JsonValue before comparing, so a model field narrower than "any JSON"
//   still fails.
// - The config file's own layout (version, organization, sections, environments) has no model
//   type: files are data checked by the schema, and what the rest of notiform sees are the
//   entries, so the config schema's $defs (topic, notificationGroup, workflow, override,
//   branding) are compared with the Spec types.
// - An apply result's error `code` is published as any string (consumers must accept codes added
//   later) while the model names ErrorCode: that one field is widened to string before comparing.
import type { FromSchema, JSONSchema } from "json-schema-to-ts";
import type { ActionResult, ApplyReport } from "../../src/apply/model.js";
import type { JsonValue } from "../../src/canonical.js";
import type { ErrorReport } from "../../src/cli/error-report.js";
import type { Seed } from "../../src/emulator/seed.js";
import type { BrandingSpec } from "../../src/kinds/branding/types.js";
import type { NotificationGroupSpec } from "../../src/kinds/notification-group/types.js";
import type { OverrideSpec } from "../../src/kinds/override/types.js";
import type { TopicSpec } from "../../src/kinds/topic/types.js";
import type { WrittenStepSpec } from "../../src/kinds/workflow/step-spec.js";
import type { WorkflowSpec, WrittenPreviewExampleSpec } from "../../src/kinds/workflow/types.js";
import type { Plan } from "../../src/plan/model.js";
import type { Promotion, PromotionReport } from "../../src/promote/model.js";
import type { applyResultSchema } from "../../src/schemas/apply-result.js";
import type { errorSchema } from "../../src/schemas/error.js";
import type { notiformSchema } from "../../src/schemas/notiform.js";
import type { planSchema } from "../../src/schemas/plan.js";
import type { promotionSchema } from "../../src/schemas/promotion.js";
import type { promotionResultSchema } from "../../src/schemas/promotion-result.js";
import type { seedSchema } from "../../src/schemas/seed.js";
import type { stateSchema } from "../../src/schemas/state.js";
import type { StateFile } from "../../src/state/model.js";

/** The derived type with "any JSON" (`unknown`) spelled as the models spell it. */
type Json<T> = unknown extends T
  ? JsonValue
  : T extends readonly (infer U)[]
    ? Json<U>[]
    : T extends object
      ? { [K in keyof T]: Json<T[K]> }
      : T;

/** Every property required, at every depth: extra optional fields become visible. */
type AllRequired<T> = [JsonValue] extends [T] ? T : { [K in keyof T]-?: AllRequired<T[K]> };

type Fits<A, B> = [A] extends [B] ? true : false;

/**
 * Four checks, each `true` when it holds; the compiler error shows which failed: [schema fits
 * model, model fits schema, and the same two with every property required].
 */
type Same<Schema, Model> = readonly [
  schemaFitsModel: Fits<Json<Schema>, Model>,
  modelFitsSchema: Fits<Model, Schema>,
  noFieldOnlyInModel: Fits<AllRequired<Json<Schema>>, AllRequired<Model>>,
  noFieldOnlyInSchema: Fits<AllRequired<Model>, AllRequired<Schema>>,
];
const same = [true, true, true, true] as const;

type Derived<S extends JSONSchema> = FromSchema<S>;
/** One of the config schema's $defs (a resource entry), its internal $refs resolved. */
type ConfigDef<N extends keyof (typeof notiformSchema)["$defs"] & string> = Derived<{
  $defs: (typeof notiformSchema)["$defs"];
  $ref: `#/$defs/${N}`;
}>;

/**
 * A workflow entry as written: `key` may be left out when `identifier` is given (the loader fills
 * it in); `adopted` is set by resolve, never written.
 */
type WrittenWorkflowSpec = Omit<WorkflowSpec, "key" | "steps" | "preview" | "adopted"> & {
  key?: string;
  steps?: WrittenStepSpec[];
  preview?: WrittenPreviewExampleSpec | WrittenPreviewExampleSpec[];
};

type PublishedActionResult = Omit<ActionResult, "error"> & {
  error?: Omit<NonNullable<ActionResult["error"]>, "code"> & { code: string };
};
type PublishedApplyReport = Omit<ApplyReport, "results"> & { results: PublishedActionResult[] };

export const plan: Same<Derived<typeof planSchema>, Plan> = same;
export const state: Same<Derived<typeof stateSchema>, StateFile> = same;
export const applyResult: Same<Derived<typeof applyResultSchema>, PublishedApplyReport> = same;
export const error: Same<Derived<typeof errorSchema>, ErrorReport> = same;
export const seed: Same<Derived<typeof seedSchema>, Seed> = same;
export const promotion: Same<Derived<typeof promotionSchema>, Promotion> = same;
export const promotionResult: Same<Derived<typeof promotionResultSchema>, PromotionReport> = same;
export const topic: Same<ConfigDef<"topic">, TopicSpec> = same;
export const notificationGroup: Same<ConfigDef<"notificationGroup">, NotificationGroupSpec> = same;
export const workflow: Same<ConfigDef<"workflow">, WrittenWorkflowSpec> = same;
export const override: Same<ConfigDef<"override">, OverrideSpec> = same;
export const branding: Same<ConfigDef<"branding">, BrandingSpec> = same;
/** The published error code is a string; the model's codes must all be strings (trivially). */
export const applyResultModel: [ApplyReport] extends [FromSchema<typeof applyResultSchema>] ? "same" : "no" =
  "same";
