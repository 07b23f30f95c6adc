// Resources whose key is also a value from the environment used elsewhere (a topic keyed
// `orders-eu` beside `name: ${REGION}`; a key itself cannot come from the environment): a saved
// plan holds their ids masked (topic/********), as it masks that value everywhere; `apply
// plan.json` still applies it, each masked action matched to the config's resource it was made
// for, two alike in order. Found by the generative hunt (secrets-any-form.test.ts).
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliTests } from "../support/cli.js";

const cliTest = cliTests();

const CONFIG = `version: 1
organization: Acme Inc
topics:
  - key: zeta+key/Secret-1
    name: First \${NF_TOPIC_A}
  - key: alpha@key:Secret-2
    name: Second \${NF_TOPIC_B}
  - key: plain
    name: Plain
`;

describe("a saved plan of resources keyed by values from the environment elsewhere", () => {
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
    expect((await topic("alpha@key:Secret-2")).name).toBe("Second alpha@key:Secret-2");
    const again = await cli("plan", "--detailed-exitcode");
    expect(again.code, again.stdout).toBe(0);
  });
});

const BOUND = `version: 1
organization: Acme Inc
notificationGroups:
  - key: group-Secret-1
    name: Grouped \${NF_GROUP}
tenants:
  - identifier: tenant-Secret-2
    name: Tenant \${NF_TENANT}
workflows:
  - key: flow
    identifier: flow-Secret-3
    name: Flow \${NF_FLOW}
    notificationGroup: group-Secret-1
overrides:
  - workflow: flow
    tenant: tenant-Secret-2
    active: true
`;

describe("a saved plan binding resources keyed by values from the environment elsewhere", () => {
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
