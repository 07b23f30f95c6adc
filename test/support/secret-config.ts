// Awkward secret values and a config of every kind that carries them through `${VAR}`: a
// generated config (generated-config.ts) with `${NF_SECRET_<n>}` planted into random string
// fields (names, descriptions, tags, subjects, templates inline, layout content, preheaders,
// sender names, step names, tenant and workflow data, layout variables' defaults, branding's
// font), a topic keyed by a secret, and preview examples whose payload holds secrets, printed by
// templates through {{x}} and {{uppercase x}}.
import fc from "fast-check";
import { configArb, type Generated, type Json, VAR } from "./generated-config.js";

export const SECRET_VAR = (n: number) => `NF_SECRET_${n}`;

/** A secret and where it may go: `inline` values hold no line break and are short enough for a name. */
export interface Secret {
  value: string;
  inline: boolean;
}

/**
 * Characters a secret is made of: regex metacharacters, quotes, what HTML, JSON, YAML and URLs
 * escape, spaces, unicode, an emoji. AVOID: `{` and `}` (a secret printed into a template would be
 * template syntax: the config's author would see it fail) and control characters other than tab
 * and line break (refused in names by validate).
 */
const SECRET_CHARS = [
  ..."abcQRZ0179",
  ..."^$.*+?()[]|\\/&<>\"'=`-_:;#%@!~, ",
  "é",
  "ß",
  "Ж",
  "中",
  "😀",
  "\u00a0",
];
/** One of these is in each short secret, so no form of it is found in output by chance. */
const MARKERS = ["ξ", "ʤ", "☃", "Ǆ", "𝔛"];

const chars = (min: number, max: number) =>
  fc.array(fc.constantFrom(...SECRET_CHARS), { minLength: min, maxLength: max }).map((cs) => cs.join(""));

/** A short marked secret: 4 to 24 characters, one of them a marker. */
const marked = fc.tuple(chars(3, 23), fc.constantFrom(...MARKERS), fc.nat()).map(([body, marker, at]) => {
  // Between characters, never inside one (an environment holds no half of an emoji).
  const characters = [...body];
  const cut = at % (characters.length + 1);
  return `${characters.slice(0, cut).join("")}${marker}${characters.slice(cut).join("")}`;
});

/** ASCII only (as API tokens are): 10 to 30 characters, the metacharacters included. */
const ascii = fc
  .array(fc.constantFrom(..."abcQRZ0179^$.*+?()[]|\\/&<>\"'=`-_:;#%@!~,"), { minLength: 10, maxLength: 30 })
  .map((cs) => cs.join(""))
  .filter((s) => /[a-zA-Z0-9]{2}/.test(s));

/** Long (a pasted certificate or token) and across lines: only for templates and data. */
const long = fc
  .tuple(chars(200, 420), fc.constantFrom(...MARKERS), fc.boolean())
  .map(([body, marker, lines]) => {
    const text = `${marker}${body}`;
    return lines ? text.replace(/(.{64})/gu, "$1\n").trimEnd() : text;
  });

/** A key: what the kind's key pattern allows, long enough to be recognisable. */
const keySecret = (extra: string) =>
  fc
    .array(fc.constantFrom(...`abcQRZ0179_.:-${extra}`), { minLength: 10, maxLength: 24 })
    .map((cs) => `k${cs.join("")}`)
    .filter((s) => !s.includes("//"));

/**
 * Secrets that key resources: a topic, a notification group, a tenant (and an override naming
 * it), a layout and a workflow's trigger identifier (a workflow whose email step uses the layout).
 */
export interface KeySecrets {
  topic?: string;
  group?: string;
  tenant?: string;
  layout?: string;
  workflow?: string;
}

export const keySecretsArb: fc.Arbitrary<KeySecrets> = fc.record(
  {
    topic: keySecret("@+/"),
    group: keySecret(""),
    tenant: keySecret("@+"),
    layout: keySecret(""),
    workflow: keySecret(""),
  },
  { requiredKeys: [] },
);

/**
 * Resources keyed by `keys`, written in the file (a key cannot come from the environment), and the
 * same values used through the environment in their names (`Keyed ${NF_TOPIC_KEY}`): each is then
 * a secret that the outputs mask wherever it stands, the resource's ids included (topic/********).
 */
function plantKeys(
  body: Record<string, Json>,
  keys: KeySecrets,
  env: Record<string, string>,
  ref: (n: number) => string,
): void {
  const first = ((body.workflows ?? []) as Record<string, Json>[])[0];
  if (keys.topic !== undefined) {
    env.NF_TOPIC_KEY = keys.topic;
    const topics = (body.topics ?? []) as Json[];
    body.topics = [{ key: keys.topic, name: `Keyed \${NF_TOPIC_KEY} ${ref(0)}` }, ...topics];
  }
  if (keys.group !== undefined) {
    env.NF_GROUP_KEY = keys.group;
    const groups = (body.notificationGroups ?? []) as Json[];
    body.notificationGroups = [{ key: keys.group, name: `Grouped \${NF_GROUP_KEY} ${ref(0)}` }, ...groups];
    if (first !== undefined) first.notificationGroup = keys.group;
  }
  if (keys.layout !== undefined) {
    env.NF_LAYOUT_KEY = keys.layout;
    const layouts = (body.layouts ?? []) as Json[];
    const content = `<html><body>\n<p>${ref(0)}</p>\n{{{body}}}\n</body></html>\n`;
    body.layouts = [
      { identifier: keys.layout, name: `Layout \${NF_LAYOUT_KEY} ${ref(0)}`, content },
      ...layouts,
    ];
  }
  if (keys.workflow !== undefined) {
    env.NF_WORKFLOW_KEY = keys.workflow;
    const workflows = (body.workflows ?? []) as Json[];
    const template: Record<string, Json> = {
      subject: `Keyed ${ref(0)}`,
      content: `<p>${ref(0)}</p>`,
      contentType: "customHtml",
      ...(keys.layout !== undefined ? { layout: keys.layout } : {}),
    };
    const keyed = {
      key: "secret-keyed",
      identifier: keys.workflow,
      name: `Keyed \${NF_WORKFLOW_KEY} ${ref(0)}`,
      steps: [{ name: "mail", type: "email", template }],
    };
    body.workflows = [...workflows, keyed];
  }
  if (keys.tenant !== undefined) {
    env.NF_TENANT_KEY = keys.tenant;
    const tenants = (body.tenants ?? []) as Json[];
    body.tenants = [{ identifier: keys.tenant, name: `Tenant \${NF_TENANT_KEY} ${ref(0)}` }, ...tenants];
    if (first !== undefined) {
      body.overrides = [
        ...((body.overrides ?? []) as Json[]),
        { workflow: first.key ?? first.identifier ?? null, tenant: keys.tenant, active: true },
      ];
    }
  }
}

/**
 * 3 to 6 secrets; one may be a prefix or suffix of another (the masker must mask the longer one
 * whole and the shorter one wherever it stands alone).
 */
export const secretsArb: fc.Arbitrary<Secret[]> = fc
  .tuple(
    fc.array(fc.oneof({ weight: 3, arbitrary: marked }, { weight: 2, arbitrary: ascii }), {
      minLength: 2,
      maxLength: 4,
    }),
    fc.option(long, { nil: undefined }),
    fc.option(fc.tuple(fc.nat(), fc.boolean(), chars(2, 6)), { nil: undefined }),
  )
  .map(([short, longOne, derived]) => {
    const secrets: Secret[] = short.map((value) => ({ value, inline: true }));
    if (derived !== undefined) {
      const [which, asPrefix, extra] = derived;
      const base = short[which % short.length] as string;
      secrets.push({ value: asPrefix ? `${base}${extra}` : `${extra}${base}`, inline: true });
    }
    if (longOne !== undefined) secrets.push({ value: longOne, inline: false });
    return secrets.filter(
      (secret, index) => secrets.findIndex((other) => other.value === secret.value) === index,
    );
  });

/** Field names whose string values are display text or template text (not identities or enums). */
const TEXT_FIELDS = new Set([
  "name",
  "description",
  "subject",
  "content",
  "preheader",
  "senderName",
  "title",
  "defaultValue",
  "fontFamily",
]);
/** Fields a name-length limit applies to (200 or 300): a secret replaces their text. */
const SHORT_FIELDS = new Set(["name", "description", "senderName", "fontFamily", "tags"]);

interface Leaf {
  /** The field the string is held by (the array's field for an item). */
  field: string;
  /** Whether it is inside free-form data (every string is fair game there). */
  inData: boolean;
  get(): string;
  set(value: string): void;
}

/** Every string of `body` a secret may go into, in document order. */
function leavesOf(body: Record<string, Json>): Leaf[] {
  const leaves: Leaf[] = [];
  const walk = (value: Json, field: string, inData: boolean, parentField: string): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        if (typeof item === "string") {
          if (field === "tags" || inData)
            leaves.push({ field, inData, get: () => value[index] as string, set: (s) => (value[index] = s) });
        } else walk(item, field, inData, parentField);
      });
      return;
    }
    if (value === null || typeof value !== "object") return;
    // { file: } names a file read verbatim: nothing to interpolate there.
    if ("file" in value) return;
    for (const [key, item] of Object.entries(value)) {
      const data = inData || key === "data";
      if (typeof item === "string") {
        // Layout and template variables are named by the templates: not text.
        const variableName = key === "name" && (parentField === "variables" || parentField === "payload");
        if ((data || TEXT_FIELDS.has(key)) && !variableName)
          leaves.push({
            field: key,
            inData: data,
            get: () => value[key] as string,
            set: (s) => (value[key] = s),
          });
      } else walk(item, key, data, field);
    }
  };
  walk(body, "", false, "");
  return leaves;
}

/** Where secret n goes: leaf index, and whether it replaces the text or is added to it. */
export const plantsArb = fc.array(fc.tuple(fc.nat(), fc.nat(), fc.boolean()), {
  minLength: 4,
  maxLength: 16,
});

export interface SecretConfig {
  generated: Generated;
  /** Every value the run's environment gives a planted variable (name -> value). */
  env: Record<string, string>;
}

/**
 * `generated` with secrets planted: `plants` picks leaves and secrets; a short field gets
 * "x ${VAR}" in place of its text (so no name passes its length limit), others the reference
 * added. Only inline secrets go into a field outside templates and data. With `topicKey`, the
 * first topic is keyed by it (a secret in a URL path). With `examples`, each workflow gets a preview
 * example whose payload holds secrets, and an email subject prints one upper-cased.
 */
export function plantSecrets(
  generated: Generated,
  secrets: readonly Secret[],
  plants: readonly (readonly [number, number, boolean])[],
  options: { keys?: KeySecrets; examples: boolean },
): SecretConfig {
  const body = structuredClone(generated.body);
  const env: Record<string, string> = {};
  secrets.forEach((secret, n) => {
    env[SECRET_VAR(n)] = secret.value;
  });
  const ref = (n: number) => `\${${SECRET_VAR(n)}}`;
  const leaves = leavesOf(body);
  for (const [leafPick, secretPick, replace] of plants) {
    if (leaves.length === 0) break;
    const at = leafPick % leaves.length;
    const leaf = leaves[at] as Leaf;
    const template = !SHORT_FIELDS.has(leaf.field) && !leaf.inData && leaf.field !== "name";
    const fits = secrets
      .map((secret, n) => ({ secret, n }))
      .filter(({ secret }) => secret.inline || template || leaf.inData);
    const chosen = fits[secretPick % fits.length];
    if (chosen === undefined) continue;
    const text = leaf.get();
    const short = SHORT_FIELDS.has(leaf.field) || (leaf.field === "name" && !leaf.inData);
    // A template keeps its text (a layout's {{{body}}} is required): the reference is added.
    if (leaf.field === "content") leaf.set(`${text}${ref(chosen.n)}`);
    // A short field's text goes (numbered: two tags made alike would be refused as a repeat).
    else if (short || text.length > 120)
      leaf.set(replace || text.length > 120 ? `x${at} ${ref(chosen.n)}` : `${text} ${ref(chosen.n)}`);
    else leaf.set(replace ? ref(chosen.n) : `${text}${ref(chosen.n)}`);
  }
  if (options.keys !== undefined) plantKeys(body, options.keys, env, ref);
  if (options.examples) plantExamples(body, secrets, ref);
  // Every secret is referenced by every config, so the run knows each as one: a value on the
  // server that an earlier config put there and this one no longer names is not known to be a
  // secret (nothing could know it), which is not what this test is about.
  const carrier = {
    ...Object.fromEntries(secrets.map((_, n) => [`s${n}`, ref(n)])),
    conv: `\${${VAR}}`,
  };
  body.tenants = [
    ...((body.tenants ?? []) as Json[]),
    { identifier: "secret-carrier", name: "Carrier", data: carrier },
  ];
  return { generated: { ...generated, body }, env };
}

function plantExamples(body: Record<string, Json>, secrets: readonly Secret[], ref: (n: number) => string) {
  const workflows = (body.workflows ?? []) as Record<string, Json>[];
  workflows.forEach((workflow, w) => {
    const first = w % secrets.length;
    const second = (w + 1) % secrets.length;
    workflow.preview = {
      payload: { orderId: ref(first), firstName: ref(second), total: `t ${ref(first)}` },
      subscriber: { firstName: ref(second) },
    };
    for (const step of (workflow.steps ?? []) as Record<string, Json>[]) {
      const template = step.template as Record<string, Json> | undefined;
      if (template !== undefined && typeof template.subject === "string")
        template.subject = `${template.subject} {{uppercase orderId}} {{orderId}}`;
    }
  });
}

export { configArb };
