// The helpers a real server registers (2.0.0, community build: no i18n), and Handlebars' own
// built-ins. A name outside both, called with arguments, fails at render time with
// `Missing helper` (r4-30, r4-33, r4-34).

export const SERVER_HELPERS = [
  "equals",
  "titlecase",
  "uppercase",
  "lowercase",
  "pluralize",
  "dateFormat",
  "groupBy",
  "unique",
  "sortBy",
  "numberFormat",
  "gt",
  "gte",
  "lt",
  "lte",
  "eq",
  "ne",
  "json",
] as const;

/** Handlebars' built-in helpers, present in every environment. */
export const BUILT_IN_HELPERS = [
  "if",
  "unless",
  "each",
  "with",
  "lookup",
  "log",
  "blockHelperMissing",
  "helperMissing",
] as const;

/** Every name a template may call as a helper. */
export const KNOWN_HELPERS: ReadonlySet<string> = new Set<string>([...SERVER_HELPERS, ...BUILT_IN_HELPERS]);

/** The names worth suggesting for a misspelt helper. */
export const SUGGESTED_HELPERS: readonly string[] = [
  ...SERVER_HELPERS,
  "if",
  "unless",
  "each",
  "with",
  "lookup",
];
