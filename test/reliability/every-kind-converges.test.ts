// Generative convergence over real HTTP, every kind at once. For a random *valid* config (topics,
// notification groups, layouts, tenants, workflows with steps of every type, overrides, branding;
// awkward but legal values: unicode and spaces in names, empty optional fields, long text, nested
// tenant and workflow data, templates inline and as `{ file: }`, `${VAR}` interpolation, `$${`
// escapes) on a fresh organization (real flavor, Development key):
//   1. `apply --auto-approve` succeeds;
//   2. `plan --detailed-exitcode` right after exits 0 (no changes);
//   3. a second random config applied over the first (a transition) also plans to zero;
//   4. `export` of the live state validates and plans to zero too.
// Seeded and bounded (a few runs, each on its own emulator), so it is repeatable and quick.
// Value spaces left out on purpose are marked "AVOID:" below, each with its reason (a documented
// refusal). The cases this test found (a no-break space ending a name, a layout un-marked as the
// default, an e-mail step moved from editor blocks to HTML, a description of 300 emoji, a
// layout's variables the server derives from its content) are generated and converge.
// The generators live in test/support/generated-config.ts (shared with promotion-converges).
import { mkdir } from "node:fs/promises";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { startCliTest, twoEnvironments } from "../support/cli.js";
import {
  configArb,
  explain,
  type Generated,
  over,
  VAR,
  VAR_VALUE,
  yamlOf as yamlWith,
} from "../support/generated-config.js";

const FRESH = twoEnvironments("Converge Inc");
const DEV = ["--env", "development"];

// ---------------------------------------------------------------------------------------------
// The property

function yamlOf(generated: Generated): string {
  return yamlWith(FRESH.header, generated);
}

/** One run: both configs applied in turn, each planned to zero, then the export; the first failure, or undefined. */
async function converges(first: Generated, second: Generated): Promise<string | undefined> {
  const test = await startCliTest({
    ...FRESH.options,
    env: (keys) => ({ NOTIFORM_API_KEY_DEVELOPMENT: keys.development, [VAR]: VAR_VALUE }),
  });
  const { workspace, run } = test;
  try {
    for (const [round, generated] of [first, over(first, second)].entries()) {
      const config = yamlOf(generated);
      await workspace.write("notiform.yaml", config);
      for (const [path, text] of Object.entries(generated.files)) await workspace.write(path, text);
      const applied = await run(["apply", ...DEV, "--auto-approve"]);
      if (applied.code !== 0) return explain(`round ${round + 1}: apply`, applied, config, generated.files);
      const plan = await run(["plan", ...DEV, "--detailed-exitcode"]);
      if (plan.code !== 0)
        return `${explain(`round ${round + 1}: plan after apply`, plan, config, generated.files)}\n--- the apply's output\n${applied.stdout}${applied.stderr}`;
    }
    // The live state as config: it validates and plans to zero.
    // Exported from a folder of its own (the config's folder holds environments, and export
    // without --env is for a repository that has none yet), with the Development key.
    const key = { NOTIFORM_API_KEY: test.env.NOTIFORM_API_KEY_DEVELOPMENT };
    const out = workspace.path("exported");
    await mkdir(out);
    const exported = await run(["export"], { env: key, cwd: out });
    if (exported.code !== 0) return explain("export", exported, yamlOf(second), second.files);
    const config = await workspace.read("exported/notiform.yaml");
    const validated = await run(["validate"], { url: null, env: key, cwd: out });
    if (validated.code !== 0) return explain("validate of the export", validated, config, {});
    const plan = await run(["plan", "--detailed-exitcode"], { env: key, cwd: out });
    if (plan.code !== 0) return explain("plan of the export", plan, config, {});
    return undefined;
  } finally {
    await test.close();
  }
}

describe("every kind converges over HTTP (generative, seeded)", () => {
  it("apply, then plan shows no changes; over a second config too; and export plans back to zero", async () => {
    await fc.assert(
      fc.asyncProperty(configArb, configArb, async (first, second) => {
        const failure = await converges(first, second);
        expect(failure).toBeUndefined();
      }),
      { seed: 20260511, numRuns: 10, endOnFailure: true },
    );
  }, 120_000);
});
