// Promotion over HTTP: which writes record a pending change (Production's workflow writes too,
// listed to a Production key only), one pending change per entity rewritten by later writes, listing and
// counting, applying one change or several, unknown ids, and the Production copy created by the
// first promotion and updated by the next.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Call, start, stop, W1 } from "./harness.js";

interface ChangeView {
  _id: string;
  type: string;
  _entityId: string;
  enabled: boolean;
  templateName: string;
  change: { op: string; path: string[]; val?: unknown }[];
}

/** The listed changes, without the fresh organization's DefaultLayout one (its own test below). */
async function pending(call: Call, promoted = false): Promise<ChangeView[]> {
  const listed: ChangeView[] = (await call("GET", `/v1/changes?promoted=${promoted}&page=0&limit=100`)).body
    .data;
  return listed.filter((c) => c.type !== "DefaultLayout");
}

async function createGroupAndWorkflow(call: Call) {
  const group = (await call("POST", "/v1/notification-groups", { name: "Billing" })).body.data;
  const workflow = (
    await call("POST", "/v1/workflows", {
      name: "Invoice ready",
      notificationGroupId: group._id,
      active: true,
      tags: ["billing"],
      steps: [{ name: "Email", template: { type: "email", subject: "Invoice", content: "Hi" } }],
    })
  ).body.data;
  return { group, workflow };
}

describe("recording changes", () => {
  it("a fresh organization has one pending DefaultLayout change; Production has no layout until it is promoted", async () => {
    const { call, handle } = await start({ flavor: "real" });
    const listed = (await call("GET", "/v1/changes?promoted=false")).body;
    const layout = handle.store().layouts?.[0];
    expect(layout).toMatchObject({ identifier: "novu-default-layout", isDefault: true });
    expect(listed.data.map((c: ChangeView) => [c.type, c._entityId, c.templateName])).toEqual([
      ["DefaultLayout", layout?._id, "Default Layout"],
    ]);
    const prodKey = handle.productionApiKey;
    expect((await call("GET", "/v1/layouts", undefined, prodKey)).body.totalCount).toBe(0);
    // A workflow promoted before it points at no layout in Production (r3-q2-03).
    const { workflow } = await createGroupAndWorkflow(call);
    expect(workflow.steps[0].template._layoutId).toBe(layout?._id);
    const change = (await pending(call)).find((c) => c._entityId === workflow._id);
    await call("POST", `/v1/changes/${change?._id}/apply`);
    const copy = handle.store("production").workflows.find((w) => w._parentId === workflow._id);
    expect(copy?.steps[0]?.template?._layoutId).toBeNull();
    // Promoted, it is Production's default layout, a copy of Development's.
    await call("POST", `/v1/changes/${listed.data[0]._id}/apply`);
    const copies = (await call("GET", "/v1/layouts", undefined, prodKey)).body.data;
    expect(copies).toMatchObject([
      { identifier: "novu-default-layout", isDefault: true, _parentId: layout?._id },
    ]);
  });

  it("bulk apply promotes in the order the changes were made: a workflow finds its layout promoted", async () => {
    const { call, handle } = await start({ flavor: "real" });
    const { workflow } = await createGroupAndWorkflow(call);
    const all = (await call("GET", "/v1/changes?promoted=false")).body.data as ChangeView[];
    // Newest first, as listed: the workflow's change before the DefaultLayout one.
    expect(all.map((c) => c.type)).toEqual(["NotificationTemplate", "NotificationGroup", "DefaultLayout"]);
    await call("POST", "/v1/changes/bulk/apply", { changeIds: all.map((c) => c._id) });
    const copy = handle.store("production").workflows.find((w) => w._parentId === workflow._id);
    const layout = handle.store("production").layouts?.[0];
    expect(copy?.steps[0]?.template?._layoutId).toBe(layout?._id);
  });

  it("records group create and workflow create with a MessageTemplate child per step", async () => {
    const { call } = await start();
    const { group, workflow } = await createGroupAndWorkflow(call);
    const changes = await pending(call);
    // Newest first; children are not listed on their own.
    expect(changes.map((c) => [c.type, c._entityId, c.templateName])).toEqual([
      ["NotificationTemplate", workflow._id, "Invoice ready"],
      ["NotificationGroup", group._id, "Billing"],
    ]);
    expect(changes[0]?.change).toContainEqual({ op: "add", path: ["name"], val: "Invoice ready" });
    expect(changes.every((c) => c.enabled === false)).toBe(true);
    // With the fresh organization's DefaultLayout change.
    expect((await call("GET", "/v1/changes/count")).body).toEqual({ data: 3 });
  });

  it("keeps one pending change per entity: a later write rewrites its diff and keeps its id", async () => {
    const { call } = await start();
    await call("PUT", `/v1/workflows/${W1}`, { name: "Renamed once" });
    const [first] = await pending(call);
    await call("PUT", `/v1/workflows/${W1}`, { name: "Renamed twice" });
    await call("PUT", `/v1/workflows/${W1}/status`, { active: false });
    const changes = await pending(call);
    expect(changes).toHaveLength(1);
    expect(changes[0]?._id).toBe(first?._id);
    expect(changes[0]?.change).toContainEqual({ op: "add", path: ["name"], val: "Renamed twice" });
    expect(changes[0]?.change).toContainEqual({ op: "add", path: ["active"], val: false });
    const group = (await call("GET", "/v1/notification-groups")).body.data[0];
    await call("PATCH", `/v1/notification-groups/${group._id}`, { name: "Renamed group" });
    expect((await pending(call)).length).toBe(2);
  });

  it("records Production's workflow writes as Production changes, listed to a Production key only", async () => {
    const { call, handle } = await start();
    const key = handle.productionApiKey;
    const prodWorkflow = handle.store("production").workflows[0];
    await call("PUT", `/v1/workflows/${prodWorkflow?._id}`, { name: "Prod only" }, key);
    // No capture shows a Production group write recorded: none is.
    await call("POST", "/v1/notification-groups", { name: "Prod group" }, key);
    await call("POST", "/v1/topics", { key: "t", name: "T" });
    expect(await pending(call)).toEqual([]);
    await call("PUT", `/v1/workflows/${W1}`, { name: "Dev" });
    expect((await call("GET", "/v1/changes/count", undefined, key)).body.data).toBe(1);
    const listed = (await call("GET", "/v1/changes?promoted=false", undefined, key)).body;
    expect(listed.totalCount).toBe(1);
    expect(listed.data.map((c: ChangeView) => [c.type, c._entityId, c.templateName])).toEqual([
      ["NotificationTemplate", prodWorkflow?._id, "Prod only"],
    ]);
    expect((await pending(call)).map((c) => c.templateName)).toEqual(["Dev"]);
  });

  it("pages the list with totalCount, and refuses a bad page, limit or promoted", async () => {
    const { call } = await start();
    for (const name of ["A", "B", "C"]) await call("POST", "/v1/notification-groups", { name });
    const page = (await call("GET", "/v1/changes?promoted=false&page=1&limit=2")).body;
    // C, B | A and the fresh organization's DefaultLayout change.
    expect(page).toMatchObject({ totalCount: 4, page: 1, pageSize: 2 });
    expect(page.data.map((c: ChangeView) => c.templateName)).toEqual(["A", "Default Layout"]);
    for (const query of ["promoted=false&limit=101", "promoted=false&page=-1", "promoted=maybe"])
      expect((await call("GET", `/v1/changes?${query}`)).status).toBe(400);
    // Without promoted at all: refused, as real servers refuse it (r3-q1-01).
    expect(await call("GET", "/v1/changes")).toMatchObject({
      status: 400,
      body: { message: ["promoted should not be null or undefined", "promoted must be a string"] },
    });
  });
});

describe("applying changes", () => {
  it("creates the Production copy on first apply (group first), then updates the same record", async () => {
    const { call, handle } = await start({ flavor: "real" });
    const { group, workflow } = await createGroupAndWorkflow(call);
    const change = (await pending(call)).find((c) => c._entityId === workflow._id);
    const applied = await call("POST", `/v1/changes/${change?._id}/apply`);
    expect(applied.status).toBe(201);
    // Children first, answered as they were before applying (a real server's answer).
    expect(applied.body.data.map((c: ChangeView) => [c.type, c.enabled])).toEqual([
      ["MessageTemplate", false],
      ["NotificationTemplate", false],
    ]);
    const key = handle.productionApiKey;
    const copy = (await call("GET", `/v1/workflows/${workflow.triggers[0].identifier}`, undefined, key)).body
      .data;
    expect(copy._id).not.toBe(workflow._id);
    expect(copy).toMatchObject({
      _parentId: workflow._id,
      name: "Invoice ready",
      tags: ["billing"],
      active: true,
    });
    expect(copy._environmentId).toBe(handle.store("production").environmentId);
    // The group was promoted with it: the copy points at the Production copy of the group.
    const prodGroup = handle.store("production").notificationGroups.find((g) => g._parentId === group._id);
    expect(copy._notificationGroupId).toBe(prodGroup?._id);
    const prodTemplate = copy.steps[0].template;
    expect(prodTemplate._parentId).toBe(workflow.steps[0].template._id);
    expect(await pending(call)).toEqual([]);
    expect((await pending(call, true)).map((c) => c.enabled)).toEqual([true, true]);

    await call("PUT", `/v1/workflows/${workflow._id}`, { name: "Invoice sent", tags: ["billing", "v2"] });
    await call("PUT", `/v1/workflows/${workflow._id}/status`, { active: false });
    const [update] = await pending(call);
    expect(update?._id).not.toBe(change?._id);
    expect(update?.change).toEqual(
      expect.arrayContaining([
        { op: "update", path: ["name"], val: "Invoice sent", oldVal: "Invoice ready" },
        { op: "update", path: ["active"], val: false, oldVal: true },
      ]),
    );
    await call("POST", `/v1/changes/${update?._id}/apply`);
    const copies = handle.store("production").workflows.filter((w) => w._parentId === workflow._id);
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatchObject({
      _id: copy._id,
      name: "Invoice sent",
      tags: ["billing", "v2"],
      active: false,
      draft: true,
    });
    expect(copies[0]?.steps[0]?.template?._id).toBe(prodTemplate._id);
  });

  it("applies several in bulk (one array per id), and applying again copies the current state again", async () => {
    const { call, handle } = await start();
    for (const name of ["A", "B"]) await call("POST", "/v1/notification-groups", { name });
    const ids = (await pending(call)).map((c) => c._id);
    const bulk = await call("POST", "/v1/changes/bulk/apply", { changeIds: ids });
    expect(bulk.status).toBe(201);
    const devIds = (name: string) => handle.store().notificationGroups.find((g) => g.name === name)?._id;
    // Answered in the order the changes were made, not the order sent (r3-q2-04, r3-q3-22).
    expect(bulk.body.data.map((applied: ChangeView[]) => applied.map((c) => c._entityId))).toEqual([
      [devIds("A")],
      [devIds("B")],
    ]);
    const names = () => handle.store("production").notificationGroups.map((g) => g.name);
    // Sent newest first, applied in the order they were made.
    expect(names()).toEqual(["General", "A", "B"]);
    expect((await call("POST", `/v1/changes/${ids[0]}/apply`)).status).toBe(201);
    expect(names()).toEqual(["General", "A", "B"]);
  });

  it("answers 404 'Parent Change not found' for unknown ids, a Production key, or a bulk naming one", async () => {
    const { call, handle } = await start();
    await call("POST", "/v1/notification-groups", { name: "A" });
    const [change] = await pending(call);
    const unknown = await call("POST", "/v1/changes/ffffffffffffffffffffffff/apply");
    expect(unknown).toMatchObject({
      status: 404,
      body: { message: "Parent Change not found", error: "Not Found" },
    });
    const production = await call(
      "POST",
      `/v1/changes/${change?._id}/apply`,
      undefined,
      handle.productionApiKey,
    );
    expect(production.status).toBe(404);
    const bulk = await call("POST", "/v1/changes/bulk/apply", {
      changeIds: [change?._id, "ffffffffffffffffffffffff"],
    });
    expect(bulk.status).toBe(404);
    // Nothing was applied.
    expect(await pending(call)).toHaveLength(1);
    expect((await call("POST", "/v1/changes/bulk/apply", { changeIds: [] })).status).toBe(400);
  });

  it("keeps changes and branding in the data file across restarts", async () => {
    const dataFile = join(await mkdtemp(join(tmpdir(), "notiform-promotion-")), "state.json");
    const first = await start({ dataFile });
    await first.call("POST", "/v1/notification-groups", { name: "Kept" });
    await first.call("PUT", "/v1/organizations/branding", {
      color: "#000000",
      fontColor: "#ffffff",
      contentBackground: "#eeeeee",
      fontFamily: "Inter",
      logo: "https://example.com/a.svg",
    });
    await stop(first.handle);
    const second = await start({ dataFile });
    expect((await pending(second.call)).map((c) => c.templateName)).toEqual(["Kept"]);
    expect((await second.call("GET", "/v1/organizations/me")).body.data.branding.logo).toBe(
      "https://example.com/a.svg",
    );
  });
});
