// With --output json, a failing command prints exactly one JSON error object on stdout
// (schemas/error.schema.json), with the same exit code as without, and no secret in it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { ACME_BASE, type CliResult, cliTests, createWorkspace, runCli } from "../support/cli.js";

const validate = new Ajv2020({ allErrors: true, strict: false }).compile(
  JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "schemas", "error.schema.json"), "utf8")),
);

const cliTest = cliTests();

/** The one JSON object on stdout, checked against the schema. */
function errorOf(result: CliResult) {
  const report = JSON.parse(result.stdout);
  expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
  return report.error as {
    code: string;
    message: string;
    hint?: string;
    location?: { file: string; line: number };
    problems?: { rule: string; location: { file: string; line: number } }[];
  };
}

describe("--output json on failure", () => {
  it("a missing config: CONFIG_NOT_FOUND on stdout, exit 1 as in text mode", async () => {
    const workspace = await createWorkspace();
    const json = await runCli(["plan", "--output", "json"], { cwd: workspace.dir });
    expect(json.code).toBe(1);
    expect(errorOf(json).code).toBe("CONFIG_NOT_FOUND");
    const text = await runCli(["plan"], { cwd: workspace.dir });
    expect(text.code).toBe(1);
    expect(text.stdout).toBe("");
    expect(text.stderr).toContain("notiform.yaml");
  });

  it("an invalid config: CONFIG_INVALID with every problem and its file and line", async () => {
    const workspace = await createWorkspace({
      "notiform.yaml": "version: 1\norganization: Acme Inc\ntopics:\n  - key: a\n  - name: no key\n",
    });
    const result = await runCli(["apply", "-o", "json", "--auto-approve"], { cwd: workspace.dir });
    expect(result.code).toBe(1);
    const error = errorOf(result);
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.problems?.length).toBeGreaterThanOrEqual(2);
    expect(error.problems?.every((p) => p.location.file.endsWith("notiform.yaml"))).toBe(true);
  });

  it("validate on an invalid config: its own result and the error object, in one document", async () => {
    const workspace = await createWorkspace({
      "notiform.yaml": "version: 1\norganization: Acme Inc\ntopics:\n  - key: bad key\n    name: A\n",
    });
    const result = await runCli(["validate", "-o", "json"], { cwd: workspace.dir });
    expect(result.code).toBe(1);
    const error = errorOf(result);
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.problems?.[0]?.location.line).toBe(4);
    expect(JSON.parse(result.stdout).valid).toBe(false);
  });

  it("the wrong organization: ORG_MISMATCH, with the interpolated guard masked", async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a config interpolation, not a template.
    const guard = "organization: ${ORG}";
    const session = await cliTest({ config: ACME_BASE.replace("organization: Acme Inc", guard) });
    const result = await session.run(["plan", "--output=json"], { env: { ORG: "Secret Holding Ltd" } });
    expect(result.code).toBe(1);
    const error = errorOf(result);
    expect(error.code).toBe("ORG_MISMATCH");
    expect(error.message).toContain("Acme Inc");
    expect(result.stdout + result.stderr).not.toContain("Secret Holding");
    expect(result.stdout + result.stderr).not.toContain(session.emulator.apiKey);
  });

  it("a stale saved plan: PLAN_STALE naming what moved", async () => {
    const session = await cliTest({ config: ACME_BASE });
    const { cli, workspace } = session;
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    await workspace.write("notiform.yaml", ACME_BASE.replace("name: Newsletter", "name: Weekly"));
    expect((await cli("plan", "--out", "plan.json")).code).toBe(0);
    const patched = await fetch(`${session.emulator.url}/v1/topics/newsletter`, {
      method: "PATCH",
      headers: { authorization: `ApiKey ${session.emulator.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Changed meanwhile" }),
    });
    expect(patched.status).toBe(200);
    const result = await cli("apply", "plan.json", "-o", "json");
    expect(result.code).toBe(1);
    const error = errorOf(result);
    expect(error.code).toBe("PLAN_STALE");
    expect(error.message).toContain("topic/newsletter");
  });

  it("a usage mistake: USAGE with the nearest flag as the hint", async () => {
    const workspace = await createWorkspace();
    const result = await runCli(["plan", "-o", "json", "--detaild-exitcode"], { cwd: workspace.dir });
    expect(result.code).toBe(1);
    const error = errorOf(result);
    expect(error.code).toBe("USAGE");
    expect(error.hint).toContain("--detailed-exitcode");
  });

  it("a missing key names the variable and never prints a value", async () => {
    const workspace = await createWorkspace({ "notiform.yaml": ACME_BASE });
    const result = await runCli(["whoami", "-o", "json", "--api-url", "http://127.0.0.1:9"], {
      cwd: workspace.dir,
    });
    expect(result.code).toBe(1);
    const error = errorOf(result);
    expect(error.code).toBe("API_KEY_MISSING");
    expect(error.message).toContain("NOTIFORM_API_KEY is not set");
  });
});
