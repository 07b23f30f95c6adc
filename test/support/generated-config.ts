// Random *valid* configs for the generative convergence tests (test/reliability/*-converges):
// every kind at once (topics, notification groups, layouts, tenants, workflows with steps of
// every type, overrides, branding), with awkward but legal values: unicode and spaces in names,
// empty optional fields, long text, nested tenant and workflow data, templates inline and as
// `{ file: }`, `${VAR}` interpolation, `$${` escapes. Identities come from small fixed pools, so
// a second config over a first updates what the first created (`over`).
// Value spaces left out on purpose are marked "AVOID:" below, each with its reason (a documented
// refusal).
import fc from "fast-check";
import { exportYaml } from "../../src/pipeline/export-yaml.js";
import type { CliResult } from "./cli.js";

/** The interpolated variable, and the value the runs give it (unicode and spaces). */
export const VAR = "NF_CONV_TEXT";
export const VAR_VALUE = "from the env: Zürich ✓ 中文";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Files = Record<string, string>;

// ---------------------------------------------------------------------------------------------
// Values

/** Characters of display text: letters, digits, spaces, punctuation YAML must quote, unicode. */
const TEXT_CHARS = [
  ..."abcXYZ019 -_.,:;#&<>'\"!?*%@/\\|~[]()=+",
  "é",
  "ß",
  "Ω",
  "中",
  "文",
  "ا",
  "😀",
  "👍🏽",
  // A no-break space, also at the end of a plain value (YAML keeps it; JavaScript's trim does not).
  "\u00a0",
];

const plainText = (maxLength: number) =>
  fc.array(fc.constantFrom(...TEXT_CHARS), { minLength: 1, maxLength }).map((cs) => cs.join(""));

/**
 * Display text with at least one visible character.
 * AVOID: names of spaces alone (" ", "\u00a0"): validate refuses them, by design.
 */
const visibleText = (maxLength: number) =>
  fc.tuple(plainText(maxLength), fc.constantFrom("a", "Z", "9", "é", "😀", "中")).map(([s, c]) => `${c}${s}`);

/**
 * A name: short or long, sometimes with leading/trailing spaces, sometimes interpolated.
 * AVOID: `{`/`}` and `$` outside the deliberate `${VAR}` / `$${` forms (a stray `${` is an
 * interpolation error by design).
 */
const awkwardName: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: visibleText(16) },
  { weight: 1, arbitrary: visibleText(16).map((s) => ` ${s} `) },
  { weight: 1, arbitrary: fc.constantFrom("Ünïcödé ñame", "名前 with spaces", "emoji 🚀 name", "x") },
  { weight: 1, arbitrary: visibleText(10).map((s) => `${s} \${${VAR}}`) },
  { weight: 1, arbitrary: visibleText(10).map((s) => `${s} $\${LITERAL}`) },
  { weight: 1, arbitrary: visibleText(8).map((s) => longText(s, 200)) },
);

/** `unit` repeated up to `max` code points (as the schema and a real server count: an emoji is one). */
function longText(unit: string, max: number): string {
  return [...unit.repeat(max)].slice(0, max).join("");
}

/** Words and `{{variables}}` for templates (no stray braces: a template must parse). */
const VARIABLES = ["orderId", "firstName", "total", "items.0.name"];
const templateText = (maxParts: number) =>
  fc
    .array(
      fc.oneof(
        { weight: 3, arbitrary: plainText(12).map((s) => s.replace(/[\\]/g, "/")) },
        { weight: 1, arbitrary: fc.constantFrom(...VARIABLES).map((v) => `{{${v}}}`) },
        { weight: 1, arbitrary: fc.constantFrom("\n", "\n\n", "  ", "\t") },
        // Interpolated inline (taken verbatim in a file), and the escape of a literal `${`.
        { weight: 1, arbitrary: fc.constantFrom(`\${${VAR}}`, "$${LITERAL}") },
      ),
      { minLength: 1, maxLength: maxParts },
    )
    .map((parts) => parts.join(""));

/** Free-form data: nested objects and arrays, booleans, numbers, strings, null, empty containers. */
const dataKey = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom("plan", "seats", "region", "flags", "nested", "über", "with space", "", "a.b"),
  },
  { weight: 1, arbitrary: plainText(8) },
);
const dataLeaf: fc.Arbitrary<Json> = fc.oneof(
  fc.boolean(),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  // AVOID: integers past 2^53 (docs/commands.md: refused at the value, by design) and NaN/Infinity.
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  plainText(20),
  fc.constant(""),
  fc.constant(null),
);
const { data: freeData } = fc.letrec<{ data: Record<string, Json>; value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    dataLeaf,
    fc.array(tie("value"), { maxLength: 3 }),
    tie("data"),
  ),
  data: fc.dictionary(dataKey, tie("value"), { maxKeys: 4 }),
}));

const hexColor = fc.oneof(
  fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, "0")}`),
  fc.constantFrom("0f62fe", "#0F62FE80", "#abcd"),
  fc.integer({ min: 0, max: 0xfff }).map((n) => `#${n.toString(16).padStart(3, "0").toUpperCase()}`),
);

const channels = fc.record(
  {
    email: fc.boolean(),
    sms: fc.boolean(),
    in_app: fc.boolean(),
    chat: fc.boolean(),
    push: fc.boolean(),
  },
  { requiredKeys: [] },
);

/** Some of `pool`, without repeats, in a random order. */
const someOf = <T>(pool: readonly T[], max = pool.length) =>
  fc.shuffledSubarray([...pool], { minLength: 0, maxLength: Math.min(max, pool.length) });

// ---------------------------------------------------------------------------------------------
// Identities: small fixed pools, so the second config of a run updates what the first created.

const TOPIC_KEYS = ["orders", "ops+x@example.com", "team/alerts", "a.b:c_d-e"];
const GROUP_KEYS = ["billing", "g.2", "ops:alerts"];
/** novu-default-layout: the one a fresh organization has, managed by the config. */
const LAYOUT_IDS = ["brand", "plain.v2", "ns:mail_x", "novu-default-layout"];
const TENANT_IDS = ["acme-eu", "t+1@x.io", "T.2"];
/** Trigger identifiers; a key is given where the identifier is no valid key. */
const WORKFLOWS = [
  { identifier: "order-shipped" },
  { identifier: "digest.weekly" },
  { identifier: "Ünïcode flow", key: "unicode-flow" },
];

// ---------------------------------------------------------------------------------------------
// A config: the YAML's object and the files it names

export interface Generated {
  /** The kinds after the header, as an object (stringified to YAML). */
  body: Record<string, Json>;
  /** Files the config names (`{ file: }`), path -> text. */
  files: Files;
  /** Workflow identifiers whose name may be left out when the workflow exists already. */
  nameOptional: string[];
}

/** Text inline, or (when `file` is set) as `{ file: }` with the text in that file. */
function textOrFile(text: string, path: string | undefined, files: Files): Json {
  if (path === undefined) return text;
  files[path] = text;
  return { file: path };
}

const layoutArb = (identifier: string) =>
  fc.record({
    identifier: fc.constant(identifier),
    name: fc.option(awkwardName, { nil: undefined }),
    description: fc.option(fc.oneof(fc.constant(""), awkwardName), { nil: undefined }),
    before: templateText(4),
    usesFooter: fc.boolean(),
    asFile: fc.boolean(),
    // Variables: given (with or without defaultValue) or not managed. Names the content may not
    // use: a server derives a new layout's list from its content (the emulator as well), so the
    // create is followed by a PATCH of them.
    variables: fc.option(
      fc.uniqueArray(
        fc.record(
          {
            name: fc.constantFrom("footer", "brandColor", "legal"),
            defaultValue: fc.oneof(plainText(10), fc.constant(""), fc.integer(), fc.boolean()),
            required: fc.constant(false),
          },
          { requiredKeys: ["name"] },
        ),
        { maxLength: 3, selector: (v) => v.name },
      ),
      { nil: undefined },
    ),
    isDefault: fc.option(fc.boolean(), { nil: undefined }),
  });

const stepBase = {
  active: fc.option(fc.boolean(), { nil: undefined }),
  shouldStopOnFail: fc.option(fc.boolean(), { nil: undefined }),
  filters: fc.option(
    fc.constantFrom<Json[]>(
      [],
      [
        {
          isNegated: false,
          type: "GROUP",
          value: "AND",
          children: [{ on: "payload", field: "total", value: "10", operator: "LARGER" }],
        },
      ],
    ),
    { nil: undefined },
  ),
};

const variablesArb = fc.option(
  fc.uniqueArray(
    fc.record(
      {
        name: fc.constantFrom(...VARIABLES),
        type: fc.constantFrom("String", "Array", "Boolean"),
        required: fc.boolean(),
        defaultValue: fc.oneof(plainText(8), fc.boolean()),
      },
      { requiredKeys: ["name"] },
    ),
    { maxLength: 2, selector: (v) => v.name },
  ),
  { nil: undefined },
);

/** One step's raw choices (turned into YAML + files by stepOf). */
const stepArb = fc.oneof(
  fc.record({
    type: fc.constant("email" as const),
    ...stepBase,
    subject: templateText(3),
    body: fc.oneof(
      templateText(8).map((t) => ({ html: `<p>${t}</p>\n` })),
      fc
        .array(
          fc.oneof(
            templateText(3).map((content) => ({ type: "text", content })),
            templateText(2).map((content) => ({
              type: "button",
              content,
              url: "https://example.com/{{orderId}}",
            })),
          ),
          { minLength: 1, maxLength: 3 },
        )
        .map((blocks) => ({ blocks })),
    ),
    contentTypeGiven: fc.boolean(),
    asFile: fc.boolean(),
    layout: fc.option(fc.constantFrom(...LAYOUT_IDS, "novu-default-layout"), { nil: undefined }),
    preheader: fc.option(fc.oneof(fc.constant(""), templateText(3)), { nil: undefined }),
    preheaderAsFile: fc.boolean(),
    senderName: fc.option(fc.oneof(fc.constant(""), awkwardName), { nil: undefined }),
    replyCallback: fc.option(
      fc.record(
        { active: fc.boolean(), url: fc.constantFrom("", "https://example.com/reply") },
        { requiredKeys: [] },
      ),
      { nil: undefined },
    ),
    variables: variablesArb,
  }),
  fc.record({
    type: fc.constant("in_app" as const),
    ...stepBase,
    content: templateText(6),
    asFile: fc.boolean(),
    cta: fc.option(fc.constant({ type: "redirect", data: { url: "https://example.com/o/{{orderId}}" } }), {
      nil: undefined,
    }),
    variables: variablesArb,
  }),
  fc.record({
    type: fc.constantFrom("sms" as const, "chat" as const),
    ...stepBase,
    content: templateText(6),
    asFile: fc.boolean(),
    variables: variablesArb,
  }),
  fc.record({
    type: fc.constant("push" as const),
    ...stepBase,
    title: templateText(2),
    content: templateText(4),
    asFile: fc.boolean(),
    variables: variablesArb,
  }),
  fc.record({
    type: fc.constant("digest" as const),
    ...stepBase,
    // AVOID: metadata.type "timed" (its `timed` shape is not described anywhere we could check).
    metadata: fc.oneof(
      fc.record(
        {
          type: fc.constant("regular"),
          amount: fc.integer({ min: 1, max: 90 }),
          unit: fc.constantFrom("seconds", "minutes", "hours", "days", "weeks", "months"),
          digestKey: fc.constantFrom("", "orderId", "payload.x"),
          updateMode: fc.boolean(),
        },
        { requiredKeys: ["type", "amount", "unit"] },
      ),
      fc.record({
        type: fc.constant("backoff"),
        amount: fc.integer({ min: 1, max: 10 }),
        unit: fc.constantFrom("minutes", "hours"),
        backoff: fc.constant(true),
        backoffAmount: fc.integer({ min: 1, max: 10 }),
        backoffUnit: fc.constantFrom("minutes", "hours"),
      }),
    ),
  }),
  fc.record({
    type: fc.constant("delay" as const),
    ...stepBase,
    metadata: fc.oneof(
      fc.record({
        type: fc.constant("regular"),
        amount: fc.integer({ min: 1, max: 90 }),
        unit: fc.constantFrom("seconds", "minutes", "hours", "days", "weeks", "months"),
      }),
      fc.record({ type: fc.constant("scheduled"), delayPath: fc.constantFrom("sendAt", "payload.when") }),
    ),
  }),
);

const STEP_NAMES = ["email-customer", "in app ✓", "sms", "Ünïcode step", "wait 1h", "digest", "push me"];

type StepChoice = typeof stepArb extends fc.Arbitrary<infer S> ? S : never;

function clean<T extends Record<string, unknown>>(object: T): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(object)) if (value !== undefined) out[key] = value as Json;
  return out;
}

function stepOf(
  choice: StepChoice,
  name: string,
  path: string,
  files: Files,
  layouts: ReadonlySet<string>,
): Record<string, Json> {
  const base = clean({
    name,
    type: choice.type,
    active: choice.active,
    shouldStopOnFail: choice.shouldStopOnFail,
    filters: choice.filters,
  });
  switch (choice.type) {
    case "email": {
      const editor = "blocks" in choice.body;
      const template = clean({
        subject: choice.subject,
        content: editor
          ? (choice.body as { blocks: Json[] }).blocks
          : textOrFile(
              (choice.body as { html: string }).html,
              choice.asFile ? `${path}.html` : undefined,
              files,
            ),
        contentType: editor ? "editor" : choice.contentTypeGiven ? "customHtml" : undefined,
        // Only a layout this config declares or the server's own default one.
        layout:
          choice.layout !== undefined &&
          (choice.layout === "novu-default-layout" || layouts.has(choice.layout))
            ? choice.layout
            : undefined,
        preheader:
          choice.preheader === undefined
            ? undefined
            : textOrFile(
                choice.preheader,
                choice.preheaderAsFile ? `${path}.preheader.txt` : undefined,
                files,
              ),
        senderName: choice.senderName,
        variables: choice.variables,
      });
      return { ...base, ...clean({ replyCallback: choice.replyCallback }), template };
    }
    case "in_app":
      return {
        ...base,
        template: clean({
          content: textOrFile(choice.content, choice.asFile ? `${path}.txt` : undefined, files),
          cta: choice.cta,
          variables: choice.variables,
        }),
      };
    case "sms":
    case "chat":
      return {
        ...base,
        template: clean({
          content: textOrFile(choice.content, choice.asFile ? `${path}.txt` : undefined, files),
          variables: choice.variables,
        }),
      };
    case "push":
      return {
        ...base,
        template: clean({
          title: choice.title,
          content: textOrFile(choice.content, choice.asFile ? `${path}.txt` : undefined, files),
          variables: choice.variables,
        }),
      };
    default:
      return { ...base, metadata: choice.metadata as Json };
  }
}

const workflowArb = fc.record({
  name: awkwardName,
  nameOptional: fc.boolean(),
  description: fc.option(
    fc.oneof(
      fc.constant(""),
      awkwardName,
      // Long text: right at the 300-character limit of an update.
      visibleText(12).map((s) => longText(s, 300)),
    ),
    { nil: undefined },
  ),
  active: fc.option(fc.boolean(), { nil: undefined }),
  critical: fc.option(fc.boolean(), { nil: undefined }),
  tags: fc.option(fc.uniqueArray(awkwardName, { maxLength: 3 }), { nil: undefined }),
  preferenceSettings: fc.option(channels, { nil: undefined }),
  group: fc.option(fc.constantFrom(...GROUP_KEYS), { nil: undefined }),
  data: fc.option(freeData, { nil: undefined }),
  steps: fc.option(
    fc.uniqueArray(fc.tuple(fc.constantFrom(...STEP_NAMES), stepArb), {
      maxLength: 4,
      selector: ([name]) => name,
    }),
    { nil: undefined },
  ),
});

export const configArb: fc.Arbitrary<Generated> = fc
  .record({
    topics: fc.uniqueArray(fc.tuple(fc.constantFrom(...TOPIC_KEYS), awkwardName), {
      maxLength: 3,
      selector: ([key]) => key,
    }),
    // "General": the name of the group every organization has (the server allows two of a name).
    groups: fc.uniqueArray(
      fc.tuple(fc.constantFrom(...GROUP_KEYS), fc.oneof(awkwardName, fc.constant("General"))),
      {
        maxLength: 2,
        selector: ([key]) => key,
      },
    ),
    layouts: someOf(LAYOUT_IDS, 2).chain((ids) => fc.tuple(...ids.map(layoutArb))),
    tenants: fc.uniqueArray(
      fc.record(
        { identifier: fc.constantFrom(...TENANT_IDS), name: awkwardName, data: freeData },
        { requiredKeys: ["identifier", "name"] },
      ),
      { maxLength: 3, selector: (t) => t.identifier },
    ),
    workflows: someOf(WORKFLOWS, 3).chain((which) =>
      fc.tuple(...which.map((w) => workflowArb.map((spec) => ({ ...w, spec })))),
    ),
    overrides: fc.array(
      fc.record({
        workflow: fc.nat(),
        tenant: fc.nat(),
        active: fc.option(fc.boolean(), { nil: undefined }),
        preferenceSettings: fc.option(channels, { nil: undefined }),
      }),
      { maxLength: 3 },
    ),
    branding: fc.option(
      fc.record(
        {
          color: hexColor,
          fontColor: hexColor,
          contentBackground: hexColor,
          fontFamily: awkwardName,
          // AVOID: a query, a fragment or upper case after the extension: validate refuses them,
          // as a real server does (the text after the last dot must be the extension).
          logo: fc.constantFrom(
            "https://example.com/logo.png",
            "https://cdn.example.com/ü/logo.svg",
            "http://example.com/a.jpeg",
          ),
          direction: fc.constantFrom("ltr", "rtl"),
        },
        { requiredKeys: [] },
      ),
      { nil: undefined },
    ),
  })
  .map((raw): Generated => {
    const files: Files = {};
    const body: Record<string, Json> = {};
    if (raw.topics.length > 0) body.topics = raw.topics.map(([key, name]) => ({ key, name }));
    const groupKeys = new Set(raw.groups.map(([key]) => key));
    if (raw.groups.length > 0) body.notificationGroups = raw.groups.map(([key, name]) => ({ key, name }));
    const layoutIds = new Set(raw.layouts.map((l) => l.identifier));
    let defaultTaken = false;
    if (raw.layouts.length > 0)
      body.layouts = raw.layouts.map((l) => {
        const content = `<html><body>\n${l.before}\n{{{body}}}${l.usesFooter ? "\n<footer>{{footer}}</footer>" : ""}\n</body></html>\n`;
        // At most one layout is the default (validate refuses two).
        const isDefault =
          l.isDefault === true && !defaultTaken ? true : l.isDefault === true ? false : l.isDefault;
        if (isDefault === true) defaultTaken = true;
        return clean({
          identifier: l.identifier,
          name: l.name,
          description: l.description,
          content: textOrFile(
            content,
            l.asFile ? `layouts/${l.identifier.replace(/[:]/g, "_")}.html` : undefined,
            files,
          ),
          variables: l.variables,
          isDefault,
        });
      });
    if (raw.tenants.length > 0) body.tenants = raw.tenants.map((t) => clean(t));
    const workflowKeys: string[] = [];
    const nameOptional: string[] = [];
    if (raw.workflows.length > 0)
      body.workflows = raw.workflows.map(({ identifier, key, spec }, w) => {
        const handle = key ?? identifier;
        workflowKeys.push(handle);
        if (spec.nameOptional) nameOptional.push(identifier);
        const steps = spec.steps?.map(([name, choice], s) =>
          stepOf(choice, name, `templates/w${w}/s${s}`, files, layoutIds),
        );
        return clean({
          ...(key === undefined ? {} : { key }),
          identifier,
          name: spec.name,
          description: spec.description,
          active: spec.active,
          critical: spec.critical,
          tags: spec.tags,
          preferenceSettings: spec.preferenceSettings,
          // Only a group this config declares (validate refuses another).
          notificationGroup: spec.group !== undefined && groupKeys.has(spec.group) ? spec.group : undefined,
          data: spec.data,
          steps,
        });
      });
    if (workflowKeys.length > 0 && raw.tenants.length > 0) {
      const seen = new Set<string>();
      const overrides: Json[] = [];
      for (const o of raw.overrides) {
        const workflow = workflowKeys[o.workflow % workflowKeys.length] as string;
        const tenant = (raw.tenants[o.tenant % raw.tenants.length] as { identifier: string }).identifier;
        if (seen.has(`${workflow}\n${tenant}`)) continue;
        seen.add(`${workflow}\n${tenant}`);
        overrides.push(
          clean({ workflow, tenant, active: o.active, preferenceSettings: o.preferenceSettings }),
        );
      }
      if (overrides.length > 0) body.overrides = overrides;
    }
    if (raw.branding !== undefined && Object.keys(raw.branding).length > 0)
      body.branding = clean(raw.branding);
    return { body, files, nameOptional };
  });

/**
 * The second config of a run: a workflow the first created may leave its name out (a name is
 * needed only to create one; left out, it is not managed).
 */
export function over(first: Generated, second: Generated): Generated {
  const before = new Map<string, Record<string, Json>>();
  for (const w of (first.body.workflows ?? []) as Record<string, Json>[])
    before.set(w.identifier as string, w);
  const workflows = (second.body.workflows ?? []) as Record<string, Json>[];
  if (workflows.length === 0) return second;
  const body = {
    ...second.body,
    workflows: workflows.map((w) => {
      const previous = before.get(w.identifier as string);
      const out: Record<string, Json> = { ...w };
      if (previous !== undefined && second.nameOptional.includes(w.identifier as string)) delete out.name;
      return out;
    }),
  };
  return { ...second, body };
}

// ---------------------------------------------------------------------------------------------
// Running one

/** The config's text: `header` (version, organization, environments) and the kinds. */
export function yamlOf(header: string, generated: Generated): string {
  // An empty body adds nothing: YAML would write it as `{}`, which cannot follow the header's keys.
  return Object.keys(generated.body).length === 0 ? header : `${header}${exportYaml(generated.body)}`;
}

/** A failed step of a run, with everything needed to reproduce it: the output, the config, its files. */
export function explain(step: string, result: CliResult, config: string, files: Files): string {
  const named = Object.entries(files)
    .map(([path, text]) => `--- ${path}\n${text}`)
    .join("\n");
  return `${step} exited ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}\n--- notiform.yaml\n${config}\n${named}`;
}
