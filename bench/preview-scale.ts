// The preview at scale (issue 34): 1,000 workflows x 4 message steps (e-mail in a layout with
// branding and a preheader, in-app with a button, SMS, push), each workflow with a preview
// example, rendered by `notiform preview` (spawned, as users run it) into a site of about 13,000
// files. Offline: no server. Target: under 2 s wall, the median of ROUNDS rounds. Beside it,
// `notiform validate` of the same config (its render checks compile every template): under 2 s too.
// Each round is followed by the disk's own time for the same files: the site's every file written
// again, same paths and bytes, by a bare synchronous loop (the preview's own way). On this shared
// machine creating a file takes 15 us to 700 us from one minute to the next, and 9,000 of them are
// most of the preview's wall time when the disk is slow: the floor says which it was.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { benchDir, mustSucceed, runCliTimed } from "./cli.js";
import { median, ROUNDS } from "./plan-scale.js";

export const PREVIEW_WORKFLOWS = 1_000;
export const PREVIEW_STEPS = 4;

export interface PreviewScaleResult {
  workflows: number;
  steps: number;
  /** The median round's wall time (ms). */
  previewMs: number;
  /** Every round's, in the order run. */
  previewRoundsMs: number[];
  /** The site's files, and the bare loop's time to write them again after the median round (ms). */
  files: number;
  diskFloorMs: number;
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
  const rounds: { previewMs: number; diskFloorMs: number; files: number }[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const site = `site-${round}`;
    const preview = mustSucceed("preview", await runCliTimed(["preview", "--out", site], dir, {}));
    if (!preview.stderr.includes(`Wrote ${count * PREVIEW_STEPS} message steps`))
      throw new Error(`preview wrote something else:\n${preview.stderr.slice(0, 2000)}`);
    rounds.push({ previewMs: preview.wallMs, ...diskFloor(join(dir, site), join(dir, `floor-${round}`)) });
  }
  const previewMs = median(rounds.map((r) => r.previewMs));
  const middle = rounds.find((r) => r.previewMs === previewMs) ?? rounds[0];
  const validate = mustSucceed("validate", await runCliTimed(["validate"], dir, {}));
  return {
    workflows: count,
    steps: count * PREVIEW_STEPS,
    previewMs,
    previewRoundsMs: rounds.map((r) => r.previewMs),
    files: middle?.files ?? 0,
    diskFloorMs: middle?.diskFloorMs ?? 0,
    validateMs: validate.wallMs,
  };
}

/** Every file of `site` written again under `to` by a bare synchronous loop, timed (files read first). */
function diskFloor(site: string, to: string): { diskFloorMs: number; files: number } {
  const files: [string, Buffer][] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push([relative(site, path), readFileSync(path)]);
    }
  };
  walk(site);
  const started = performance.now();
  const folders = new Set<string>();
  for (const [path, bytes] of files) {
    const folder = join(to, dirname(path));
    if (!folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      folders.add(folder);
    }
    writeFileSync(join(to, path), bytes);
  }
  return { diskFloorMs: performance.now() - started, files: files.length };
}
