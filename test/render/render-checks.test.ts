// Render checks in `validate` (and so in plan and apply, before any write): every template field
// the kinds declare is checked offline with the server's engine, each problem at the line and
// column where the user edits it (inside a `{ file: }` template, or at the YAML value), all in
// one run; variables no preview example supplies are a warning.
import { describe, expect, it } from "vitest";
import type { Problem } from "../../src/errors.js";
import { validateConfig } from "../../src/loader/validate-config.js";
import { createWorkspace } from "../support/cli.js";

function shown(problems: Problem[]): string[] {
  return problems.map((p) => `${p.pos.file}:${p.pos.line}:${p.pos.col} ${p.severity} ${p.rule} ${p.message}`);
}

async function validate(files: Record<string, string>) {
  const ws = await createWorkspace(files);
  return validateConfig({ cwd: ws.dir, vars: {} });
}

const WORKFLOW = (steps: string, extra = "") => `version: 1
workflows:
  - key: order-shipped
    identifier: order-shipped
    name: Order shipped${extra}
    steps:
${steps}`;

describe("render checks", () => {
  it("refuses a misspelt helper inside a template file, at its line and column, with a did-you-mean", async () => {
    const result = await validate({
      "notiform.yaml": WORKFLOW(`      - name: email
        type: email
        template:
          subject: Shipped
          contentType: customHtml
          content: { file: templates/order-shipped/email.html }
`),
      "templates/order-shipped/email.html":
        "<html>\n<body>\n  <p>Hi</p>\n  <p>{{upercase name}}</p>\n</body>\n</html>\n",
    });
    expect(result.valid).toBe(false);
    expect(shown(result.problems)).toEqual([
      'templates/order-shipped/email.html:4:8 error template-helper workflows[0].steps[0].template.content: Missing helper: "upercase" (did you mean "uppercase"?)',
    ]);
    expect(result.problems[0]?.field).toBe("workflows[0].steps[0].template.content");
  });

  it("reports an unclosed block with the engine's message, at the YAML line of an inline subject", async () => {
    const result = await validate({
      "notiform.yaml": WORKFLOW(`      - name: email
        type: email
        template:
          subject: "Hi {{#if vip}}VIP"
          contentType: customHtml
          content: ok
`),
    });
    expect(result.valid).toBe(false);
    const [problem] = result.problems;
    expect(problem?.rule).toBe("template-parse");
    expect(problem?.message).toBe(
      "workflows[0].steps[0].template.subject: Parse error on line 1:\nHi {{#if vip}}VIP\n-----------------^\nExpecting 'OPEN_INVERSE_CHAIN', 'INVERSE', 'OPEN_ENDBLOCK', got 'EOF'",
    );
    // Line 10 holds the subject; its quote opens at column 20, so the text's column 18 is column 38.
    expect(problem?.pos).toEqual({ file: "notiform.yaml", line: 10, col: 38 });
  });

  it("places a problem inside a literal block scalar at its own line and indentation", async () => {
    const result = await validate({
      "notiform.yaml": WORKFLOW(`      - name: sms
        type: sms
        template:
          content: |
            Hello {{name}},
            your code is {{> code}}.
`),
    });
    expect(shown(result.problems)).toEqual([
      expect.stringMatching(
        /^notiform\.yaml:12:26 error template-partial workflows\[0\]\.steps\[0\]\.template\.content: The partial code could not be found/,
      ),
    ]);
  });

  it("reports every problem of every template in one run: mismatched close, partial, unknown block helper, layout", async () => {
    const result = await validate({
      "notiform.yaml": `${WORKFLOW(`      - name: email
        type: email
        template:
          subject: "{{#each items}}{{/if}}"
          contentType: editor
          content:
            - { type: text, content: "{{#ifCond a b}}x{{/ifCond}}" }
            - { type: button, content: Go, url: "https://x.example/{{> link}}" }
      - name: bell
        type: in_app
        template:
          content: "{{titlecase}}"
          cta: { data: { url: "{{lookup}}" }, action: { buttons: [{ type: primary, content: "{{uppercse x}}" }] } }
`)}layouts:
  - identifier: brand
    name: Brand
    content: "<body>{{{body}}}{{#with}}</body>"
`,
    });
    expect(result.valid).toBe(false);
    expect(result.problems.map((p) => [p.rule, p.field])).toEqual([
      ["template-parse", "workflows[0].steps[0].template.subject"],
      ["template-helper", "workflows[0].steps[0].template.content[0].content"],
      ["template-partial", "workflows[0].steps[0].template.content[1].url"],
      ["template-helper", "workflows[0].steps[1].template.content"],
      ["template-helper", "workflows[0].steps[1].template.cta.data.url"],
      ["template-helper", "workflows[0].steps[1].template.cta.action.buttons[0].content"],
      ["template-parse", "layouts[0].content"],
    ]);
    expect(result.problems[0]?.message).toBe(
      "workflows[0].steps[0].template.subject: each doesn't match if - 1:3",
    );
    expect(result.problems[1]?.message).toBe(
      'workflows[0].steps[0].template.content[0].content: Missing helper: "ifCond"',
    );
    expect(result.problems[3]?.message).toBe(
      'workflows[0].steps[1].template.content: "titlecase" is a helper, called here with no arguments, which fails every render: value.split is not a function',
    );
    expect(result.problems[5]?.message).toBe(
      'workflows[0].steps[1].template.cta.action.buttons[0].content: Missing helper: "uppercse" (did you mean "uppercase"?)',
    );
  });

  it("accepts lookups without arguments, partial blocks with a fallback and the server's helpers", async () => {
    const result = await validate({
      "notiform.yaml": WORKFLOW(`      - name: email
        type: email
        template:
          subject: "{{#section}}{{x}}{{/section}} {{unknownNoArgs}} {{titlecase name}}"
          contentType: customHtml
          content: "{{#> header}}fallback{{/header}} {{#gt total 10}}big{{/gt}} {{dateFormat d 'yyyy'}} {{json (groupBy items 'k')}}"
`),
    });
    expect(shown(result.problems)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("refuses a helper named with no arguments where that fails every render, and Handlebars' hooks", async () => {
    const result = await validate({
      "notiform.yaml": WORKFLOW(`      - name: sms
        type: sms
        template:
          content: "{{#if}}yes{{/if}} {{uppercase}} {{#each}}i{{/each}} {{helperMissing name}} {{json (lowercase)}}"
`),
    });
    expect(result.valid).toBe(false);
    expect(shown(result.problems)).toEqual([
      'notiform.yaml:10:24 error template-helper workflows[0].steps[0].template.content: "if" is a helper, called here with no arguments, which fails every render: #if requires exactly one argument',
      'notiform.yaml:10:41 error template-helper workflows[0].steps[0].template.content: "uppercase" is a helper, called here with no arguments, which fails every render: value.toUpperCase is not a function',
      'notiform.yaml:10:56 error template-helper workflows[0].steps[0].template.content: "each" is a helper, called here with no arguments, which fails every render: Must pass iterator to #each',
      "notiform.yaml:10:75 error template-helper workflows[0].steps[0].template.content: \"helperMissing\" is Handlebars' own hook, not a helper a template can call, which fails every render: Cannot read properties of undefined (reading 'call')",
      'notiform.yaml:10:104 error template-helper workflows[0].steps[0].template.content: "lowercase" is a helper, called here with no arguments, which fails every render: value.toLowerCase is not a function',
    ]);
  });

  it("refuses a block helper called inline or as a sub-expression, which fails whatever the payload", async () => {
    const result = await validate({
      "notiform.yaml": WORKFLOW(`      - name: sms
        type: sms
        template:
          content: "{{if shipped}} {{uppercase (with user)}} {{equals a b}} {{#if ok}}{{each items}}{{/if}} {{#each items}}ok{{/each}}"
`),
    });
    expect(result.valid).toBe(false);
    const message = (name: string) =>
      `"${name}" is a block helper: called inline it fails every render (options.fn or options.inverse is not a function); write {{#${name} …}}…{{/${name}}}`;
    expect(shown(result.problems)).toEqual([
      `notiform.yaml:10:23 error template-helper workflows[0].steps[0].template.content: ${message("if")}`,
      `notiform.yaml:10:49 error template-helper workflows[0].steps[0].template.content: ${message("with")}`,
      `notiform.yaml:10:64 error template-helper workflows[0].steps[0].template.content: ${message("equals")}`,
      `notiform.yaml:10:89 error template-helper workflows[0].steps[0].template.content: ${message("each")}`,
    ]);
  });

  it("accepts bare helper names that render, a block parameter named like a helper, and {{log}}, which writes nowhere", async () => {
    const result = await validate({
      "notiform.yaml": WORKFLOW(
        `      - name: sms
        type: sms
        template:
          content: "{{json}} {{pluralize}} {{#each items as |json|}}{{json}}{{/each}} {{log name}} {{upercase x=1}}"
`,
        `
    preview: { payload: { items: [a], name: Ada } }`,
      ),
    });
    expect(shown(result.problems)).toEqual([]);
  });

  it("warns, without failing, about variables that no preview example supplies", async () => {
    const result = await validate({
      "notiform.yaml": WORKFLOW(
        `      - name: email
        type: email
        template:
          subject: "Order {{orderId}} for {{subscriber.firstName}}"
          contentType: customHtml
          content: "{{#each items}}{{name}}{{/each}} {{coupon.code}} {{branding.color}} {{tenant.name}} {{total}}"
`,
        `
    preview:
      - name: one
        payload: { orderId: A-1, items: [{ name: Lamp }] }
        subscriber: { firstName: Ada }
      - name: two
        payload: { orderId: A-2, coupon: { code: X } }`,
      ),
    });
    expect(result.valid).toBe(true);
    expect(shown(result.problems)).toEqual([
      "notiform.yaml:18:20 warning template-variables workflows[0].steps[0].template.content: no preview example supplies this variable: total",
    ]);
  });

  it("does not warn about variables when the workflow has no preview example", async () => {
    const result = await validate({
      "notiform.yaml": WORKFLOW(`      - name: sms
        type: sms
        template: { content: "Code {{code}}" }
`),
    });
    expect(result.problems).toEqual([]);
  });
});
