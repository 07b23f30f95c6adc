// Secret hygiene against a hostile server (issue 12): the emulator stores the API key and a
// partner access token in topic names, and a loopback proxy in front of it echoes the key (whole
// and in part) and the config's interpolated values (raw, JSON-escaped, URL-encoded,
// HTML-escaped) in JSON error bodies, a non-JSON 200 body and HTML error pages. Interpolated
// values carry quotes, backslashes, tabs and non-ASCII, in a workflow's description, name and
// tags, a topic's name and a notification group's name; the workflow's old description (a previous secret) is read from the
// server. Neither the key, nor the token, nor an interpolated value, nor the old secret, nor any
// 8-character piece of one may appear in stdout, stderr, the plan file, the state file or the
// exported files.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorHandle, loadSeedFile, startEmulator } from "../../src/emulator/index.js";
import { slug } from "../../src/kinds/export-keys.js";
import { type CliResult, createWorkspace, runCli, WORKFLOW_SHIPPED, type Workspace } from "../support/cli.js";
import { type HostileProxy, startHostileProxy } from "./hostile-proxy.js";

const API_KEY = "nf_HOSTILE_key_9d8c7b6a5f4e3d2c";
const ACCESS_TOKEN = "pat_ADVERSE_tok_1a2b3c4d5e6f7a8b";
const OLD_SECRET = "promo-secret-value-456";
const PROMO = 'Promo "Zq9" \\vX\tñandú-€ K7';
const TOPIC_NAME = "Tópico 'Wx3' \"Yv\" \\ Rr\tEnd8";
const WORKFLOW_NAME = 'Wörkflow "Qp5" \\Ns\tMm';
const TAG = "tag\\Jj4 'ü' \"Hh\"";
const GROUP_NAME = 'Grüppe "Ff2" \\ Tt\tGg';
/** Longer than the 60 characters a schema error quotes: cut short, it would no longer be masked. */
const LONG_KEY = 'Long "Bq7" key with spaces \\ and ünïcode, well past sixty characters Zx';
const SECRETS = [
  API_KEY,
  ACCESS_TOKEN,
  OLD_SECRET,
  PROMO,
  TOPIC_NAME,
  WORKFLOW_NAME,
  TAG,
  GROUP_NAME,
  LONG_KEY,
];
const ENV = {
  NOTIFORM_API_KEY: API_KEY,
  PROMO_DESC: PROMO,
  TOPIC_NAME,
  WORKFLOW_NAME,
  TAG,
  GROUP_NAME,
  LONG_KEY,
};

const CONFIG = `version: 1
organization: Acme Inc
topics:
  - key: existing-announcements
    name: \${TOPIC_NAME}
notificationGroups:
  - key: billing
    name: "\${GROUP_NAME}"
workflows:
  - key: order-shipped
    id: ${WORKFLOW_SHIPPED}
    name: "\${WORKFLOW_NAME}"
    description: "\${PROMO_DESC}"
    tags: ["\${TAG}", plain]
layouts:
  - identifier: brand
    name: Brand
    content: "<html><body><p>\${PROMO_DESC}</p>{{{body}}}</body></html>"
`;

/** Every form a secret can take in output, and every 8-character piece of each. */
function leaksOf(secret: string): string[] {
  const forms = [
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    secret.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`),
    // What export makes a key or a file name of (a group's key is its name's slug).
    slug(secret),
  ];
  const pieces = new Set<string>(forms);
  for (const form of forms) for (let i = 0; i + 8 <= form.length; i += 1) pieces.add(form.slice(i, i + 8));
  return [...pieces];
}
const LEAKS = SECRETS.flatMap((secret) => leaksOf(secret).map((leak) => ({ secret, leak })));

function expectNoLeak(text: string, where: string): void {
  for (const { secret, leak } of LEAKS) {
    if (text.includes(leak))
      expect.fail(`${where} holds ${JSON.stringify(leak)} (a form or piece of ${JSON.stringify(secret)})`);
  }
}

const html = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

let emulator: EmulatorHandle;
let proxy: HostileProxy;
let workspace: Workspace;
const outputs: { command: string; result: CliResult }[] = [];

async function run(name: string, ...args: string[]): Promise<CliResult> {
  // validate is offline: it takes no --api-url.
  const api = args[0] === "validate" ? [] : ["--api-url", proxy.url];
  const result = await runCli([...args, "--verbose", ...api], {
    cwd: workspace.dir,
    env: ENV,
  });
  outputs.push({ command: name, result });
  return result;
}

const byName = (name: string) => outputs.find((o) => o.command === name)?.result;

beforeAll(async () => {
  const seed = await loadSeedFile("examples/emulator-seed.yaml");
  seed.apiKeys = [{ key: API_KEY, environment: "development" }];
  seed.organization = {
    name: "Acme Inc",
    partnerConfigurations: [
      { projectIds: ["p1"], accessToken: ACCESS_TOKEN, configurationId: "cfg1", partnerType: "vercel" },
    ],
  };
  const development = seed.environments?.development;
  if (development === undefined) throw new Error("the example seed has no development environment");
  development.topics = [
    ...(development.topics ?? []),
    { key: "leaky-key", name: `pasted ${API_KEY} here` },
    { key: "leaky-token", name: `token=${ACCESS_TOKEN}` },
  ];
  development.workflows = (development.workflows ?? []).map((w) =>
    w._id === WORKFLOW_SHIPPED ? { ...w, description: OLD_SECRET } : w,
  );
  emulator = await startEmulator({ seed, port: 0 });
  proxy = await startHostileProxy(emulator.url);
  workspace = await createWorkspace({
    "notiform.yaml": CONFIG,
    "invalid/notiform.yaml": `version: 1\ntopics:\n  - key: "\${LONG_KEY}"\n    name: Long\n`,
  });

  await run("validate", "validate");
  await run("validate json", "validate", "--output", "json");
  await run("validate (schema error)", "validate", "--config", "invalid/notiform.yaml");
  await run("whoami", "whoami");
  await run("plan text", "plan");
  await run("plan json", "plan", "--output", "json", "--out", "plan.json");
  await run("plan markdown", "plan", "--output", "markdown");
  // The update is refused with a JSON body echoing the values sent, their escaped forms and part of the key.
  proxy.rules.push({
    method: "PUT",
    path: `/v1/workflows/${WORKFLOW_SHIPPED}`,
    times: 1,
    reply: (request) => ({
      status: 400,
      contentType: "application/json",
      body: JSON.stringify({
        statusCode: 400,
        message: [
          `body ${request.body} rejected for key ${API_KEY.slice(0, 20)}`,
          `description=${encodeURIComponent(PROMO)}&name=${encodeURIComponent(WORKFLOW_NAME)}`,
        ],
        error: "Bad Request",
      }),
    }),
  });
  await run("apply saved (refused)", "apply", "plan.json");
  await run("apply", "apply", "--auto-approve", "--output", "json");
  await run("apply again", "apply", "--auto-approve");
  await run("export", "export", "--dir", "exported");
  // An HTML error page echoing the request's Authorization header across the 200-character cut.
  proxy.rules.push({
    method: "GET",
    path: "/v1/topics",
    times: 1,
    reply: (request) => ({
      status: 400,
      contentType: "text/html",
      body: `<html><head><title>400 Bad Request</title></head><body><h1>Bad Request</h1><p>${"Proxy said no. ".repeat(10)}${request.authorization} ${html(PROMO)} ${encodeURIComponent(TOPIC_NAME)}</p></body></html>`,
    }),
  });
  await run("plan (HTML error page)", "plan");
  // A 200 that is not JSON, the key straddling the 40-character cut.
  proxy.rules.push({
    method: "GET",
    path: "/v1/topics",
    times: 1,
    reply: () => ({
      status: 200,
      contentType: "text/html",
      body: `<!DOCTYPE html><p>key=${API_KEY} ${PROMO}</p>`,
    }),
  });
  await run("plan (not JSON)", "plan");
  // A JSON 401 echoing the start of the key.
  proxy.rules.push({
    method: "GET",
    path: "/v1/organizations/me",
    times: 1,
    reply: () => ({
      status: 401,
      contentType: "application/json",
      body: JSON.stringify({ statusCode: 401, message: `API Key ${API_KEY.slice(0, 18)}… not found` }),
    }),
  });
  await run("plan (401 echo)", "plan");
}, 120_000);

afterAll(async () => {
  await proxy?.close();
  await emulator?.close();
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name !== "notiform.yaml")
    .map((e) => join(e.parentPath, e.name));
}

describe("secret hygiene against a hostile server", () => {
  it("ran every command, and the hostile answers were given (the checks below are not vacuous)", () => {
    const codes = Object.fromEntries(outputs.map((o) => [o.command, o.result.code]));
    expect(codes).toMatchObject({
      validate: 0,
      "validate (schema error)": 1,
      whoami: 0,
      "plan text": 0,
      "plan json": 0,
      "plan markdown": 0,
      // The topic's rename went through before the workflow's update was refused: partial.
      "apply saved (refused)": 3,
      apply: 0,
      "apply again": 0,
      export: 0,
      "plan (HTML error page)": 1,
      "plan (not JSON)": 1,
      "plan (401 echo)": 1,
    });
    expect(proxy.answered.map((r) => `${r.method} ${r.path.split("?")[0]}`)).toEqual([
      `PUT /v1/workflows/${WORKFLOW_SHIPPED}`,
      "GET /v1/topics",
      "GET /v1/topics",
      "GET /v1/organizations/me",
    ]);
    // The refused update carried the interpolated values: the server really had them to echo.
    expect(JSON.parse(proxy.answered[0]?.body ?? "{}")).toMatchObject({
      description: PROMO,
      name: WORKFLOW_NAME,
    });
    // The plan showed the description change, old value masked; the errors were reported.
    expect(byName("plan text")?.stdout).toMatch(/description: "\*{8}" -> "\*{8}"/);
    expect(byName("apply saved (refused)")?.stderr).toContain("400");
    const invalid = byName("validate (schema error)");
    expect(`${invalid?.stdout}${invalid?.stderr}`).toContain("topics[0].key: ");
    expect(byName("plan (HTML error page)")?.stderr).toContain("Bad Request");
    expect(byName("plan (not JSON)")?.stderr).toContain("an HTML page, not the API's JSON");
    expect(byName("plan (401 echo)")?.stderr).toContain("API Key");
  });

  it("prints no secret, escaped form or 8-character piece of one, on stdout or stderr", () => {
    for (const { command, result } of outputs) {
      expectNoLeak(result.stdout, `stdout of ${command}`);
      expectNoLeak(result.stderr, `stderr of ${command}`);
    }
  });

  it("writes none to the plan file, the state file or the exported files", async () => {
    const files = await filesUnder(workspace.dir);
    expect(files.some((f) => f.endsWith("plan.json"))).toBe(true);
    expect(files.some((f) => f.endsWith("notiform.state.json"))).toBe(true);
    expect(files.filter((f) => f.includes("exported")).length).toBeGreaterThan(2);
    for (const file of files) expectNoLeak(await readFile(file, "utf8"), file);
  });

  it("exports interpolated values as their variable references and stored credentials as REDACTED, with a warning", async () => {
    const topics = await workspace.read("exported/topics.yaml");
    expect(topics).toContain(`\${TOPIC_NAME}`);
    expect(topics).toMatch(/name: pasted REDACTED here/);
    expect(topics).toMatch(/name: token=REDACTED/);
    const workflows = await workspace.read("exported/workflows.yaml");
    expect(workflows).toContain(`\${PROMO_DESC}`);
    expect(workflows).toContain(`\${WORKFLOW_NAME}`);
    const groups = await workspace.read("exported/notification-groups.yaml");
    expect(groups).toContain(`\${GROUP_NAME}`);
    // The key is made of the variable's name, not of the value it holds.
    expect(groups).toContain("key: group-name");
    // A template holding a value from the environment stays inline, where the reference works
    // (a template file is read verbatim): no layouts/brand.html is written.
    expect(await workspace.read("exported/layouts.yaml")).toContain(
      `content: <html><body><p>\${PROMO_DESC}</p>{{{body}}}</body></html>`,
    );
    expect(await filesUnder(join(workspace.dir, "exported"))).not.toContainEqual(
      expect.stringContaining("brand.html"),
    );
    const stderr = byName("export")?.stderr ?? "";
    expect(stderr).toMatch(
      /warning: topics\.yaml: topics\[\d+\]\.name held the API key \(NOTIFORM_API_KEY\)/,
    );
    expect(stderr).toMatch(/warning: topics\.yaml: topics\[\d+\]\.name held a partner access token/);
  });
});
