// A preview site built from a hostile config (docs/preview.md, "Sandboxing"; docs/security.md): a
// pull request's config may put markup, script schemes, comment and CDATA ends, line separators,
// controls, bidi overrides, path climbs, reserved device names, very long text and look-alike
// names into every string: workflow identifiers, keys and names, step names, subjects,
// preheaders, sender names, contents, editor blocks, in-app buttons and urls, push titles,
// example names and payloads, layout content and branding. The real `notiform preview --out
// site` writes the site; each page is read as a browser's tokenizer reads it, and must show every
// such string as text (or in a harmless attribute, or inside a sandboxed frame's escaped srcdoc),
// never as an element, attribute or comment of its own; every frame is sandboxed without scripts
// and holds exactly the message written beside it; every file stays in the folder under a name
// no file system confuses with another's; the JSON files follow their schema
// (test/support/site-checks.ts). To hunt: NF_HOSTILE_SEED=n and a larger NF_HOSTILE_RUNS.
// What it found, each now an example below: a workflow or step named after a device Windows
// reserves (CON, aux) made a folder or file no Windows machine can hold; the index's summary cut
// an emoji in half.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { createWorkspace, runCli, type Workspace } from "../support/cli.js";
import { type ExpectedStep, hostileConfig, hostileShape } from "../support/hostile-config.js";
import { checkSite, filesUnder } from "../support/site-checks.js";

const SEED = Number(process.env.NF_HOSTILE_SEED ?? 20_250_611);
const RUNS = Number(process.env.NF_HOSTILE_RUNS ?? 40);
const workspaces: Workspace[] = [];
afterEach(async () => {
  for (const ws of workspaces.splice(0)) await ws.remove();
});

/** The site `notiform preview --out site` writes for `yaml`, and the problems checkSite finds. */
async function previewOf(yaml: string, expected: ExpectedStep[]) {
  const ws = await createWorkspace({ "notiform.yaml": yaml });
  workspaces.push(ws);
  const result = await runCli(["preview", "--out", "site"], { cwd: ws.dir });
  const site = join(ws.dir, "site");
  const problems = result.code === 0 ? checkSite(site, expected) : [`exit ${result.code}: ${result.stderr}`];
  return { ws, site, problems };
}

const sms = (workflowKey: string, step: string): ExpectedStep => ({
  workflowKey,
  workflowShown: workflowKey,
  step,
  channel: "sms",
  examples: ["placeholders"],
});

describe("a preview site built from hostile text", () => {
  it(
    "shows every string as text or in a sandboxed frame, inside its folder, under names no file system confuses",
    async () => {
      await fc.assert(
        fc.asyncProperty(hostileShape, async (shape) => {
          const config = hostileConfig(shape);
          const { problems } = await previewOf(config.yaml, config.steps);
          expect(problems, config.yaml).toEqual([]);
          for (const ws of workspaces.splice(0)) await ws.remove();
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    },
    20_000 + RUNS * 1_500,
  );

  it("names no file or folder after a device Windows reserves (con, aux, nul, com1, lpt9), whatever follows its dot", async () => {
    // Found by the property (seed 20250611): a workflow keyed CON wrote con/…, which Windows
    // cannot hold, so the site's artifact could not be unpacked there.
    const { site, problems } = await previewOf(
      `version: 1
workflows:
  - identifier: CON
    steps:
      - { name: aux, type: sms, template: { content: a } }
      - { name: Com1, type: sms, template: { content: b } }
      - { name: lpt9.txt, type: sms, template: { content: c } }
`,
      [sms("CON", "aux"), sms("CON", "Com1"), sms("CON", "lpt9.txt")],
    );
    expect(problems).toEqual([]);
    expect(filesUnder(site).sort()).toEqual([
      ".notiform-preview",
      "con-2/aux-2.json",
      "con-2/aux-2.preview.html",
      "con-2/com1-2.json",
      "con-2/com1-2.preview.html",
      "con-2/lpt9-txt.json",
      "con-2/lpt9-txt.preview.html",
      "index.html",
    ]);
  });

  it("cuts a long summary on the index between characters, never inside an emoji", async () => {
    // Found while hunting: 118 characters then an emoji; the summary's cut at 119 UTF-16 units
    // left half of it, which the page holds as U+FFFD.
    const text = `${"a".repeat(118)}😀b`;
    const { site, problems } = await previewOf(
      yamlOf({
        version: 1,
        workflows: [{ identifier: "w", steps: [{ name: "s", type: "sms", template: { content: text } }] }],
      }),
      [sms("w", "s")],
    );
    expect(problems).toEqual([]);
    expect(readFileSync(join(site, "index.html"), "utf8")).toContain(`<td>${"a".repeat(118)}…</td>`);
  });
});

function yamlOf(value: unknown): string {
  return `${JSON.stringify(value, null, 1)}\n`;
}
