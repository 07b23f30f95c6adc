// Input files are bounded: aliases may add at most a million values to a document (one
// 100,000-item list aliased 999 times used to validate after 42 s and 1.4 GB), and config files,
// emulator seeds and saved plans must be regular files of at most 20 MB (`--config /dev/zero`
// used to grow to 6.8 GB; a FIFO would block). Each refusal is an error at file:1:1 (or at the
// alias), exit 1, no stack trace.
import { execFileSync } from "node:child_process";
import { open } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { loadSeedFile } from "../../src/emulator/index.js";
import { ConfigError } from "../../src/errors.js";
import { loadConfig } from "../../src/loader/index.js";
import { createWorkspace, runCli } from "../support/cli.js";

/** One 100,000-item list, anchored once and aliased 999 times (about 215 KB). */
function aliasFlood(header: string): string {
  const items = Array.from({ length: 100_000 }, () => "x").join(", ");
  const aliases = Array.from({ length: 999 }, () => "*big").join(", ");
  return `${header}big: &big [${items}]\nmany: [${aliases}]\n`;
}

async function problemsOf(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).problems.map((p) => `${p.pos.file}:${p.pos.line}:${p.pos.col}  ${p.message}`);
}

/** A sparse file just over 20 MB: its size is real, its disk use is not. */
async function oversized(path: string): Promise<void> {
  const handle = await open(path, "w");
  await handle.truncate(20 * 1024 * 1024 + 1);
  await handle.close();
}

describe("alias expansion", () => {
  it("refuses a config whose aliases expand past a million values, at the alias that passes it", async () => {
    const ws = await createWorkspace({ "notiform.yaml": aliasFlood("version: 1\n") });
    const problems = await problemsOf(loadConfig({ cwd: ws.dir, vars: {} }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^notiform\.yaml:3:\d+ {2}YAML: the aliases in this file expand into more than 1000000 values; refusing to load it$/,
    );
  });

  it("still reads ordinary anchors and aliases", async () => {
    const ws = await createWorkspace({
      "notiform.yaml":
        "version: 1\ntopics:\n  - { key: a, name: &n Shared name }\n  - { key: b, name: *n }\n",
    });
    const { desired } = await loadConfig({ cwd: ws.dir, vars: {} });
    expect(desired.resources.topic.map((t) => t.spec.name)).toEqual(["Shared name", "Shared name"]);
  });

  it("refuses an emulator seed whose aliases expand past a million values", async () => {
    const ws = await createWorkspace({ "seed.yaml": aliasFlood("") });
    await expect(loadSeedFile(ws.path("seed.yaml"))).rejects.toMatchObject({
      code: "USAGE",
      message: expect.stringMatching(/aliases expand into more than 1000000 values/),
      pos: { file: ws.path("seed.yaml"), line: 2 },
    });
  });
});

describe("only regular files of at most 20 MB", () => {
  it("validate --config /dev/zero is a config error at file:1:1", async () => {
    const ws = await createWorkspace();
    const result = await runCli(["validate", "--config", "/dev/zero"], { cwd: ws.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/dev\/zero:1:1 +error +\S*dev\/zero is not a regular file/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("a FIFO given as the config is refused without waiting for a writer", async () => {
    const ws = await createWorkspace();
    execFileSync("mkfifo", [ws.path("pipe.yaml")]);
    const result = await runCli(["validate", "--config", "pipe.yaml"], { cwd: ws.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/pipe\.yaml:1:1 +error +pipe\.yaml is not a regular file/);
  });

  it("a config file over 20 MB is refused unread", async () => {
    const ws = await createWorkspace({ "notiform.yaml": "version: 1\ninclude: big.yaml\n" });
    await oversized(ws.path("big.yaml"));
    const problems = await problemsOf(loadConfig({ cwd: ws.dir, vars: {} }));
    expect(problems).toEqual([
      "big.yaml:1:1  big.yaml is larger than 20 MB, the most notiform reads from one file",
    ]);
  });

  it("apply refuses a saved plan that is a device or over 20 MB", async () => {
    const ws = await createWorkspace({ "notiform.yaml": "version: 1\n" });
    await oversized(ws.path("plan.json"));
    const env = { NOTIFORM_API_KEY: "nf_unused_key_0123456789" };
    for (const [file, reason] of [
      ["/dev/zero", "is not a regular file"],
      ["plan.json", "is larger than 20 MB"],
    ] as const) {
      const result = await runCli(["apply", file, "--api-url", "http://127.0.0.1:9"], { cwd: ws.dir, env });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(`${file.replace(".", "\\.")}:1:1 +cannot read the plan .*${reason}`),
      );
    }
  });

  it("the emulator refuses --seed /dev/zero and a seed over 20 MB", async () => {
    const ws = await createWorkspace();
    await oversized(ws.path("seed.yaml"));
    for (const [file, reason] of [
      ["/dev/zero", "is not a regular file"],
      ["seed.yaml", "is larger than 20 MB"],
    ] as const) {
      const result = await runCli(["emulator", "--port", "0", "--seed", file], { cwd: ws.dir });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(`the emulator seed \\S*${file.replace(".", "\\.")} cannot be read: it ${reason}`),
      );
    }
  });
});
