// Hostile input, round 4 (issue 35), item 8: the config's nesting limit holds for what the
// server sends and what saved files hold too. A tenant `data` 5,000 levels deep from the server
// and a plan 10,000 levels deep were internal errors (stack overflow); now each is a clear error.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { MAX_DOCUMENT_NESTING, nestsDeeperThan } from "../../src/nesting.js";
import { createWorkspace, runCli } from "../support/cli.js";
import { type HostileProxy, startHostileProxy } from "./hostile-proxy.js";

let emulator: EmulatorHandle;
let proxy: HostileProxy;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seedFile: "examples/emulator-seed.yaml" });
  proxy = await startHostileProxy(emulator.url);
});
afterAll(async () => {
  await proxy.close();
  await emulator.close();
});

/** `{"a":{"a":...}}` `levels` deep, built as text (a recursive stringify would overflow). */
function deepJson(levels: number, leaf = "1"): string {
  return `${'{"a":'.repeat(levels)}${leaf}${"}".repeat(levels)}`;
}

describe("server replies nest at most as deep as a config may (item 8)", () => {
  it("a tenant whose data is 5,000 levels deep: plan fails clearly, naming the endpoint", async () => {
    proxy.rules.push({
      method: "GET",
      path: "/v1/tenants",
      reply: () => ({
        status: 200,
        contentType: "application/json",
        body: `{"data":{"_id":"650000000000000000000009","identifier":"deep","name":"Deep","data":${deepJson(5000)}}}`,
      }),
    });
    try {
      const workspace = await createWorkspace({
        "notiform.yaml": "version: 1\ntenants:\n  - identifier: deep\n    name: Deep\n",
      });
      const result = await runCli(["plan", "--api-url", proxy.url], {
        cwd: workspace.dir,
        env: { NOTIFORM_API_KEY: emulator.apiKey },
      });
      expect(result.code).toBe(1);
      expect(result.stderr).not.toMatch(/internal error|Maximum call stack/);
      expect(result.stderr).toMatch(/GET \/v1\/tenants.*nests more than 80 levels deep/s);
    } finally {
      proxy.rules.length = 0;
    }
  });
});

describe("saved files nest at most as deep as a config may (item 8)", () => {
  it("show and apply of a plan 10,000 levels deep: PLAN_INVALID, not a stack overflow", async () => {
    const workspace = await createWorkspace({
      "notiform.yaml": "version: 1\ntopics: []\n",
      "plan.json": `{"formatVersion":1,"configDigest":"","actions":[${deepJson(10_000)}]}`,
    });
    for (const command of [
      ["show", "plan.json"],
      ["apply", "plan.json", "--api-url", emulator.url],
    ]) {
      const result = await runCli(command, {
        cwd: workspace.dir,
        env: { NOTIFORM_API_KEY: emulator.apiKey },
      });
      expect(result.code, command[0]).toBe(1);
      expect(result.stderr).not.toMatch(/internal error|Maximum call stack/);
      expect(result.stderr).toContain("plan.json nests values more than 80 levels deep");
    }
  });

  it("a state file 10,000 levels deep: STATE_INVALID", async () => {
    const workspace = await createWorkspace({
      "notiform.yaml": "version: 1\ntopics: []\n",
      "notiform.state.json": `{"formatVersion":1,"x":${deepJson(10_000)}}`,
    });
    const result = await runCli(["plan", "--api-url", emulator.url], {
      cwd: workspace.dir,
      env: { NOTIFORM_API_KEY: emulator.apiKey },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(/internal error|Maximum call stack/);
    expect(result.stderr).toContain("notiform.state.json nests values more than 80 levels deep");
  });

  it("the limit: a config's deepest value fits with the document around it", () => {
    expect(MAX_DOCUMENT_NESTING).toBe(80);
    expect(nestsDeeperThan(JSON.parse(deepJson(79)))).toBe(false);
    expect(nestsDeeperThan(JSON.parse(deepJson(81)))).toBe(true);
    expect(nestsDeeperThan(JSON.parse(deepJson(200_000)))).toBe(true);
  });
});
