// The transport imports undici's pool, proxy agent and connect API from the files that define
// them (src/api/undici-pool.ts, undici-proxy.ts), to load a third of undici at start-up. Those
// are not undici's documented entry points: if an undici update moves them, this fails here
// rather than in a user's run.

import * as undici from "undici";
import { describe, expect, it } from "vitest";
import { BASELINE_WASM_FLAG, Pool } from "../../src/api/undici-pool.js";

describe("undici's parts, imported directly", () => {
  it("are the classes and functions undici's index exports", async () => {
    expect(Pool).toBe(undici.Pool);
    const proxyAgent = (await import("undici/lib/dispatcher/proxy-agent.js")).default;
    expect(proxyAgent).toBe(undici.ProxyAgent);
    // The connect API (the proxy's CONNECT): what undici's index puts on every dispatcher.
    expect((await import("undici/lib/api/api-connect.js")).default).toBe(undici.Dispatcher.prototype.connect);
  });
});

describe("the WebAssembly flag the transport sets", () => {
  it("is one this Node's V8 knows (an unknown flag would print an error on every run)", async () => {
    const { spawnSync } = await import("node:child_process");
    const run = spawnSync(
      process.execPath,
      ["-e", `require("node:v8").setFlagsFromString(${JSON.stringify(BASELINE_WASM_FLAG)})`],
      { encoding: "utf8" },
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});
