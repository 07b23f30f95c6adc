// What the state file and a saved plan keep of values that came from the environment: keyed
// digests only (HMAC under a key derived from the API key), never the value and never an
// unkeyed hash — and plans still converge, on a server that can read workflows and on one that
// cannot (where the state file is all notiform knows).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keyedDigest } from "../../src/secrets/keyed-digest.js";
import { cliTests, WORKFLOW_SHIPPED } from "../support/cli.js";

const cliTest = cliTests();

const TOKEN = "tok-5188-secret";
const SUFFIX = "sfx-7731";
const CONFIG = `version: 1
organization: Acme Inc
notificationGroups:
  - key: billing
    name: Billing \${GROUP_SUFFIX}
workflows:
  - key: order-shipped
    id: ${WORKFLOW_SHIPPED}
    description: "webhook token \${WEBHOOK_TOKEN}"
    data: { token: "\${WEBHOOK_TOKEN}", plain: 1 }
    notificationGroup: billing
`;

describe.each([false, true])("interpolated values (strict spec: %s)", (strictSpec) => {
  it("are kept in the state file and plan only as keyed digests, and the plan converges", async () => {
    const { workspace, run } = await cliTest({
      config: CONFIG,
      strictSpec,
      env: (keys) => ({ NOTIFORM_API_KEY: keys.development, WEBHOOK_TOKEN: TOKEN, GROUP_SUFFIX: SUFFIX }),
    });
    const cli = (...args: string[]) => run(args);

    expect((await cli("plan", "--out", "plan.json")).code).toBe(0);
    const applied = await cli("apply", "plan.json");
    expect(applied.code, applied.stderr).toBe(0);
    const again = await cli("plan", "--detailed-exitcode");
    expect(again.code, again.stdout).toBe(0);

    const state = readFileSync(join(workspace.dir, "notiform.state.json"), "utf8");
    const plan = readFileSync(join(workspace.dir, "plan.json"), "utf8");
    for (const text of [state, plan]) {
      for (const secret of [TOKEN, SUFFIX]) {
        expect(text).not.toContain(secret);
        // ... and no unkeyed hash a guess could be tested against.
        expect(text).not.toContain(createHash("sha256").update(secret).digest("hex"));
      }
    }
    const parsed = JSON.parse(state);
    expect(parsed.notificationGroups.billing.name).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    if (strictSpec) {
      const values = parsed.workflows[WORKFLOW_SHIPPED].values;
      expect(values.description).toMatch(/^hmac-sha256:/);
      expect(values.data).toMatch(/^hmac-sha256:/);
    }
    const saved = JSON.parse(plan);
    expect(saved.configDigest).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    for (const action of saved.actions) expect(action.live.digest).toMatch(/^hmac-sha256:/);

    // A changed variable is a change, found through the digest alone.
    const changed = await run(["plan", "--detailed-exitcode"], { env: { WEBHOOK_TOKEN: "tok-9999-other" } });
    expect(changed.code).toBe(2);
    expect(changed.stdout).toContain("description");
    expect(changed.stdout).not.toContain("tok-9999-other");
  });
});

describe("keyedDigest", () => {
  it("depends on the key: a digest says nothing without the key that made it", () => {
    expect(keyedDigest("key-one")("123456")).not.toBe(keyedDigest("key-two")("123456"));
    expect(keyedDigest("key-one")("123456")).toBe(keyedDigest("key-one")("123456"));
    expect(keyedDigest("key-one")("123456")).not.toContain(
      createHash("sha256").update("123456").digest("hex"),
    );
  });
});
