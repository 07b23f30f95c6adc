// A workflow's steps in the config (issue 24): loaded with `{ file: PATH }` text read relative to
// the YAML file naming it, and checked offline, every problem at its file:line: unique names,
// known types (with a suggestion), the template fields each type needs and no others, digest and
// delay metadata, editor content, unknown fields (with a suggestion), files present and inside.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/errors.js";
import { loadConfig } from "../../src/loader/index.js";
import { createWorkspace } from "../support/cli.js";

async function problemsOf(files: Record<string, string>): Promise<string[]> {
  const ws = await createWorkspace(files);
  const error = await loadConfig({ cwd: ws.dir, vars: {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).problems
    .filter((p) => p.severity === "error")
    .map((p) => `${p.pos.file}:${p.pos.line}:${p.pos.col} ${p.message}`);
}

const ROOT = "version: 1\ninclude: [flows/*.yaml]\n";

describe("workflow steps in the config", () => {
  it("loads steps in order, with file text relative to the YAML file that names it", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": ROOT,
      "flows/order.yaml": `workflows:
  - identifier: order-shipped
    steps:
      - name: email-customer
        type: email
        template:
          subject: "Your order {{orderId}} shipped"
          content: { file: ../templates/order-shipped/email-customer.html }
          contentType: customHtml
          layout: brand
      - name: wait
        type: delay
        metadata: { type: regular, amount: 1, unit: hours }
      - name: bell
        type: in_app
        template: { content: "Shipped {{orderId}}", cta: { type: redirect, data: { url: /orders } } }
`,
      "templates/order-shipped/email-customer.html": "<p>{{orderId}} is on its way</p>\n",
    });
    const { desired } = await loadConfig({ cwd: ws.dir, vars: {} });
    const [workflow] = desired.resources.workflow;
    expect(workflow?.spec.steps).toEqual([
      {
        name: "email-customer",
        type: "email",
        template: {
          subject: "Your order {{orderId}} shipped",
          content: "<p>{{orderId}} is on its way</p>\n",
          contentType: "customHtml",
          layout: "brand",
        },
      },
      { name: "wait", type: "delay", metadata: { type: "regular", amount: 1, unit: "hours" } },
      {
        name: "bell",
        type: "in_app",
        template: { content: "Shipped {{orderId}}", cta: { type: "redirect", data: { url: "/orders" } } },
      },
    ]);
    expect(workflow?.source.fields["steps[1].name"]).toEqual({ file: "flows/order.yaml", line: 11, col: 15 });
  });

  it("reports a missing template file at its reference", async () => {
    const problems = await problemsOf({
      "notiform.yaml": ROOT,
      "flows/a.yaml": `workflows:
  - identifier: a
    steps:
      - name: e
        type: email
        template: { subject: s, content: { file: missing.html } }
`,
    });
    expect(problems).toEqual([
      expect.stringMatching(/^flows\/a\.yaml:6:50 file "missing\.html" does not exist/),
    ]);
  });

  it("reports unknown fields and types with a suggestion, at their line", async () => {
    const problems = await problemsOf({
      "notiform.yaml": ROOT,
      "flows/a.yaml": `workflows:
  - identifier: a
    steps:
      - name: e
        type: emial
        shouldStopOnFial: true
        template: { subjet: s, content: c }
`,
    });
    expect(problems).toEqual([
      expect.stringMatching(
        /^flows\/a\.yaml:5:15 workflows\[0\]\.steps\[0\]\.type: must be one of email, .*got "emial" \(did you mean "email"\?\)/,
      ),
      expect.stringMatching(
        /^flows\/a\.yaml:6:9 unknown property "shouldStopOnFial".*\(did you mean "shouldStopOnFail"\?\)/,
      ),
      expect.stringMatching(/^flows\/a\.yaml:7:21 unknown property "subjet".*\(did you mean "subject"\?\)/),
    ]);
  });

  it("checks names, the fields each type needs and allows, metadata and editor content", async () => {
    const problems = await problemsOf({
      "notiform.yaml": ROOT,
      "flows/a.yaml": `workflows:
  - identifier: a
    steps:
      - name: e
        type: email
        template: { content: c }
      - name: e
        type: sms
        template: { content: c, layout: brand }
      - name: wait
        type: delay
        metadata: { type: regular, amount: 0, unit: fortnights }
      - name: digest
        type: digest
      - name: blocks
        type: email
        template: { subject: s, content: [{ type: text, content: hi }] }
`,
    });
    expect(problems).toEqual([
      'flows/a.yaml:6:19 workflow "a" step "e": an email step needs template.subject',
      'flows/a.yaml:7:15 workflow "a" step "e": the name is used by another step of this workflow (flows/a.yaml:4:15); step names must be unique',
      'flows/a.yaml:9:41 workflow "a" step "e": template.layout applies to email steps only, not sms',
      'flows/a.yaml:12:44 workflow "a" step "wait": metadata.amount must be a whole number of at least 1',
      'flows/a.yaml:12:53 workflow "a" step "wait": metadata.unit must be one of seconds, minutes, hours, days, weeks, months',
      'flows/a.yaml:13:9 workflow "a" step "digest": a digest step needs metadata: { type: regular, amount, unit }',
      'flows/a.yaml:17:42 workflow "a" step "blocks": a block list is e-mail editor content: set contentType: editor',
    ]);
  });

  it("validate keeps `{{ }}` and does not interpolate file text", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": `version: 1
workflows:
  - identifier: a
    steps:
      - name: s
        type: sms
        template: { content: { file: "\${DIR}/sms.txt" } }
`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: file text holds ${...} on purpose
      "texts/sms.txt": "Hi {{name}}, ${NOT_A_VAR}",
    });
    const { desired } = await loadConfig({ cwd: ws.dir, vars: { DIR: "texts" } });
    expect(desired.resources.workflow[0]?.spec.steps?.[0]?.template?.content).toBe(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: file text holds ${...} on purpose
      "Hi {{name}}, ${NOT_A_VAR}",
    );
    expect(join(ws.dir, "texts")).toBeTruthy();
  });
});
