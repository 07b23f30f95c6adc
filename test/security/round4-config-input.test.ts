// Hostile input, round 4 (issue 35), items 12 and 13: config input that spells what is refused
// in another way. A `__proto__` key written with YAML escapes passed validate (the check read the
// source text, not the parsed key); `.` and `..` as identifiers were valid config and were sent
// as path segments (`GET /v1/tenants/..` resolves to another route).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { segment } from "../../src/api/request-checks.js";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { createWorkspace, runCli, WORKFLOW_SHIPPED } from "../support/cli.js";

let emulator: EmulatorHandle;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seedFile: "examples/emulator-seed.yaml" });
});
afterAll(async () => {
  await emulator.close();
});

async function refusedEverywhere(config: string, message: RegExp) {
  const workspace = await createWorkspace({ "notiform.yaml": config });
  const before = emulator.requests.length;
  const api = ["--api-url", emulator.url];
  for (const command of [["validate"], ["plan", ...api], ["apply", "--auto-approve", ...api]]) {
    const result = await runCli(command, { cwd: workspace.dir, env: { NOTIFORM_API_KEY: emulator.apiKey } });
    expect(result.code, `${command[0]}: ${result.stderr}`).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/internal error/);
  }
  // plan reads ahead (GETs) while the config loads: nothing is written, and no dot segment sent.
  const sent = emulator.requests.slice(before);
  expect(sent.filter((r) => r.method !== "GET")).toEqual([]);
  expect(sent.map((r) => r.path).filter((path) => /\/(\.|%2e){1,2}(\/|\?|$)/i.test(path))).toEqual([]);
}

describe("__proto__ spelled with YAML escapes (item 12)", () => {
  const workflow = (data: string) =>
    `version: 1\nworkflows:\n  - key: order-shipped\n    id: ${WORKFLOW_SHIPPED}\n    data:\n${data}`;
  it.each([
    [
      "\\x5f in a block mapping key",
      workflow('      plain: 1\n      "\\x5f_proto__":\n        evil: true\n'),
    ],
    ["\\u005f in a block mapping key", workflow('      "__proto\\u005f_":\n        evil: true\n')],
    [
      "\\x escapes in a flow mapping",
      workflow('      { plain: 1, "\\x5f\\x5fproto\\x5f\\x5f": { evil: true } }\n'),
    ],
    ["\\U escape", workflow('      "\\U0000005f_proto__": { evil: true }\n')],
  ])("is refused at validate, plan and apply (%s)", async (_name, config) => {
    await refusedEverywhere(config, /notiform\.yaml:\d+:\d+ +error +the key `__proto__` is not allowed/);
  });
});

describe("dot identifiers (item 13)", () => {
  it.each([
    ["a tenant identifier", (id: string) => `version: 1\ntenants:\n  - identifier: "${id}"\n    name: T\n`],
    ["a topic key", (id: string) => `version: 1\ntopics:\n  - key: "${id}"\n    name: T\n`],
    [
      "a layout identifier",
      (id: string) =>
        `version: 1\nlayouts:\n  - identifier: "${id}"\n    name: L\n    content: "<main>{{{body}}}</main>"\n`,
    ],
    [
      "a workflow identifier",
      (id: string) => `version: 1\nworkflows:\n  - identifier: "${id}"\n    name: W\n`,
    ],
    [
      "a workflow key",
      (id: string) => `version: 1\nworkflows:\n  - key: "${id}"\n    id: ${WORKFLOW_SHIPPED}\n`,
    ],
    [
      "an override's tenant",
      (id: string) =>
        `version: 1\nworkflows:\n  - key: w\n    id: ${WORKFLOW_SHIPPED}\noverrides:\n  - workflow: w\n    tenant: "${id}"\n    active: true\n`,
    ],
  ])("%s of . or .. is refused: nothing written, no dot segment sent", async (_name, config) => {
    for (const id of [".", ".."]) await refusedEverywhere(config(id), /"\." or "\.\."( alone)?\)?/);
  });
});

describe("every path segment is encoded, and dot segments refused (item 13)", () => {
  it("segment() encodes what it is given and refuses . and .. from any source", () => {
    expect(segment("tenant identifier", "a/b?c#d")).toBe("a%2Fb%3Fc%23d");
    expect(segment("topic key", "a.b")).toBe("a.b");
    for (const dots of [".", ".."])
      expect(() => segment("tenant identifier", dots)).toThrow(/must not be "\.\.?" \(a dot segment/);
  });
});
