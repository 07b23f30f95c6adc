// Configs whose every string is hostile, for the preview site's generative test
// (test/preview/hostile-site.test.ts): workflow identifiers, keys and names, step names,
// subjects, preheaders, sender names, contents (HTML and editor blocks), push titles, in-app
// buttons and urls, example names, payload and subscriber values, layout content and branding,
// drawn from an alphabet of markup, script schemes, comment and CDATA ends, line and paragraph
// separators, controls, bidi overrides, path climbs, reserved device names, very long text and
// names that differ only in case or Unicode normalization. Each string carries a marker
// (`zq<n>k`, which slugs keep) at its start and wherever a fragment holds `§`, so the test can
// find every place a string landed in the site. Written as JSON (valid YAML) with every
// character YAML cannot hold raw escaped.
import fc from "fast-check";

/** Where a string's marker goes. */
export const SLOT = "§";
export const MARKER = /zq\d+k/gi;

/** Fragments of any string. `§` becomes the string's marker. */
const PLAIN = [
  "<",
  ">",
  '"',
  "'",
  "`",
  "&",
  "=",
  " ",
  "\t",
  "\n",
  "\r\n",
  "/",
  ".",
  "\\",
  ";",
  "</script>",
  "<!--",
  "-->",
  "--!>",
  "]]>",
  "<![CDATA[",
  "javascript:",
  "data:text/html,",
  "\u2028",
  "\u2029",
  "\u0001",
  "\u0000",
  "\u001b[31m",
  "\u007f",
  "\u0085",
  "\u00a0",
  "\u202e",
  "\u2066",
  "\u200b",
  "\u00ad",
  "\ufeff",
  "../",
  "..\\",
  "%2e%2e/",
  "%2F",
  "..",
  "CON",
  "aux",
  "NUL",
  "com1",
  "LPT9",
  "PRN.txt",
  "é",
  "e\u0301",
  "İ",
  "ß",
  "ﬁ",
  "Å",
  "A\u030a",
  "Ω",
  "😀",
  "x".repeat(240),
  "&amp;",
  "&lt;",
  "&#x3c;",
  "&#60",
  "&quot",
  "&nbsp;",
  `<${SLOT}>`,
  `</title><${SLOT}>`,
  `</textarea><${SLOT}>`,
  `</style><${SLOT}>`,
  `</script><${SLOT} onerror=window.__pwned=1>`,
  `<img src=x ${SLOT}=1 onerror=window.__pwned=1>`,
  `<svg/onload=window.__pwned=1 ${SLOT}>`,
  `"${SLOT}="`,
  `' ${SLOT}='`,
  `" onmouseover=window.__pwned=1 ${SLOT}="`,
  `--><${SLOT}>`,
  `]]><${SLOT}>`,
  `javascript:window.__pwned=1//${SLOT}`,
  `data:text/html,<script>window.__pwned=1</script>${SLOT}`,
  `<iframe src=javascript:window.__pwned=1 ${SLOT}>`,
  `<a href="javascript:window.__pwned=1">${SLOT}</a>`,
  `<meta http-equiv=refresh content="0;url=javascript:${SLOT}">`,
  `<base href=//evil/${SLOT}>`,
  `<!doctype ${SLOT}>`,
  `<? ${SLOT} ?>`,
  `</${SLOT}`,
  `<${SLOT}`,
  `<script>window.__pwned=1</script>`,
];
/** Only where the text is no template: `{{` there is data. */
const DATA_ONLY = ["{{", "}}", "{{{v0}}}"]; // no `$`: `${` is interpolation
/** Only in templates: the payload's hostile values, escaped by Handlebars or not. */
const TEMPLATE_ONLY = ["{{v0}}", "{{{v1}}}", "{{& v2}}", "{{{v3}}}", "{{subscriber.firstName}}", "\\{{v0}}"];

const pieces = (from: string[]) =>
  fc.array(fc.constantFrom(...from), { minLength: 0, maxLength: 5 }).map((parts) => SLOT + parts.join(""));
const data = pieces([...PLAIN, ...DATA_ONLY]);
// Handlebars' lexer refuses a NUL before a mustache, as the server does (validate says so).
const template = pieces([...PLAIN.filter((p) => p !== "\u0000"), ...TEMPLATE_ONLY]);

/** A name and its look-alikes: the same text in upper case, NFD, NFC. */
const variants = (base: fc.Arbitrary<string>, max: number) =>
  fc
    .tuple(base, fc.subarray(["upper", "nfd", "nfc", "lower"] as const, { maxLength: max - 1 }))
    .map(([name, kinds]) => [
      ...new Set([
        name,
        ...kinds.map((k) =>
          k === "upper"
            ? name.toUpperCase()
            : k === "lower"
              ? name.toLowerCase()
              : name.normalize(k === "nfd" ? "NFD" : "NFC"),
        ),
      ]),
    ]);

/** Names without a marker, as they are: device names, the site's own words, dots, very long. */
const bare = (extra: string[]) =>
  fc.constantFrom(
    "CON",
    "aux",
    "Nul",
    "com1",
    "LPT9",
    "con.txt",
    "preview",
    "index",
    "step",
    "workflow",
    "-",
    "x".repeat(300),
    ...extra,
  );

const KEY_CHARS = ["a", "B", ".", ":", "-", "_", "0", "CON", "aux", "..."];
const key = fc
  .array(fc.constantFrom(...KEY_CHARS), { minLength: 1, maxLength: 4 })
  .map((p) => p.join(""))
  .map((k) => (k === "." || k === ".." ? `${k}...` : k)); // `.` and `..` alone are refused

const payload = fc.record({ v0: data, v1: data, v2: data, v3: data });
const example = fc.record(
  { name: data, payload, subscriber: fc.record({ firstName: data }) },
  { requiredKeys: ["payload"] },
);

const emailTemplate = fc.oneof(
  fc.record(
    { subject: template, content: template, preheader: template, senderName: template, layout: fc.boolean() },
    { requiredKeys: ["subject", "content"] },
  ),
  fc.record({
    subject: template,
    editor: fc.array(fc.record({ content: template, url: template, button: fc.boolean() }), {
      minLength: 1,
      maxLength: 3,
    }),
  }),
);

const step = fc.oneof(
  fc.record({ type: fc.constant("email" as const), t: emailTemplate }),
  fc.record({
    type: fc.constant("in_app" as const),
    content: template,
    url: fc.option(template, { nil: undefined }),
    buttons: fc.array(template, { maxLength: 2 }),
  }),
  fc.record({ type: fc.constantFrom("sms" as const, "chat" as const), content: template }),
  fc.record({ type: fc.constant("push" as const), title: template, content: template }),
  fc.record({ type: fc.constant("delay" as const) }),
);

const workflow = fc.record(
  {
    name: data,
    key,
    stepNames: variants(fc.oneof(data, bare([".", "..", "../"])), 3),
    steps: fc.array(step, { minLength: 1, maxLength: 3 }),
    examples: fc.array(example, { maxLength: 3 }),
    exampleNames: fc.subarray(["preview", "before", "PREVIEW", "Before", "", "example-2", "desktop"]),
  },
  { requiredKeys: ["stepNames", "steps", "examples", "exampleNames"] },
);

export const hostileShape = fc.record({
  identifiers: variants(fc.oneof(data, bare(["..."])), 3),
  workflows: fc.array(workflow, { minLength: 1, maxLength: 3 }),
  layout: template,
  layoutId: fc.constantFrom("lay", "CON", "a..b", "x:y", "aux.html"),
  // A colour can only be hex (validate refuses anything else, as the server does): the hostile
  // text rides on the logo.
  branding: fc.option(fc.record({ color: fc.constantFrom("#0f62fe", "abc", "#FFF0"), logo: data }), {
    nil: undefined,
  }),
});
export type HostileShape = typeof hostileShape extends fc.Arbitrary<infer T> ? T : never;

/** What the site must show for each message step, in config order. */
export interface ExpectedStep {
  workflowKey: string;
  workflowShown: string;
  step: string;
  channel: string;
  examples: string[];
}

export interface HostileConfig {
  yaml: string;
  steps: ExpectedStep[];
}

/** The config a shape describes, every `§` replaced by its string's own marker. */
export function hostileConfig(shape: HostileShape): HostileConfig {
  let next = 0;
  const mark = (text: string) => {
    const m = `zq${next++}k`;
    return text.split(SLOT).join(m);
  };
  // Look-alike names share one marker (they are one string, spelled otherwise).
  const markAll = (texts: string[]) => {
    const m = `zq${next++}k`;
    return texts.map((t) => t.split(SLOT).join(m));
  };
  const identifiers = markAll(shape.identifiers);
  const steps: ExpectedStep[] = [];
  const workflows = shape.workflows.map((w, wi) => {
    const identifier = identifiers[wi] ?? `${identifiers[0]}${"\u200b".repeat(wi)}`;
    const out: Record<string, unknown> = { identifier };
    if (w.key !== undefined) out.key = wi === 0 ? w.key : `${w.key}${wi}`;
    if (w.name !== undefined) out.name = mark(w.name);
    const named = w.examples.map((x, i) => {
      const name = x.name === undefined ? w.exampleNames[i] : mark(x.name);
      const payload = Object.fromEntries(Object.entries(x.payload).map(([k, v]) => [k, mark(v)]));
      return {
        ...(name === undefined || name === "" ? {} : { name }),
        payload,
        ...(x.subscriber === undefined ? {} : { subscriber: { firstName: mark(x.subscriber.firstName) } }),
      };
    });
    // Names given twice are refused (a default example-N may repeat a given one).
    const given = named.flatMap((x) => (x.name === undefined ? [] : [x.name]));
    if (new Set(given).size !== given.length) named.splice(0);
    if (named.length > 0) out.preview = named.length === 1 && named[0]?.name === undefined ? named[0] : named;
    const stepNames = markAll(w.stepNames);
    out.steps = w.steps.map((s, si) => {
      const name = stepNames[si] ?? `${stepNames[0]} ${si}`;
      const built = stepOf(s, name, shape, mark);
      if (s.type !== "delay")
        steps.push({
          workflowKey: (out.key as string | undefined) ?? identifier,
          workflowShown: (out.name as string | undefined) ?? (out.key as string | undefined) ?? identifier,
          step: name,
          channel: s.type,
          examples: named.length === 0 ? ["placeholders"] : named.map((x, i) => x.name ?? `example-${i + 1}`),
        });
      return built;
    });
    return out;
  });
  const config: Record<string, unknown> = {
    version: 1,
    layouts: [{ identifier: shape.layoutId, content: `${mark(shape.layout)}{{{body}}}` }],
    workflows,
  };
  if (shape.branding !== undefined)
    config.branding = {
      color: shape.branding.color,
      logo: `https://h/${mark(shape.branding.logo).replace(/\s/g, "")}.png`,
    };
  return { yaml: `${yamlText(config)}\n`, steps };
}

type Step = HostileShape["workflows"][number]["steps"][number];

function stepOf(s: Step, name: string, shape: HostileShape, mark: (t: string) => string): unknown {
  switch (s.type) {
    case "delay":
      return { name, type: "delay", metadata: { type: "regular", unit: "hours", amount: 1 } };
    case "email": {
      const t = s.t;
      if ("editor" in t)
        return {
          name,
          type: "email",
          template: {
            subject: mark(t.subject),
            contentType: "editor",
            content: t.editor.map((b) =>
              b.button
                ? { type: "button", content: mark(b.content), url: mark(b.url) }
                : { type: "text", content: mark(b.content), url: mark(b.url) },
            ),
          },
        };
      return {
        name,
        type: "email",
        template: {
          subject: mark(t.subject),
          content: mark(t.content),
          contentType: "customHtml",
          ...(t.preheader === undefined ? {} : { preheader: mark(t.preheader) }),
          ...(t.senderName === undefined ? {} : { senderName: mark(t.senderName) }),
          ...(t.layout === true ? { layout: shape.layoutId } : {}),
        },
      };
    }
    case "in_app":
      return {
        name,
        type: "in_app",
        template: {
          content: mark(s.content),
          cta: {
            type: "redirect",
            data: s.url === undefined ? {} : { url: mark(s.url) },
            ...(s.buttons.length === 0
              ? {}
              : {
                  action: {
                    buttons: s.buttons.map((b, i) => ({
                      type: i === 0 ? "primary" : "secondary",
                      content: mark(b),
                    })),
                  },
                }),
          },
        },
      };
    case "push":
      return { name, type: "push", template: { title: mark(s.title), content: mark(s.content) } };
    default:
      return { name, type: s.type, template: { content: mark(s.content) } };
  }
}

/** JSON, with every character YAML cannot hold raw (C1 controls, DEL, separators, BOM) escaped. */
export function yamlText(value: unknown): string {
  return JSON.stringify(value, null, 1).replace(
    /[\u007f-\u009f\u2028\u2029\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
