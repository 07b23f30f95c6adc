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
// (test/support/site-checks.ts). A fixed config of the same kind is opened in headless Chromium
// (no script of it runs, no frame paints), previewed with --changed against an emulator whose
// messages are hostile too, and served with --serve (no path, however spelled, reaches outside
// the site). To hunt: NF_HOSTILE_SEED=n and a larger NF_HOSTILE_RUNS.
// What it found (or was written beside), each now an example below: a workflow or step named
// after a device Windows reserves (CON, aux) made a folder or file no Windows machine can hold;
// the index's summary cut an emoji in half; --serve served a message's own HTML file unsandboxed
// at its origin.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { HEADLESS_FLAGS } from "../../src/preview/screenshots.js";
import { countPixels, decodePng } from "../helpers/png.js";
import { BIN, createWorkspace, SEED as EMULATOR_SEED, runCli, type Workspace } from "../support/cli.js";
import { createContentWorkflow } from "../support/dashboard.js";
import { type ExpectedStep, hostileConfig, hostileShape } from "../support/hostile-config.js";
import { checkPage, checkSite, filesUnder } from "../support/site-checks.js";

const SEED = Number(process.env.NF_HOSTILE_SEED ?? 20_250_611);
const RUNS = Number(process.env.NF_HOSTILE_RUNS ?? 40);
const CHROMIUM = spawnSync("sh", ["-c", "command -v chromium"], { encoding: "utf8" }).stdout.trim();

const workspaces: Workspace[] = [];
let emulator: EmulatorHandle | undefined;
afterEach(async () => {
  for (const ws of workspaces.splice(0)) await ws.remove();
  await emulator?.close();
  emulator = undefined;
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

  it("isolates every name and summary, so a bidi override in one cannot reverse what follows it", async () => {
    // Noticed while hunting: a workflow named with U+202E showed its heading's ` / step` and the
    // channel reversed, so the page read differently from the config.
    const rlo = "\u202e";
    const { site, problems } = await previewOf(
      yamlOf({
        version: 1,
        workflows: [
          {
            identifier: "w",
            name: `${rlo}Orders`,
            preview: [{ name: `${rlo}first`, payload: {} }],
            steps: [{ name: `${rlo}sms`, type: "sms", template: { content: `${rlo}Hi` } }],
          },
        ],
      }),
      [{ ...sms("w", `${rlo}sms`), examples: [`${rlo}first`] }],
    );
    expect(problems).toEqual([]);
    const index = readFileSync(join(site, "index.html"), "utf8");
    const page = readFileSync(
      join(site, filesUnder(site).find((f) => f.endsWith(".preview.html")) ?? ""),
      "utf8",
    );
    for (const [html, texts] of [
      [index, ["Orders", "sms", "Hi"]],
      [page, ["Orders", "sms", "first"]],
    ] as const) {
      // Left once names are isolated: only the message itself, in its own block.
      const rest = html
        .replace(/<bdi>[^<]*<\/bdi>|<title>[^<]*<\/title>/g, "")
        .replace(/<div class="bubble">[^<]*<\/div>/g, "");
      expect(rest).not.toContain(rlo);
      for (const text of texts) expect(html).toContain(`<bdi>${rlo}${text}</bdi>`);
    }
    expect(page).toContain(`<title>\u2068w\u2069 / \u2068${rlo}sms\u2069</title>`);
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
    expect(readFileSync(join(site, "index.html"), "utf8")).toContain(
      `<td><bdi>${"a".repeat(118)}…</bdi></td>`,
    );
  });
});

// A fixed hostile config for the browser and the server: every field tries to run a script that
// would mark the page (data-pwned on <html>, its title) or paint a frame red.
const PWN = `<script>document.documentElement.setAttribute('data-pwned','1');document.title='PWNED'</script><img src=x onerror="document.documentElement.setAttribute('data-pwned','1')">`;
const RED = `<body style="margin:0;background:#0000ff"><div style="width:300px;height:300px;background:#0000ff"></div><script>document.body.style.background='#ff0000';document.documentElement.setAttribute('data-pwned','1')</script><img src=x onerror="document.body.style.background='#ff0000'"></body>`;
const FIXED_NAMES = { key: `wf${PWN}`, name: `"></title>${PWN}<!--`, example: `</h2>${PWN}` };
const FIXED_STEPS: ExpectedStep[] = [
  ["mail", "email"],
  [`bell${PWN}`, "in_app"],
  [`push</strong>${PWN}`, "push"],
].map(([step = "", channel = ""]) => ({
  workflowKey: FIXED_NAMES.key,
  workflowShown: FIXED_NAMES.name,
  step,
  channel,
  examples: [FIXED_NAMES.example],
}));
const FIXED = yamlOf({
  version: 1,
  workflows: [
    {
      identifier: FIXED_NAMES.key,
      name: FIXED_NAMES.name,
      preview: [{ name: FIXED_NAMES.example, payload: { x: PWN, u: "javascript:document.title='PWNED'" } }],
      steps: [
        {
          name: FIXED_STEPS[0]?.step,
          type: "email",
          template: { subject: `{{{x}}}${PWN}`, senderName: "{{{x}}}", content: RED },
        },
        {
          name: FIXED_STEPS[1]?.step,
          type: "in_app",
          template: {
            content: "{{{x}}}",
            cta: {
              type: "redirect",
              data: { url: "{{{u}}}" },
              action: { buttons: [{ type: "primary", content: "{{{x}}}" }] },
            },
          },
        },
        { name: FIXED_STEPS[2]?.step, type: "push", template: { title: "{{{x}}}", content: "{{{x}}}" } },
      ],
    },
  ],
});

function yamlOf(value: unknown): string {
  return `${JSON.stringify(value, null, 1)}\n`;
}

/** Chromium's DOM of `url` once loaded (loopback and files only: no network beyond). */
function dumpDom(url: string, profile: string): string {
  return execFileSync(
    CHROMIUM,
    [...HEADLESS_FLAGS, "--virtual-time-budget=3000", `--user-data-dir=${profile}`, "--dump-dom", url],
    {
      encoding: "utf8",
      timeout: 60_000,
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
}

const pwned = (dom: string) => /<html[^>]*data-pwned/.test(dom) || dom.includes("<title>PWNED");

describe("the hostile site in headless Chromium", () => {
  it("runs no script of the config's on any page, and the frames keep the message's script from running", async () => {
    expect(CHROMIUM, "install Chromium: apt-get install -y chromium").not.toBe("");
    const { ws, site, problems } = await previewOf(FIXED, FIXED_STEPS);
    expect(problems).toEqual([]);
    const pages = filesUnder(site).filter((f) => f.endsWith(".preview.html") || f === "index.html");
    expect(pages).toHaveLength(4);
    for (const page of pages) {
      const dom = dumpDom(pathToFileURL(join(site, page)).href, join(ws.dir, ".chromium"));
      expect(dom, page).toContain("</body>");
      expect(pwned(dom), page).toBe(false);
    }
    // The email's page as seen: the blue message in its frames, nothing red (its script and
    // handler did not run).
    const mail = pages.find((p) => p.endsWith("/mail.preview.html")) ?? "";
    const png = join(ws.dir, "shot.png");
    // On a loaded machine a shot may come before the frames paint (no blue yet): up to three,
    // and none may show red.
    let blue = 0;
    for (let attempt = 0; attempt < 3 && blue <= 100; attempt++) {
      execFileSync(
        CHROMIUM,
        [
          ...HEADLESS_FLAGS,
          "--hide-scrollbars",
          "--virtual-time-budget=5000",
          `--user-data-dir=${join(ws.dir, ".chromium")}`,
          `--screenshot=${png}`,
          "--window-size=1300,900",
          pathToFileURL(join(site, mail)).href,
        ],
        { timeout: 60_000, stdio: "ignore" },
      );
      const image = decodePng(readFileSync(png));
      blue = countPixels(image, ([r, g, b]) => b > 200 && r < 60 && g < 60);
      expect(countPixels(image, ([r, g, b]) => r > 200 && g < 60 && b < 60)).toBe(0);
    }
    expect(blue).toBeGreaterThan(100);
  }, 120_000);
});

describe("the hostile site with --changed, the server's side hostile too", () => {
  it("shows the live message and the config's, and their diff, as text and in sandboxed frames", async () => {
    emulator = await startEmulator({ seedFile: EMULATOR_SEED, port: 0, flavor: "real" });
    const handle = emulator;
    const smsName = `sms</pre>${PWN}`;
    await createContentWorkflow(handle, `<p>live {{{x}}}</p>${RED}`, [
      { name: smsName, template: { type: "sms", content: `live</pre>${PWN}{{{x}}}` } },
    ]);
    const ws = await createWorkspace({});
    workspaces.push(ws);
    const env = { NOTIFORM_API_KEY: handle.apiKey };
    const cli = (...args: string[]) => runCli([...args, "--api-url", handle.url], { cwd: ws.dir, env });
    expect((await cli("export", "--dir", ".")).code).toBe(0);
    const exported = await ws.read("workflows.yaml");
    const edited = exported
      .replace(/^( *)(- )?identifier: order-shipped-content\n/m, (line, indent: string, dash?: string) => {
        const inner = `${indent}${dash === undefined ? "" : "  "}`;
        return `${line}${inner}preview:\n${inner}  - name: ${JSON.stringify(FIXED_NAMES.example)}\n${inner}    payload: { x: ${JSON.stringify(PWN)} }\n`;
      })
      .replace(
        "subject: Your order {{orderId}} shipped",
        `subject: ${JSON.stringify(`{{{x}}}</pre>${PWN}`)}`,
      );
    expect(edited).not.toBe(exported);
    await ws.write("workflows.yaml", edited);
    const smsFile = /file: (templates\/order-shipped-content\/sms-[^\n]*\.txt)/.exec(edited)?.[1] ?? "";
    expect(await ws.read(smsFile)).toContain("live</pre>");
    await ws.write(smsFile, `config</pre>${PWN}{{{x}}}`);
    const result = await cli("preview", "--changed", "--out", "site");
    expect(result.code, result.stderr).toBe(0);
    const step = (name: string, channel: string): ExpectedStep => ({
      workflowKey: "order-shipped-content",
      workflowShown: "Order shipped content",
      step: name,
      channel,
      examples: [FIXED_NAMES.example],
    });
    const site = join(ws.dir, "site");
    expect(checkSite(site, [step("email-customer", "email"), step(smsName, "sms")])).toEqual([]);
    const json = JSON.parse(readFileSync(join(site, "order-shipped-content/email-customer.json"), "utf8"));
    expect(json.examples[0].before.html).toBe("order-shipped-content/email-customer.before.html");
    // The diff shows both sides' text, as text.
    const smsPage = filesUnder(site).find((f) => /\/sms-.*\.preview\.html$/.test(f)) ?? "";
    const facts = checkPage(smsPage, readFileSync(join(site, smsPage), "utf8"), []);
    expect(facts.text).toContain(`-live</pre>${PWN}${PWN}`);
    expect(facts.text).toContain(`+config</pre>${PWN}${PWN}`);
  }, 60_000);
});

/** One raw HTTP/1.1 request (the path as written: no client normalises it), its status, headers and body. */
function rawGet(port: number, target: string): Promise<{ status: number; head: string; body: string }> {
  return new Promise((done, fail) => {
    const socket = connect(port, "127.0.0.1", () =>
      socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
    );
    let text = "";
    socket.setEncoding("latin1").on("data", (chunk: string) => {
      text += chunk;
    });
    socket.on("error", fail).on("close", () => {
      const [head = "", ...rest] = text.split("\r\n\r\n");
      done({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 0), head, body: rest.join("\r\n\r\n") });
    });
  });
}

describe("the hostile site served (--serve)", () => {
  it("serves nothing outside the site, however the path is spelled, and a message's own HTML only sandboxed", async () => {
    const ws = await createWorkspace({ "notiform.yaml": FIXED, "outside.txt": "SENTINEL-OUTSIDE" });
    workspaces.push(ws);
    const proc = spawn(process.execPath, [BIN, "preview", "--serve", "--port", "0", "--out", "site"], {
      cwd: ws.dir,
      env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", HOME: ws.dir },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    proc.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    try {
      let port = 0;
      for (let i = 0; i < 400 && port === 0; i += 1) {
        port = Number(/Serving the preview on http:\/\/127\.0\.0\.1:(\d+)\//.exec(stderr)?.[1] ?? 0);
        if (port === 0) await new Promise((r) => setTimeout(r, 50));
      }
      expect(port, stderr).toBeGreaterThan(0);
      for (const target of [
        "/../outside.txt",
        "/%2e%2e/outside.txt",
        "/..%2foutside.txt",
        "/%2e%2e%2foutside.txt",
        "/.%2e/outside.txt",
        "/..\\\\outside.txt",
        "/%5c..%5coutside.txt",
        "//../outside.txt",
        "/index.html/..%2f..%2foutside.txt",
        "http://127.0.0.1/../outside.txt",
        "/site/../../outside.txt",
        "/%252e%252e/outside.txt",
        "/.notiform-preview",
        "/%2enotiform-preview",
        "/outside.txt%00.html",
        "/%",
        "/..%c0%afoutside.txt",
        `/${"../".repeat(40)}etc/hostname`,
      ]) {
        const answer = await rawGet(port, target);
        expect(answer.body, target).not.toContain("SENTINEL-OUTSIDE");
        expect([400, 404, 500], target).toContain(answer.status);
      }
      // The step's page is served with the reload script; the email's own file as it was written,
      // but sandboxed: its script may not run at the server's origin.
      const mail = await rawGet(
        port,
        `/${filesUnder(join(ws.dir, "site")).find((f) => f.endsWith("/mail.html"))}`,
      );
      expect(mail.status).toBe(200);
      expect(mail.body).toContain("<script>document.body.style.background");
      expect(mail.head.toLowerCase()).toMatch(/content-security-policy: sandbox;/);
      if (CHROMIUM !== "") {
        const url = `http://127.0.0.1:${port}/${filesUnder(join(ws.dir, "site")).find((f) => f.endsWith("/mail.html"))}`;
        expect(pwned(dumpDom(url, join(ws.dir, ".chromium")))).toBe(false);
      }
    } finally {
      proc.kill("SIGINT");
    }
  }, 120_000);
});
