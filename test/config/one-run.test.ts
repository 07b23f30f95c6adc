// `validate` reports every mistake in one run (issue 33 item 9): schema errors, file references,
// duplicate identities and the kinds' checks are collected together, a mistake of the base file
// is told once however many environments layer over it, and a missing file names its path once.
import { describe, expect, it } from "vitest";
import { validateConfig } from "../../src/loader/validate-config.js";
import { createWorkspace } from "../support/cli.js";

const THREE_MISTAKES = `version: 1
workflows:
  - key: order-shipped
    identifier: order-shipped
    name: Order shipped
    steps:
      - name: email-customer
        type: email
        tempalte:
          subject: Hi
      - name: email-customer
        type: email
        template:
          subject: Hi
          content: { file: templates/missing.html }
`;

function lines(problems: { pos: { file: string; line: number }; rule: string; message: string }[]) {
  return problems.map((p) => `${p.pos.file}:${p.pos.line} ${p.rule} ${p.message}`);
}

describe("validate reports every mistake in one run", () => {
  it("tells a misspelt step field, a missing template file and a duplicate step name together", async () => {
    const ws = await createWorkspace({ "notiform.yaml": THREE_MISTAKES });
    const result = await validateConfig({ cwd: ws.dir, vars: {} });
    expect(result.valid).toBe(false);
    expect(lines(result.problems)).toEqual([
      'notiform.yaml:9 schema unknown property "tempalte" in workflows[0].steps[0] (did you mean "template"?)',
      `notiform.yaml:11 duplicate-step workflow "order-shipped" step "email-customer": the name is used by another step of this workflow (notiform.yaml:7:15); step names must be unique`,
      'notiform.yaml:15 text-file file "templates/missing.html" does not exist',
    ]);
  });

  it("runs the reference checks beside schema errors, without repeating what the schema said", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": `version: 1
workflows:
  - key: w
    identifier: w
    name: W
    notificationGroup: billng
    steps:
      - name: s
        type: emial
`,
    });
    const result = await validateConfig({ cwd: ws.dir, vars: {} });
    expect(lines(result.problems)).toEqual([
      'notiform.yaml:6 unknown-reference workflow "w" names notification group "billng", which is not a notificationGroups key of this config',
      'notiform.yaml:9 schema workflows[0].steps[0].type: must be one of email, in_app, sms, chat, push, digest, delay, got "emial" (did you mean "email"?)',
    ]);
  });

  it("does not call a reference missing when a file could not be read", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": `version: 1
include: [groups.yaml]
workflows:
  - key: w
    identifier: w
    name: W
    notificationGroup: billing
`,
      "groups.yaml": "notificationGroups:\n  - key: billing\n    name: [unclosed\n",
    });
    const result = await validateConfig({ cwd: ws.dir, vars: {} });
    expect(result.problems.map((p) => p.rule)).not.toContain("unknown-reference");
    expect(result.problems.map((p) => p.pos.file)).toEqual(["groups.yaml"]);
  });

  it("tells a mistake of the base file once, not once per environment", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": `version: 1
environments:
  development: {}
  production: {}
${THREE_MISTAKES.replace("version: 1\n", "")}`,
    });
    const result = await validateConfig({ cwd: ws.dir, vars: {}, allEnvironments: true });
    expect(result.problems.map((p) => `${p.pos.line} ${p.rule}`)).toEqual([
      "12 schema",
      "14 duplicate-step",
      "18 text-file",
    ]);
    expect(result.problems.filter((p) => p.message.includes("(environment"))).toEqual([]);
  });

  it("names the looked-for path too when the file is written relative to another folder", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": "version: 1\ninclude: [teams/*.yaml]\n",
      "teams/a.yaml": THREE_MISTAKES.replace("version: 1\n", ""),
    });
    const result = await validateConfig({ cwd: ws.dir, vars: {} });
    expect(result.problems.find((p) => p.rule === "text-file")?.message).toBe(
      'file "templates/missing.html" does not exist (looked for teams/templates/missing.html)',
    );
  });
});
