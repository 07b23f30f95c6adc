// Resources keyed by a value from the environment (a topic key `${NF_TOPIC}`): a saved plan holds
// their ids masked (topic/********), as it holds everything; `apply plan.json` still applies it,
// each masked action matched to the config's resource it was made for, two alike in order.
// Found by the generative hunt (secrets-any-form.test.ts).
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliTests } from "../support/cli.js";

const cliTest = cliTests();

const CONFIG = `version: 1
organization: Acme Inc
topics:
  - key: \${NF_TOPIC_A}
    name: First \${NF_TOPIC_A}
  - key: \${NF_TOPIC_B}
    name: Second
  - key: plain
    name: Plain
`;

describe("a saved plan of resources keyed by values from the environment", () => {
  it("applies, and the next plan is empty", async () => {
    const { workspace, cli, call } = await cliTest({
      config: CONFIG,
      env: (keys) => ({
        NOTIFORM_API_KEY: keys.development,
        NF_TOPIC_A: "zeta+key/Secret-1",
        NF_TOPIC_B: "alpha@key:Secret-2",
      }),
    });
    const plan = await cli("plan", "--out", "plan.json");
    expect(plan.code, plan.stderr).toBe(0);
    const saved = readFileSync(join(workspace.dir, "plan.json"), "utf8");
    expect(saved).toContain('"topic/********"');
    expect(saved).not.toContain("Secret-");
    const applied = await cli("apply", "plan.json");
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout + applied.stderr).not.toContain("Secret-");
    const topic = async (key: string) => (await call("GET", `/v1/topics/${encodeURIComponent(key)}`)).data;
    expect((await topic("zeta+key/Secret-1")).name).toBe("First zeta+key/Secret-1");
    expect((await topic("alpha@key:Secret-2")).name).toBe("Second");
    const again = await cli("plan", "--detailed-exitcode");
    expect(again.code, again.stdout).toBe(0);
  });
});

const BOUND = `version: 1
organization: Acme Inc
notificationGroups:
  - key: \${NF_GROUP}
    name: Grouped
tenants:
  - identifier: \${NF_TENANT}
    name: Tenant
workflows:
  - key: flow
    identifier: \${NF_FLOW}
    name: Flow
    notificationGroup: \${NF_GROUP}
overrides:
  - workflow: flow
    tenant: \${NF_TENANT}
    active: true
`;

describe("a saved plan binding resources keyed by values from the environment", () => {
  it("holds their keys masked, and applies", async () => {
    const { workspace, cli } = await cliTest({
      config: BOUND,
      env: (keys) => ({
        NOTIFORM_API_KEY: keys.development,
        NF_GROUP: "group-Secret-1",
        NF_TENANT: "tenant-Secret-2",
        NF_FLOW: "flow-Secret-3",
      }),
    });
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    // Without the state file the group is bound by its name, the tenant and workflow by identifier.
    rmSync(join(workspace.dir, "notiform.state.json"));
    await workspace.write("notiform.yaml", BOUND.replace("active: true", "active: false"));
    const plan = await cli("plan", "--out", "plan.json");
    expect(plan.code, plan.stderr).toBe(0);
    const saved = readFileSync(join(workspace.dir, "plan.json"), "utf8");
    expect(JSON.parse(saved).bindings.notificationGroups).toEqual({ "********": expect.any(String) });
    expect(saved).not.toContain("Secret-");
    const applied = await cli("apply", "plan.json");
    expect(applied.code, applied.stderr).toBe(0);
    const again = await cli("plan", "--detailed-exitcode");
    expect(again.code, again.stdout).toBe(0);
  });
});
