// `notiform show plan.json` (issue 26): a saved plan rendered offline with plan's own renderers,
// with no config, no key and no network; a file that is not a plan is refused, naming it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ACME_BASE,
  type CliTest,
  createWorkspace,
  runCli,
  startCliTest,
  type Workspace,
} from "../support/cli.js";

const CONFIG = ACME_BASE.replace("topics:\n", "topics:\n  - key: show-me\n    name: Show me\n");

let session: CliTest;
let planned: { text: string; json: string; markdown: string };
/** Only the saved plan: no config, no state file. */
let elsewhere: Workspace;

beforeAll(async () => {
  session = await startCliTest({ config: CONFIG });
  const saved = await session.cli("plan", "--out", "plan.json");
  expect(saved.code, saved.stderr).toBe(0);
  const json = await session.cli("plan", "--output", "json");
  const markdown = await session.cli("plan", "--output", "markdown", "--commit", "abc123");
  planned = { text: saved.stdout, json: json.stdout, markdown: markdown.stdout };
  elsewhere = await createWorkspace({ "plan.json": await session.workspace.read("plan.json") });
});
afterAll(() => session.close());

/** No NOTIFORM_API_KEY, no NOTIFORM_API_URL, no config beside it. */
const show = (...args: string[]) => runCli(["show", ...args], { cwd: elsewhere.dir });

describe("notiform show", () => {
  it("renders a saved plan as plan did, in each output, without a key or a single request", async () => {
    session.emulator.clearRequests();
    const text = await show("plan.json");
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe(planned.text);
    expect(text.stdout).toContain("+ topic show-me");
    const json = await show("plan.json", "--output", "json");
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(planned.json));
    const markdown = await show("plan.json", "-o", "markdown", "--commit", "abc123");
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(markdown.stdout).toBe(planned.markdown);
    expect(session.emulator.requests).toEqual([]);
  });

  it("exits 2 with --detailed-exitcode when the plan has changes", async () => {
    expect((await show("plan.json", "--detailed-exitcode")).code).toBe(2);
  });

  it.each([
    ["missing.json", undefined, "cannot read the plan"],
    ["truncated.json", '{"formatVersion": 2, "actions": [', "is not valid JSON"],
    [
      "state.json",
      '{"formatVersion": 1, "notificationGroups": {}, "workflows": {}}',
      "it looks like a state file",
    ],
    ["promotion.json", '{"formatVersion": 1, "entries": []}', "it looks like a promotion"],
    ["other.json", '{"hello": "world"}', "is not a notiform plan"],
    ["old.json", '{"formatVersion": 1, "actions": []}', "has format version 1"],
  ])("refuses %s, naming the file, exit 1", async (name, content, message) => {
    if (content !== undefined) await elsewhere.write(name, content);
    const result = await show(name, "--output", "text");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(name);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe("");
  });
});
