// Workflow content in the planner's field model and the PUT it becomes (issue 24), on the real
// server's reads (r3 captures): a config that says what the server holds has no difference; the
// steps body keeps each existing step's own _templateId, carries everything the config does not
// manage from the live read, gives a new step no _templateId, leaves a removed step out, and
// writes layoutId (resolved from the layout's identifier), never the read-side names.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/canonical.js";
import { sameValue } from "../../src/canonical.js";
import type { StepSpec } from "../../src/kinds/workflow/step-spec.js";
import { stepsBody, UnknownLayoutError } from "../../src/kinds/workflow/steps-body.js";
import {
  desiredStepFields,
  liveStepFields,
  parseStepField,
  stepField,
} from "../../src/kinds/workflow/steps-canonical.js";
import { exportSteps } from "../../src/kinds/workflow/steps-export.js";
import type { Step } from "../../src/kinds/workflow/wire.js";

const DIR = join(import.meta.dirname, "..", "fixtures", "real-responses", "workflow-content");
const stepsOf = (name: string): Step[] =>
  (
    JSON.parse(readFileSync(join(DIR, `${name}.json`), "utf8")) as {
      response: { body: { data: { steps: Step[] } } };
    }
  ).response.body.data.steps;

const WELCOME = stepsOf("r3-q1-03-get-workflow-dev");
const FILTERED = stepsOf("r3-q1-21-get-workflow-filters-variants");
const LAYOUTS = new Map([["6b063baad2bc4bd543f5b245", "novu-default-layout"]]);

/** The welcome workflow as a config would write it. */
const WELCOME_CONFIG: StepSpec[] = [
  {
    name: "Welcome email",
    type: "email",
    template: {
      subject: "Welcome {{firstName}}!",
      content: "<h1>Hello {{firstName}}</h1><p>Your plan: {{plan}}</p>",
      contentType: "customHtml",
      preheader: "Glad you are here",
      senderName: "Notiform",
      layout: "novu-default-layout",
      variables: [
        { name: "firstName", type: "String", required: true },
        { name: "plan", type: "String", required: false, defaultValue: "free" },
      ],
    },
  },
  {
    name: "In-app welcome",
    type: "in_app",
    filters: [
      {
        isNegated: false,
        type: "GROUP",
        value: "AND",
        children: [{ on: "payload", field: "plan", value: "pro", operator: "EQUAL" }],
      },
    ],
    template: {
      content: "Welcome aboard, {{firstName}}!",
      cta: { type: "redirect", data: { url: "/welcome" } },
    },
  },
  { name: "SMS welcome", type: "sms", template: { content: "Hi {{firstName}}, welcome to Notiform" } },
];

function differences(desired: StepSpec[], live: Step[]): string[] {
  const want: JsonObject = {};
  const have: JsonObject = {};
  desiredStepFields(desired, want);
  liveStepFields(live, LAYOUTS, have);
  return Object.keys(want).filter((field) => !sameValue(want[field], have[field]));
}

describe("steps as flat fields", () => {
  it("a config saying what the server holds has no difference (ids, defaults, sub-ids set aside)", () => {
    expect(differences(WELCOME_CONFIG, WELCOME)).toEqual([]);
    expect(
      differences(
        [
          { name: "In-app filtered", type: "in_app", shouldStopOnFail: true, metadata: { type: "regular" } },
          { name: "Delay", type: "delay", metadata: { type: "regular", amount: 5, unit: "minutes" } },
        ],
        FILTERED,
      ),
    ).toEqual([]);
  });

  it("names exactly the field that differs, and the order", () => {
    const edited = structuredClone(WELCOME_CONFIG);
    if (edited[0]?.template) edited[0].template.subject = "Welcome aboard {{firstName}}";
    expect(differences(edited, WELCOME)).toEqual([stepField("Welcome email", "template.subject")]);
    expect(differences([...WELCOME_CONFIG].reverse(), WELCOME)).toEqual(["steps"]);
  });

  it("step fields round-trip through their names, whatever the step is called", () => {
    for (const name of ["email", 'a "quoted"].x', "ünï cödé"]) {
      expect(parseStepField(stepField(name, "template.content"))).toEqual({
        step: name,
        field: "template.content",
      });
    }
    expect(parseStepField("preferenceSettings.email")).toBeUndefined();
  });
});

describe("the steps body of the PUT", () => {
  it("keeps each existing step's own _templateId, gives a new one none, and leaves a removed one out", () => {
    const body = stepsBody(
      [
        { name: "SMS welcome", type: "sms", template: { content: "Hi v2" } },
        { name: "Welcome email", type: "email" },
        { name: "Chat ping", type: "chat", template: { content: "New signup" } },
      ],
      WELCOME,
      new Map(),
    );
    expect(body.map((s) => [s.name, s._templateId])).toEqual([
      ["SMS welcome", WELCOME[2]?._templateId],
      ["Welcome email", WELCOME[0]?._templateId],
      ["Chat ping", undefined],
    ]);
    expect((body[0]?.template as JsonObject | undefined)?.content).toBe("Hi v2");
  });

  it("carries what the config does not manage from the live read, in write form", () => {
    const [email, inApp] = stepsBody(
      [
        { name: "Welcome email", type: "email", template: { subject: "New subject" } },
        { name: "In-app welcome", type: "in_app" },
      ],
      WELCOME,
      new Map(),
    );
    expect(email?.template).toEqual({
      type: "email",
      name: "Welcome email",
      subject: "New subject",
      content: "<h1>Hello {{firstName}}</h1><p>Your plan: {{plan}}</p>",
      contentType: "customHtml",
      preheader: "Glad you are here",
      senderName: "Notiform",
      variables: [
        { name: "firstName", type: "String", required: true },
        { name: "plan", type: "String", required: false, defaultValue: "free" },
      ],
      layoutId: "6b063baad2bc4bd543f5b245",
    });
    expect(inApp?.filters).toEqual(WELCOME_CONFIG[1]?.filters);
    expect((inApp?.template as JsonObject | undefined)?.cta).toEqual({
      type: "redirect",
      data: { url: "/welcome" },
    });
    const [filtered, delay] = stepsBody(
      [
        { name: "In-app filtered", type: "in_app" },
        { name: "Delay", type: "delay" },
      ],
      FILTERED,
      new Map(),
    );
    expect(filtered).toMatchObject({
      uuid: "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee",
      shouldStopOnFail: true,
      variants: [
        { _templateId: FILTERED[0] && (FILTERED[0] as { variants: Step[] }).variants[0]?._templateId },
      ],
    });
    expect(delay?.metadata).toMatchObject({ type: "regular", amount: 5, unit: "minutes" });
    expect(JSON.stringify([filtered, delay])).not.toMatch(/"_layoutId"|"_feedId"|"_parentId"|"_id"/);
  });

  it("resolves a layout identifier to its id, and refuses one the server does not have", () => {
    const [email] = stepsBody(
      [{ name: "Welcome email", type: "email", template: { layout: "brand" } }],
      WELCOME,
      new Map([["brand", "6b0000000000000000000bbb"]]),
    );
    expect((email?.template as JsonObject | undefined)?.layoutId).toBe("6b0000000000000000000bbb");
    expect(() =>
      stepsBody([{ name: "x", type: "email", template: { layout: "nope" } }], undefined, new Map()),
    ).toThrow(UnknownLayoutError);
  });
});

describe("exported steps", () => {
  it("plan back to nothing, with e-mail HTML and long text in files named in the entries", () => {
    for (const live of [WELCOME, FILTERED, stepsOf("r3-q1-04-post-workflow-editor-email-dev")]) {
      const exported = exportSteps("welcome", live, LAYOUTS);
      expect(exported.steps).toBeDefined();
      // What the loader does with { file: PATH }.
      const loaded = JSON.parse(JSON.stringify(exported.steps), (key, value) =>
        key === "content" && value !== null && typeof value === "object" && "file" in value
          ? exported.files.get(value.file)
          : value,
      ) as StepSpec[];
      expect(differences(loaded, live)).toEqual([]);
    }
    const welcome = exportSteps("welcome", WELCOME, LAYOUTS);
    expect([...welcome.files.keys()]).toEqual(["templates/welcome/welcome-email.html"]);
    expect(welcome.steps?.[0]).toMatchObject({
      name: "Welcome email",
      type: "email",
      template: { content: { file: "templates/welcome/welcome-email.html" }, layout: "novu-default-layout" },
    });
    expect(exportSteps("filters", FILTERED, LAYOUTS).leftOut).toEqual([
      "workflow filters step In-app filtered: its variants stay as they are on the server (unmanaged)",
    ]);
  });

  it("leaves a workflow's content unmanaged when a step has a type the config cannot hold", () => {
    const odd = [{ ...WELCOME[0], template: { ...WELCOME[0]?.template, type: "custom" } } as Step];
    expect(exportSteps("odd", odd, LAYOUTS)).toMatchObject({
      steps: undefined,
      leftOut: [expect.stringContaining("custom")],
    });
    const noSubject = [{ ...WELCOME[0], template: { ...WELCOME[0]?.template, subject: "" } } as Step];
    expect(exportSteps("bare", noSubject, LAYOUTS)).toMatchObject({
      steps: undefined,
      leftOut: [expect.stringContaining("Welcome email (no subject)")],
    });
  });
});
