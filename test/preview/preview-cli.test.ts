// `notiform preview` end to end, spawned as users run it. Offline (no API key): every message step
// rendered with each example into a static site whose email files are exactly the server's HTML,
// whose JSON files follow schemas/preview.schema.json, whose message HTML sits only in sandboxed,
// script-free frames. Over the emulator: preview examples are never sent (the plan stays empty),
// and --changed shows only the steps the plan changes, the live message beside the config's.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { loadRenderer } from "../../src/render/index.js";
import { validatorOf } from "../../src/schemas.js";
import { createWorkspace, runCli, SEED } from "../support/cli.js";
import { createContentWorkflow } from "../support/dashboard.js";

const LAYOUT = `<!doctype html>
<html><head><title>{{subject}}</title></head>
<body>
<div style="border-top:4px solid {{branding.color}}">{{{body}}}</div>
</body></html>
`;
const EMAIL = `<h1>Order {{orderId}}</h1><p>Hello {{subscriber.firstName}}</p>
<img src="x" onerror="document.title='onerror ran'"><script>document.title='script ran'</script>
`;

const CONFIG = `version: 1
branding: { color: "#0f62fe" }
layouts:
  - identifier: brand
    name: Brand
    content: { file: templates/layout.html }
workflows:
  - identifier: order-shipped
    name: Order shipped
    preview:
      - name: ada
        payload: { file: previews/ada.json }
        subscriber: { firstName: Ada }
      - name: unicode
        payload: { orderId: "Ünï-9" }
    steps:
      - name: email-customer
        type: email
        template:
          subject: "Your order {{orderId}} shipped"
          preheader: "Hi {{subscriber.firstName}}"
          senderName: Acme
          content: { file: templates/email.html }
          contentType: customHtml
          layout: brand
      - name: wait
        type: delay
        metadata: { type: regular, unit: hours, amount: 1 }
      - name: bell
        type: in_app
        template:
          content: "Shipped {{orderId}}"
          cta: { type: redirect, data: { url: "/orders/{{orderId}}" }, action: { buttons: [{ type: primary, content: Track }] } }
      - name: text
        type: sms
        template: { content: "Order {{orderId}} shipped" }
  - identifier: welcome
    steps:
      - name: mail
        type: email
        template: { subject: "Hello {{user.name}}", content: "<p>{{greeting}}</p>", contentType: customHtml, layout: gone }
      - name: chat
        type: chat
        template: { content: "Welcome {{user.name}}" }
      - name: push
        type: push
        template: { title: "Hi {{user.name}}", content: "Open the app" }
`;

async function offlineWorkspace(config = CONFIG) {
  return createWorkspace({
    "notiform.yaml": config,
    "templates/layout.html": LAYOUT,
    "templates/email.html": EMAIL,
    "previews/ada.json": '{"orderId": "A-1042"}',
  });
}

describe("notiform preview, offline", () => {
  it("writes no value that came from the environment: the site is masked like every other output", async () => {
    const secret = "s3cr3t-from-the-environment";
    const ws = await offlineWorkspace(
      CONFIG.replace(
        'subject: "Your order {{orderId}} shipped"',
        'subject: "Your order {{orderId}} ${NF_PREVIEW_SECRET}"',
      ).replace('content: "Shipped {{orderId}}"', 'content: "Shipped ${NF_PREVIEW_SECRET}"'),
    );
    const result = await runCli(["preview"], { cwd: ws.dir, env: { NF_PREVIEW_SECRET: secret } });
    expect(result.code, result.stderr).toBe(0);
    const folder = join(ws.dir, "notiform-preview");
    const files = readdirSync(folder, { recursive: true, encoding: "utf8" }).filter((name) =>
      /\.(html|json)$/.test(name),
    );
    expect(files.length).toBeGreaterThan(5);
    const texts = files.map((name) => readFileSync(join(folder, name), "utf8"));
    for (const text of texts) expect(text).not.toContain(secret);
    // The masked value is there in its place: the subject still renders around it.
    expect(texts.some((text) => text.includes("Your order A-1042 ********"))).toBe(true);
    expect(result.stdout + result.stderr).not.toContain(secret);
  });

  it("writes no form of an environment value, escaped by the template, doubly by the page, or changed by a helper", async () => {
    // `=` and the backtick are escaped by {{x}} as the server escapes them (&#x3D;, &#x60;), which
    // a mask of the value's own text does not see; the page escapes a frame's HTML again.
    const secret = "tok=abc`<p&ss>\"d'x";
    const ws = await offlineWorkspace(
      CONFIG.replace(
        'payload: { orderId: "Ünï-9" }',
        'payload: { orderId: "Ünï-9", token: "${NF_PREVIEW_TOKEN}" }',
      ).replace(
        'content: "Shipped {{orderId}}"',
        'content: "Shipped {{token}} {{uppercase token}} {{{token}}} {{json token}}"',
      ),
    );
    const result = await runCli(["preview"], { cwd: ws.dir, env: { NF_PREVIEW_TOKEN: secret } });
    expect(result.code, result.stderr).toBe(0);
    const folder = join(ws.dir, "notiform-preview");
    const files = readdirSync(folder, { recursive: true, encoding: "utf8" }).filter((name) =>
      /\.(html|json)$/.test(name),
    );
    const texts = files.map((name) => readFileSync(join(folder, name), "utf8")).join("\n");
    // Recognizable pieces of the value in every form it could take: none is left anywhere.
    for (const piece of [
      "tok=abc",
      "tok&#x3D;abc",
      "TOK=ABC",
      "TOK&#X3D;ABC",
      "tok&amp;#x3D;abc",
      "p&amp;ss",
      "p&ss",
    ])
      expect(texts, piece).not.toContain(piece);
    expect(texts).toContain("Shipped ********");
  });

  it("writes every message step with each example: index, channel pages, the server's exact HTML and JSON", async () => {
    const ws = await offlineWorkspace();
    // No API key and no API URL: the config alone.
    const result = await runCli(["preview"], { cwd: ws.dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("Wrote 6 message steps to notiform-preview/index.html");
    const site = (path: string) => readFileSync(join(ws.dir, "notiform-preview", path), "utf8");

    const index = site("index.html");
    for (const text of [
      "Order shipped",
      "email-customer",
      "Your order A-1042 shipped",
      "bell",
      "in-app",
      "SMS",
      "welcome",
      "Hello [user.name]",
    ])
      expect(index).toContain(text);
    expect(index).not.toContain(">wait<");
    expect(index).toContain('href="order-shipped/email-customer.preview.html"');

    // The email file is exactly what the renderer produces for the server: layout, branding, preheader.
    const renderer = await loadRenderer();
    const expected = renderer.renderEmail(
      {
        subject: "Your order {{orderId}} shipped",
        content: EMAIL,
        contentType: "customHtml",
        preheader: "Hi {{subscriber.firstName}}",
        senderName: "Acme",
      },
      {
        payload: { orderId: "A-1042", subscriber: { firstName: "Ada" } },
        branding: { color: "#0f62fe" },
        layout: { content: LAYOUT },
        mode: "send",
      },
    );
    expect(site("order-shipped/email-customer.html")).toBe(expected.html);
    expect(site("order-shipped/email-customer.unicode.html")).toContain("Order Ünï-9");

    const validate = validatorOf("preview");
    const email = JSON.parse(site("order-shipped/email-customer.json"));
    expect(validate(email), JSON.stringify(validate.errors)).toBe(true);
    expect(email.examples[0]).toEqual({
      name: "ada",
      placeholder: false,
      subject: "Your order A-1042 shipped",
      preheader: "Hi Ada",
      senderName: "Acme",
      html: "order-shipped/email-customer.html",
    });
    const sms = JSON.parse(site("order-shipped/text.json"));
    expect(validate(sms), JSON.stringify(validate.errors)).toBe(true);
    expect(sms.examples.map((x: { segments: unknown }) => x.segments)).toEqual([
      { encoding: "GSM-7", characters: 20, segments: 1 },
      { encoding: "UCS-2", characters: 19, segments: 1 },
    ]);
    const bell = JSON.parse(site("order-shipped/bell.json"));
    expect(bell.examples[0].cta).toEqual({
      url: "/orders/A-1042",
      buttons: [{ type: "primary", content: "Track" }],
    });

    // Each channel as it shows: the email under its envelope at two widths, a feed item with its
    // button, an SMS bubble with its segments, a push title.
    const page = site("order-shipped/email-customer.preview.html");
    expect(page).toContain("desktop, 800 px");
    expect(page).toContain("mobile, 375 px");
    expect(page).toContain("Hi Ada");
    expect(site("order-shipped/bell.preview.html")).toContain('<span class="button primary">Track</span>');
    expect(site("order-shipped/text.preview.html")).toContain("19 characters, UCS-2, 1 segment");
    expect(site("welcome/push.preview.html")).toContain("<strong>Hi [user.name]</strong>");

    // A layout the config does not hold, and no examples: said on the page.
    const mail = site("welcome/mail.preview.html");
    expect(mail).toContain("names layout &quot;gone&quot;, which this config does not hold");
    expect(mail).toContain("no preview example");
  });

  it("shows message HTML only in sandboxed frames with a policy forbidding scripts, on pages that forbid them too", async () => {
    const ws = await offlineWorkspace();
    const result = await runCli(["preview", "--workflow", "order-shipped", "--out", "site"], { cwd: ws.dir });
    expect(result.code, result.stderr).toBe(0);
    const page = readFileSync(join(ws.dir, "site/order-shipped/email-customer.preview.html"), "utf8");
    expect(page).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'none';`,
    );
    const frames = page.match(/<iframe [^>]*>/g) ?? [];
    expect(frames).toHaveLength(4);
    for (const frame of frames) {
      expect(frame).toMatch(/ sandbox="" /);
      expect(frame).toContain(
        'srcdoc="&lt;!doctype html&gt;&lt;meta http-equiv=&quot;Content-Security-Policy&quot;',
      );
      expect(frame).toContain("script-src &amp;#39;none&amp;#39;");
    }
    // The template's script and handler exist only as escaped text inside the frames.
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toMatch(/<img[^>]*onerror/i);
    expect(page).toContain("&lt;script&gt;document.title=&#39;script ran&#39;");
    expect(existsSync(join(ws.dir, "site/welcome"))).toBe(false);
  });

  it("fails on a message the server would refuse (past validate's checks), after writing the site that shows why", async () => {
    // Parses, and names only the server's helpers: only rendering with the example fails.
    const config = CONFIG.replace(
      "  - identifier: welcome\n",
      "  - identifier: welcome\n    preview: { payload: { count: 5 } }\n",
    ).replace('content: "Open the app"', 'content: "{{titlecase count}}"');
    const ws = await offlineWorkspace(config);
    const result = await runCli(["preview"], { cwd: ws.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("1 message does not render (the server would refuse it):");
    expect(result.stderr).toContain("welcome / push (example-1): content: value.split is not a function");
    const page = readFileSync(join(ws.dir, "notiform-preview/welcome/push.preview.html"), "utf8");
    expect(page).toContain("The server would refuse to render this message");
    // A template validate refuses is refused before anything is written.
    const typo = await offlineWorkspace(
      CONFIG.replace('content: "Open the app"', 'content: "{{upercase name}}"'),
    );
    const refused = await runCli(["preview"], { cwd: typo.dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Missing helper: "upercase" (did you mean "uppercase"?)');
    expect(existsSync(join(typo.dir, "notiform-preview"))).toBe(false);
  });

  it("refuses --port or --host without --serve, rather than ignoring them", async () => {
    const ws = await offlineWorkspace();
    for (const flags of [
      ["--port", "0"],
      ["--host", "127.0.0.1"],
    ]) {
      const result = await runCli(["preview", ...flags], { cwd: ws.dir });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain(
        `a flag given needs another (given -> needed):\n ${flags[0]?.slice(2)} -> serve`,
      );
      expect(existsSync(join(ws.dir, "notiform-preview"))).toBe(false);
    }
    // Their defaults still hold for --serve (test/preview/serve.test.ts serves on --port 0).
    expect((await runCli(["preview", "--help"], { cwd: ws.dir })).stdout).toMatch(
      /--port .*\[default: 4400\]/,
    );
  });

  it("without examples, shows the layout's variables as placeholders too, and a layout default as itself", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": `version: 1
layouts:
  - identifier: frame
    name: Frame
    content: "<body>{{footer}}|{{legal}}|{{{body}}}</body>"
    variables: [{ name: legal, defaultValue: "All rights reserved" }]
workflows:
  - identifier: wf
    name: WF
    steps:
      - { name: mail, type: email, template: { subject: s, content: "<p>{{x}}</p>", contentType: customHtml, layout: frame } }
`,
    });
    const result = await runCli(["preview"], { cwd: ws.dir });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(join(ws.dir, "notiform-preview/wf/mail.html"), "utf8")).toBe(
      "<body>[footer]|All rights reserved|<p>[x]</p></body>",
    );
  });

  it("refuses an unknown --workflow with a suggestion, and a folder of someone else's files", async () => {
    const ws = await offlineWorkspace();
    const unknown = await runCli(["preview", "--workflow", "order-shiped"], { cwd: ws.dir });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      '--workflow order-shiped: the config has no workflow with that key or identifier (did you mean "order-shipped"?)',
    );
    await ws.write("mine/notes.txt", "keep me");
    const foreign = await runCli(["preview", "--out", "mine"], { cwd: ws.dir });
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain("the folder holds files notiform did not write");
    expect(await ws.read("mine/notes.txt")).toBe("keep me");
    // Its own folder is replaced whole, every time.
    expect((await runCli(["preview"], { cwd: ws.dir })).code).toBe(0);
    expect((await runCli(["preview", "--workflow", "welcome"], { cwd: ws.dir })).code).toBe(0);
    expect(existsSync(join(ws.dir, "notiform-preview/order-shipped"))).toBe(false);
    expect(existsSync(join(ws.dir, "notiform-preview/welcome/chat.json"))).toBe(true);
  });
});

let emulator: EmulatorHandle | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe("notiform preview --changed, over the emulator", () => {
  it("sends nothing for preview examples, and renders only the changed steps, live beside config, with the diff", async () => {
    emulator = await startEmulator({ seedFile: SEED, port: 0, flavor: "real" });
    const handle = emulator;
    await createContentWorkflow(handle, "<p>Hello {{firstName}}</p>\n", [
      { name: "text", template: { type: "sms", content: "Order {{orderId}} shipped" } },
    ]);
    const ws = await createWorkspace({});
    const env = { NOTIFORM_API_KEY: handle.apiKey };
    const cli = (...args: string[]) => runCli([...args, "--api-url", handle.url], { cwd: ws.dir, env });
    expect((await cli("export", "--dir", ".")).code).toBe(0);
    const exported = await ws.read("workflows.yaml");

    // Preview examples added: never sent, the plan stays empty.
    const withExamples = exported.replace(
      /^( *)(- )?identifier: order-shipped-content\n/m,
      (line, indent: string, dash?: string) => {
        const inner = `${indent}${dash === undefined ? "" : "  "}`;
        return `${line}${inner}preview:\n${inner}  payload: { orderId: A-1, firstName: Ada }\n`;
      },
    );
    expect(withExamples).not.toBe(exported);
    await ws.write("workflows.yaml", withExamples);
    handle.clearRequests();
    const zero = await cli("plan", "--detailed-exitcode");
    expect(zero.stdout, zero.stderr).toContain("No changes.");
    expect(zero.code).toBe(0);
    expect(handle.requests.filter((r) => r.method !== "GET")).toEqual([]);
    expect(JSON.stringify(handle.requests)).not.toContain("A-1");

    // The subject changes: only that step is in the site, before and after.
    const edited = withExamples
      .replace("subject: Your order {{orderId}} shipped", 'subject: "Shipped: {{orderId}}"')
      .replace("content: Order {{orderId}} shipped", 'content: "Order {{orderId}} is on its way 🚚"');
    expect(edited).toContain("on its way");
    await ws.write("workflows.yaml", edited);

    // The pull request's comment: each changed message's rendered subject (or text) before and
    // after, and the SMS's segments.
    const markdown = await cli("plan", "--output", "markdown");
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(markdown.stdout).toContain("#### Messages: 2 changed, rendered with the preview examples");
    expect(markdown.stdout).toContain(
      "| `order-shipped-content / email-customer` | email | `Your order A-1 shipped` | `Shipped: A-1` |",
    );
    expect(markdown.stdout).toContain(
      "| `order-shipped-content / text` | SMS | `Order A-1 shipped` · 1 SMS segment | `Order A-1 is on its way 🚚` · 1 SMS segment |",
    );
    handle.clearRequests();
    const changed = await cli("preview", "--changed");
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stderr).toContain("Wrote 2 changed message steps to notiform-preview/index.html");
    expect(handle.requests.filter((r) => r.method !== "GET")).toEqual([]);
    const site = (path: string) => readFileSync(join(ws.dir, "notiform-preview", path), "utf8");
    const json = JSON.parse(site("order-shipped-content/email-customer.json"));
    expect(json.change).toBe("changed");
    expect(json.examples[0].subject).toBe("Shipped: A-1");
    expect(json.examples[0].before.subject).toBe("Your order A-1 shipped");
    expect(site(json.examples[0].before.html)).toContain("Hello Ada");
    expect(JSON.parse(site("order-shipped-content/text.json")).examples[0].segments).toEqual({
      encoding: "UCS-2",
      characters: 26,
      segments: 1,
    });
    const page = site("order-shipped-content/email-customer.preview.html");
    expect(page).toContain("live (before)");
    expect(page).toContain("config (after)");
    expect(page).toContain('<span class="del">-Subject: Your order A-1 shipped</span>');
    expect(page).toContain('<span class="add">+Subject: Shipped: A-1</span>');
  });

  it("needs the API key for --changed, and says so", async () => {
    const ws = await offlineWorkspace();
    const result = await runCli(["preview", "--changed", "--api-url", "http://127.0.0.1:9"], { cwd: ws.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("NOTIFORM_API_KEY");
  });
});
