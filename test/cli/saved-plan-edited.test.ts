// A saved plan is applied as written or not at all: an edited plan.json is refused with nothing
// written, whether the edit keeps an action's operations and requests in step (the action no
// longer matches a fresh plan of the same config and server: PLAN_STALE) or changes the requests
// alone (they are no longer what the operations send: PLAN_INVALID). The reviewer saw the
// requests; apply performs the operations; both must be what planning produces now.
import { describe, expect, it } from "vitest";
import { ACME_BASE, cliTests } from "../support/cli.js";

const cliTest = cliTests();

const RENAMED = ACME_BASE.replace("name: Newsletter", "name: Weekly newsletter");

interface SavedAction {
  id: string;
  operations: { type: string; name?: string }[];
  requests: { body?: Record<string, unknown> }[];
}

/** The server holds ACME_BASE; plan.json renames the newsletter topic; `edit` then changes the file. */
async function editedPlan(edit: (action: SavedAction) => void) {
  const test = await cliTest({ config: ACME_BASE });
  expect((await test.cli("apply", "--auto-approve")).code).toBe(0);
  await test.workspace.write("notiform.yaml", RENAMED);
  expect((await test.cli("plan", "--out", "plan.json")).code).toBe(0);
  const plan = JSON.parse(await test.workspace.read("plan.json")) as { actions: SavedAction[] };
  const action = plan.actions.find((a) => a.id === "topic/newsletter");
  if (action === undefined) throw new Error("the plan renames no topic");
  expect(action.operations).toMatchObject([{ type: "topic.rename", name: "Weekly newsletter" }]);
  expect(action.requests[0]?.body).toEqual({ name: "Weekly newsletter" });
  edit(action);
  await test.workspace.write("plan.json", JSON.stringify(plan));
  test.emulator.clearRequests();
  const applied = await test.json(["apply", "plan.json"]);
  const writes = test.emulator.requests.filter((r) => r.method !== "GET");
  const topic = test.emulator.store().topics.find((t) => t.key === "newsletter");
  return { applied, writes, name: topic?.name };
}

describe("an edited saved plan", () => {
  it("whose action's operations and requests were edited alike is refused as stale, nothing written", async () => {
    const { applied, writes, name } = await editedPlan((action) => {
      for (const op of action.operations) op.name = "Chosen by hand";
      for (const request of action.requests) request.body = { name: "Chosen by hand" };
    });
    expect(applied.code).toBe(1);
    expect(applied.value.error.code).toBe("PLAN_STALE");
    expect(applied.value.error.message).toContain("topic/newsletter (plans differently now)");
    expect(writes).toEqual([]);
    expect(name).toBe("Newsletter");
  });

  it("whose requests alone were edited is refused as edited, nothing written", async () => {
    const { applied, writes, name } = await editedPlan((action) => {
      for (const request of action.requests) request.body = { name: "Chosen by hand" };
    });
    expect(applied.code).toBe(1);
    expect(applied.value.error.code).toBe("PLAN_INVALID");
    expect(applied.value.error.message).toContain(
      "the requests of topic/newsletter are not the ones its operations send",
    );
    expect(writes).toEqual([]);
    expect(name).toBe("Newsletter");
  });
});
