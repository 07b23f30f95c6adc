// `notiform emulator` as users run it (the built binary): it names the organization and the seed
// file but never a key, serves until SIGTERM, saves --data on the way out and exits 0; a broken
// seed is a one-line error naming the file.
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";

describe("notiform emulator", () => {
  it("serves until SIGTERM, saves the data file, exits 0 and never prints a key or token", async () => {
    const dir = await mkdtemp(join(tmpdir(), "notiform-emulator-cli-"));
    const dataFile = join(dir, "state.json");
    let created = 0;
    const result = await runCli(
      [
        "emulator",
        "--port",
        "0",
        "--seed",
        "examples/emulator-seed.yaml",
        "--data",
        dataFile,
        "--rate-limit",
        "50",
      ],
      {
        cwd: process.cwd(),
        onSpawn: (child) => {
          let seen = "";
          child.stderr?.on("data", async (chunk: Buffer) => {
            seen += chunk.toString();
            const url = /listening on (http:\/\/\S+)/.exec(seen)?.[1];
            if (url === undefined || created !== 0) return;
            created = -1;
            const response = await fetch(`${url}/v1/topics`, {
              method: "POST",
              headers: { authorization: "ApiKey nf_dev_demo_key", "content-type": "application/json" },
              body: JSON.stringify({ key: "from-cli-test", name: "From the CLI test" }),
            });
            created = response.status;
            child.kill("SIGTERM");
          });
        },
      },
    );
    expect(created).toBe(201);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /^notiform emulator listening on http:\/\/127\.0\.0\.1:\d+ \(organization Acme Inc; keys from examples\/emulator-seed\.yaml\)\n/,
    );
    for (const secret of ["nf_dev_demo_key", "nf_prod_demo_key", "pat_demo_secret_do_not_print"])
      expect(result.stderr + result.stdout).not.toContain(secret);
    const saved = await readFile(dataFile, "utf8");
    expect(saved).toContain("from-cli-test");
    expect(saved).not.toContain("nf_dev_demo_key");
  });

  it("refuses a broken seed with a message naming the file and the field", async () => {
    const dir = await mkdtemp(join(tmpdir(), "notiform-emulator-cli-"));
    await writeFile(join(dir, "seed.yaml"), "apiKeys:\n  - { key: nf_key_1, environment: staging }\n");
    const result = await runCli(["emulator", "--port", "0", "--seed", "seed.yaml"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("the emulator seed");
    expect(result.stderr).toContain("seed.yaml is not valid");
    expect(result.stderr).toContain("apiKeys[0].environment");
    expect(result.stderr).not.toContain("nf_key_1");
  });

  it("documents the seed format and points to the docs in --help", async () => {
    const result = await runCli(["emulator", "--help"], { cwd: process.cwd() });
    expect(result.code).toBe(0);
    for (const text of [
      "--seed",
      "--data",
      "--fault-seed",
      "--flavor",
      "apiKeys",
      "environments",
      "docs/emulator.md",
    ])
      expect(result.stdout).toContain(text);
  });
});
