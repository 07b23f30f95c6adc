// Server text reaches people as text (issue 12 item 6): the emulator's organization, topic and
// workflow names and an error message hold carriage returns, escape sequences (clear screen,
// cursor moves, colours, a C1 CSI), bidi overrides and HTML. Plan (text, markdown, JSON), apply
// (its report in text and JSON) and whoami print none of them raw; text shows them escaped,
// markdown shows HTML and markup as text and values exactly, JSON stays valid and
// holds names exactly.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorHandle, loadSeedFile, startEmulator } from "../../src/emulator/index.js";
import { type CliResult, createWorkspace, runCli, WORKFLOW_SHIPPED, type Workspace } from "../support/cli.js";

const ORG = "Acme <img src=x onerror=alert(1)>\u001b[2J\u202e\nforged: line";
const TOPIC_CONTROLS = "Fine\rEVIL\u001b[2J\u001b[1;1H\u001b[31mRED\u009b2J\u202etxt.exe";
const TOPIC_HTML = "<script>alert(1)</script> **bold** [x](http://example.test)";
const OLD_NAME = "Old\u001b[Jname\r";
const NEW_NAME = "Ship `now` | fast";
const ERROR_MESSAGE = "refused\r\u001b[2K\u001b[1A forged line \u202e";

/** Any control character but the line break, DEL, C1, bidi controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const CONFIG = `version: 1
topics:
  - key: newsletter
    name: Newsletter
workflows:
  - key: order-shipped
    id: ${WORKFLOW_SHIPPED}
    name: "${NEW_NAME}"
`;

let emulator: EmulatorHandle;
let workspace: Workspace;
const results = new Map<string, CliResult>();

async function run(name: string, ...args: string[]): Promise<CliResult> {
  const result = await runCli([...args, "--api-url", emulator.url], {
    cwd: workspace.dir,
    env: { NOTIFORM_API_KEY: emulator.apiKey },
  });
  results.set(name, result);
  return result;
}

const stdout = (name: string) => results.get(name)?.stdout ?? "";

beforeAll(async () => {
  const seed = await loadSeedFile("examples/emulator-seed.yaml");
  seed.organization = { name: ORG };
  const development = seed.environments?.development;
  if (development === undefined) throw new Error("the example seed has no development environment");
  development.topics = [
    { key: "controls", name: TOPIC_CONTROLS },
    { key: "html", name: TOPIC_HTML },
  ];
  development.workflows = (development.workflows ?? []).map((w) =>
    w._id === WORKFLOW_SHIPPED ? { ...w, name: OLD_NAME } : w,
  );
  emulator = await startEmulator({ seed, port: 0 });
  workspace = await createWorkspace({
    "notiform.yaml": CONFIG,
    "guarded.yaml": "version: 1\norganization: Acme Inc\n",
  });
  await run("whoami", "whoami");
  await run("plan (other organization)", "plan", "--config", "guarded.yaml");
  await run("plan text", "plan");
  await run("plan verbose", "plan", "--verbose");
  await run("plan markdown", "plan", "--output", "markdown");
  await run("plan json", "plan", "--output", "json");
  emulator.injectFault({
    method: "PUT",
    path: `/v1/workflows/${WORKFLOW_SHIPPED}`,
    times: 1,
    kind: { status: 400, body: { statusCode: 400, message: ERROR_MESSAGE, error: "Bad Request" } },
  });
  await run("apply text", "apply", "--auto-approve");
  emulator.injectFault({
    method: "PUT",
    path: `/v1/workflows/${WORKFLOW_SHIPPED}`,
    times: 1,
    kind: { status: 400, body: { statusCode: 400, message: ERROR_MESSAGE, error: "Bad Request" } },
  });
  await run("apply json", "apply", "--auto-approve", "--output", "json");
}, 60_000);

afterAll(async () => {
  await emulator?.close();
});

describe("server text is shown as text", () => {
  it("ran every command against the hostile names (the checks below are not vacuous)", () => {
    expect(Object.fromEntries([...results].map(([name, r]) => [name, r.code]))).toEqual({
      whoami: 0,
      "plan (other organization)": 1,
      "plan text": 0,
      "plan verbose": 0,
      "plan markdown": 0,
      "plan json": 0,
      // The topic is created before the workflow's update is refused: partial.
      "apply text": 3,
      "apply json": 1,
    });
  });

  it("prints no control character, escape sequence or bidi override raw", () => {
    for (const [name, result] of results) {
      expect(RAW_CONTROL.test(result.stdout), `stdout of ${name}`).toBe(false);
      expect(RAW_CONTROL.test(result.stderr), `stderr of ${name}`).toBe(false);
    }
  });

  it("shows them escaped in text: names, unmanaged lists, the organization, the change, the error", () => {
    expect(stdout("whoami")).toContain("Acme <img src=x onerror=alert(1)>\\u001b[2J\\u202e\\nforged: line");
    expect(results.get("plan (other organization)")?.stderr).toContain(
      'reaches organization "Acme <img src=x onerror=alert(1)>\\u001b[2J\\u202e\\nforged: line"',
    );
    for (const [name, result] of results)
      expect(`${result.stdout}${result.stderr}`, name).not.toMatch(/^forged/m);
    const plan = stdout("plan text");
    expect(plan).toContain("(Fine\\rEVIL\\u001b[2J\\u001b[1;1H\\u001b[31mRED\\u009b2J\\u202etxt.exe)");
    expect(plan).toContain('name: "Old\\u001b[Jname\\r" -> "Ship `now` | fast"');
    expect(plan).toContain("Acme <img src=x onerror=alert(1)>\\u001b[2J\\u202e");
    expect(stdout("plan verbose")).toContain('"name": "Old\\u001b[Jname\\r"');
    const report = stdout("apply text");
    expect(report).toContain("refused\\r\\u001b[2K\\u001b[1A forged line \\u202e");
  });

  it("escapes HTML and markup in markdown and shows values exactly in code spans", () => {
    const markdown = stdout("plan markdown");
    expect(markdown).not.toMatch(/(?<!\\)<(img|script)/);
    const heading = markdown.split("\n").find((line) => line.startsWith("### "));
    expect(heading).toContain("\\<img src\\=x onerror\\=alert\\(1\\)\\>");
    // The backtick and the pipe are shown as they will be sent (the pipe escaped for the table).
    expect(markdown).toContain('``name: "Old\\u001b[Jname\\r" -> "Ship `now` \\| fast"``');
  });

  it("keeps JSON output valid, with server names exact", () => {
    const plan = JSON.parse(stdout("plan json")) as {
      target: { organization: string };
      unmanaged: { name: string }[];
    };
    expect(plan.target.organization).toBe(ORG);
    expect(plan.unmanaged.map((u) => u.name)).toContain(TOPIC_CONTROLS);
    const report = JSON.parse(stdout("apply json")) as { results: { error?: { message: string } }[] };
    // A server's error message is text for people: kept escaped, like everywhere else.
    expect(report.results.map((r) => r.error?.message).join()).toContain("refused\\r\\u001b[2K\\u001b[1A");
  });
});
