// The preview at scale (issue 34): 1,000 workflows x 4 message steps (e-mail in a layout with
// branding and a preheader, in-app with a button, SMS, push), each workflow with a preview
// example, rendered by `notiform preview` (spawned, as users run it) into a site of about 13,000
// files. Offline: no server. Target: under 2 s wall. Beside it, `notiform validate` of the same
// config (its render checks compile every template): under 2 s too.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { benchDir, mustSucceed, runCliTimed } from "./cli.js";

export const PREVIEW_WORKFLOWS = 1_000;
export const PREVIEW_STEPS = 4;

export interface PreviewScaleResult {
  workflows: number;
  steps: number;
  previewMs: number;
  validateMs: number;
}

const LAYOUT = `<!doctype html>
<html><head><title>{{subject}}</title></head>
<body>
<div style="border-top:4px solid {{branding.color}}"><img src="{{branding.logo}}" alt="">{{{body}}}</div>
<p style="color:#888">{{footer}}</p>
</body></html>
`;

const html = (i: number) =>
  `<h1>Order {{orderId}} shipped</h1>\n<p>Hello {{subscriber.firstName}},</p>\n{{#each items}}<p>{{name}} x {{quantity}}</p>{{/each}}\n<p>Workflow ${i}: total {{numberFormat total}}.</p>\n`;

function configFor(count: number): string {
  const out = [
    "version: 1",
    "organization: Bench Inc",
    'branding: { color: "#0f62fe", logo: "https://cdn.example.com/logo.png" }',
    "layouts:",
    "  - identifier: brand",
    "    name: Brand",
    "    content: { file: templates/layout.html }",
    "workflows:",
  ];
  for (let i = 0; i < count; i += 1) {
    out.push(
      `  - identifier: workflow-${i}`,
      "    preview:",
      "      payload:",
      `        orderId: A-${i}`,
      "        total: 1234",
      "        footer: Acme Inc",
      "        items:",
      "          - name: Lamp",
      "            quantity: 1",
      "          - name: Rug",
      "            quantity: 2",
      "      subscriber:",
      "        firstName: Ada",
      "    steps:",
      "      - name: email-customer",
      "        type: email",
      "        template:",
      `          subject: "Order {{orderId}} shipped (${i})"`,
      '          preheader: "Hi {{subscriber.firstName}}, it is on its way"',
      `          content: { file: templates/workflow-${i}.html }`,
      "          contentType: customHtml",
      "          layout: brand",
      "      - name: bell",
      "        type: in_app",
      "        template:",
      `          content: "Shipped {{orderId}} (${i})"`,
      "          cta:",
      "            type: redirect",
      '            data: { url: "/orders/{{orderId}}" }',
      "            action:",
      "              buttons:",
      "                - type: primary",
      "                  content: Track",
      "      - name: text",
      "        type: sms",
      `        template: { content: "Order {{orderId}} shipped ({{uppercase subscriber.firstName}})" }`,
      "      - name: push",
      "        type: push",
      `        template: { title: "Shipped", content: "Order {{orderId}} (${i})" }`,
    );
  }
  return `${out.join("\n")}\n`;
}

export async function benchPreviewScale(count = PREVIEW_WORKFLOWS): Promise<PreviewScaleResult> {
  const dir = await benchDir("preview");
  await mkdir(join(dir, "templates"), { recursive: true });
  await writeFile(join(dir, "templates", "layout.html"), LAYOUT);
  await Promise.all(
    Array.from({ length: count }, (_, i) => writeFile(join(dir, "templates", `workflow-${i}.html`), html(i))),
  );
  await writeFile(join(dir, "notiform.yaml"), configFor(count));
  const preview = mustSucceed("preview", await runCliTimed(["preview", "--out", "site"], dir, {}));
  if (!preview.stderr.includes(`Wrote ${count * PREVIEW_STEPS} message steps`))
    throw new Error(`preview wrote something else:\n${preview.stderr.slice(0, 2000)}`);
  const validate = mustSucceed("validate", await runCliTimed(["validate"], dir, {}));
  return {
    workflows: count,
    steps: count * PREVIEW_STEPS,
    previewMs: preview.wallMs,
    validateMs: validate.wallMs,
  };
}
