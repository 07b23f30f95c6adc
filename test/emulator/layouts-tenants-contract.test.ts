// The emulator's layouts and tenants against the real server's captures (r3-q3-*, r3-q4-*): each
// captured request is sent again (ids rewritten onto the emulator's) and the answer must have the
// capture's status and every field of its body with the same type. Then the rules the captures
// show: tenant lists without a total and with `hasMore` true on a full last page, `data` replaced
// by PATCH, tenants per environment and never changes; layout POST answering `{_id}` only, the
// `{{{body}}}` rule, the one default, deletes refused while used, promotion into Production.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Call, start } from "./harness.js";

const DIR = join(import.meta.dirname, "..", "fixtures", "real-responses", "layouts-tenants");

interface Capture {
  request: { method: string; path: string; key: "development" | "production"; body?: unknown };
  response: { status: number; body: unknown };
}

const capture = (name: string) => JSON.parse(readFileSync(join(DIR, `${name}.json`), "utf8")) as Capture;

/** Where `emulated` lacks a key of `real` or has another type there (arrays by their first item). */
function missingFrom(emulated: unknown, real: unknown, path = "body"): string[] {
  if (Array.isArray(real)) {
    if (!Array.isArray(emulated)) return [`${path}: expected an array`];
    return real.length === 0 || emulated.length === 0 ? [] : missingFrom(emulated[0], real[0], `${path}[0]`);
  }
  if (real !== null && typeof real === "object") {
    if (emulated === null || typeof emulated !== "object") return [`${path}: expected an object`];
    return Object.entries(real as Record<string, unknown>).flatMap(([key, value]) =>
      key === "__v" || key === "id" || key === "timestamp"
        ? []
        : key in (emulated as object)
          ? missingFrom((emulated as Record<string, unknown>)[key], value, `${path}.${key}`)
          : [`${path}.${key}: missing`],
    );
  }
  if (real === null) return emulated === null ? [] : [`${path}: not null`];
  return typeof real === typeof emulated ? [] : [`${path}: ${typeof emulated} instead of ${typeof real}`];
}

/** Send the capture's request (path and body as given) and hold the answer to the capture. */
async function replay(
  call: Call,
  keys: { development: string; production: string },
  name: string,
  path?: string,
  body?: unknown,
) {
  const { request, response } = capture(name);
  const answer = await call(request.method, path ?? request.path, body ?? request.body, keys[request.key]);
  expect(answer.status, name).toBe(response.status);
  expect(missingFrom(answer.body, response.body), name).toEqual([]);
  return answer;
}

async function emulator() {
  const { handle, call } = await start({ flavor: "real" });
  const production = handle.productionApiKey;
  if (production === undefined) throw new Error("the bundled seed has a Production key");
  return { handle, call, keys: { development: handle.apiKey, production } };
}

describe("tenants, as a real server serves them", () => {
  it("creates, refuses a duplicate or a missing name, and keeps each environment's own", async () => {
    const { call, keys } = await emulator();
    const created = await replay(call, keys, "r3-q4-01-post-tenant-dev");
    expect(created.body.data).toMatchObject({ identifier: "acme", data: { plan: "pro", region: "eu" } });
    const again = await replay(call, keys, "r3-q4-02-post-tenant-duplicate-dev");
    expect(again.body.message).toMatch(/^Tenant with identifier: acme already exists under environment /);
    await replay(call, keys, "r3-q4-24-post-tenant-missing-name");
    await replay(call, keys, "r3-q4-04-get-tenant-prod-not-found");
    const production = await call(
      "POST",
      "/v1/tenants",
      { identifier: "acme", name: "Acme Prod" },
      keys.production,
    );
    expect(production.status).toBe(201);
    expect(production.body.data._id).not.toBe(created.body.data._id);
    expect((await call("GET", "/v1/tenants/acme")).body.data.name).toBe("Acme Inc");
    // Tenants are never promoted: no change records (the one there is the fresh organization's).
    const changes = (await call("GET", "/v1/changes?promoted=false")).body.data;
    expect(changes.map((c: { type: string }) => c.type)).toEqual(["DefaultLayout"]);
  });

  it("lists newest first without a total, hasMore true on a full last page, limit at most 100", async () => {
    const { call, keys } = await emulator();
    const before = (await call("GET", "/v1/tenants?limit=100")).body.data.length;
    for (const n of [1, 2, 3, 4])
      await call("POST", "/v1/tenants", { identifier: `t${n}`, name: `Tenant ${n}` });
    const first = await replay(
      call,
      keys,
      "r3-q4-08-get-tenants-dev-page1-limit2",
      "/v1/tenants?page=0&limit=2",
    );
    expect(first.body.data.map((t: { identifier: string }) => t.identifier)).toEqual(["t4", "t3"]);
    expect(first.body).not.toHaveProperty("totalCount");
    const total = before + 4;
    const lastFull = await call("GET", `/v1/tenants?page=0&limit=${total}`);
    expect(lastFull.body.data).toHaveLength(total);
    expect(lastFull.body.hasMore).toBe(true);
    const beyond = await call("GET", `/v1/tenants?page=1&limit=${total}`);
    expect(beyond.body).toMatchObject({ data: [], hasMore: false, page: 1 });
    await replay(call, keys, "r3-q4-09-get-tenants-dev-limit-over-max");
  });

  it("PATCH by identifier replaces data whole, renames, refuses a taken identifier; DELETE 204", async () => {
    const { call, keys } = await emulator();
    await call("POST", "/v1/tenants", {
      identifier: "acme",
      name: "Acme",
      data: { plan: "pro", region: "eu", seats: 5 },
    });
    await call("POST", "/v1/tenants", { identifier: "t2", name: "Tenant 2" });
    const patched = await replay(call, keys, "r3-q4-12-patch-tenant-dev");
    expect(patched.body.data.data).toEqual({ plan: "enterprise" });
    await replay(call, keys, "r3-q4-14-patch-tenant-identifier-conflict-dev");
    expect((await call("PATCH", "/v1/tenants/t2", { identifier: "t2-renamed" })).body.data.identifier).toBe(
      "t2-renamed",
    );
    expect((await call("GET", "/v1/tenants/t2")).status).toBe(404);
    expect((await call("PATCH", "/v1/tenants/nope", { name: "x" })).status).toBe(404);
    expect((await call("DELETE", "/v1/tenants/t2-renamed")).status).toBe(204);
    expect((await call("GET", "/v1/tenants/t2-renamed")).status).toBe(404);
    expect((await call("DELETE", "/v1/tenants/t2-renamed")).status).toBe(404);
  });
});

const LAYOUT = capture("r3-q3-01-post-layout-dev").request.body as Record<string, unknown>;

describe("layouts, as a real server serves them", () => {
  it("a fresh organization has the default layout; POST answers {_id} only; GET the full layout", async () => {
    const { call, keys } = await emulator();
    const initial = await replay(call, keys, "r3-q3-00-get-layouts-initial");
    expect(initial.body.data).toHaveLength(1);
    expect(initial.body.data[0]).toMatchObject({ identifier: "novu-default-layout", isDefault: true });
    const created = await replay(call, keys, "r3-q3-01-post-layout-dev");
    expect(Object.keys(created.body.data)).toEqual(["_id"]);
    const read = await replay(call, keys, "r3-q3-02-get-layout-dev", `/v1/layouts/${created.body.data._id}`);
    expect(read.body.data.variables[1]).toMatchObject({ name: "footerText", defaultValue: "" });
    await replay(call, keys, "r3-q3-04-post-layout-duplicate-identifier");
    await replay(call, keys, "r3-q3-03-post-layout-no-body-placeholder");
    await replay(call, keys, "r3-q3-11-patch-layout-no-body", `/v1/layouts/${created.body.data._id}`);
    const patched = await replay(
      call,
      keys,
      "r3-q3-10-patch-layout-dev",
      `/v1/layouts/${created.body.data._id}`,
    );
    expect(patched.body.data.variables.map((v: { name: string }) => v.name)).toEqual(["footerText"]);
  });

  it("lists with a total, newest first (orderBy=1 oldest first), past the end []", async () => {
    const { call, keys } = await emulator();
    for (const n of [1, 2, 3]) await call("POST", "/v1/layouts", { ...LAYOUT, identifier: `extra-${n}` });
    const page = await replay(
      call,
      keys,
      "r3-q3-07-get-layouts-dev-page1-size2",
      "/v1/layouts?page=0&pageSize=2",
    );
    expect(page.body.totalCount).toBe(4);
    expect(page.body.data.map((l: { identifier: string }) => l.identifier)).toEqual(["extra-3", "extra-2"]);
    const oldest = await call("GET", "/v1/layouts?page=0&pageSize=2&sortBy=createdAt&orderBy=1");
    expect(oldest.body.data[0].identifier).toBe("novu-default-layout");
    expect((await call("GET", "/v1/layouts?page=5&pageSize=10")).body).toMatchObject({
      data: [],
      totalCount: 4,
    });
  });

  it("one default: PATCH isDefault and the default route move it; deletes refused while used", async () => {
    const { handle, call, keys } = await emulator();
    const a = (await call("POST", "/v1/layouts", { ...LAYOUT, identifier: "a" })).body.data._id;
    const b = (await call("POST", "/v1/layouts", { ...LAYOUT, identifier: "b" })).body.data._id;
    await call("PATCH", `/v1/layouts/${a}`, { isDefault: true });
    const defaults = async () =>
      (await call("GET", "/v1/layouts")).body.data.filter((l: { isDefault: boolean }) => l.isDefault);
    expect((await defaults()).map((l: { _id: string }) => l._id)).toEqual([a]);
    expect((await call("POST", `/v1/layouts/${b}/default`)).status).toBe(204);
    expect((await defaults()).map((l: { _id: string }) => l._id)).toEqual([b]);
    // Novu's UpdateLayoutUseCase (and its e2e test): the default cannot be unset, only replaced;
    // the refused PATCH changes nothing, its other fields included.
    const unset = await call("PATCH", `/v1/layouts/${b}`, { isDefault: false, name: "Renamed" });
    expect(unset.status).toBe(409);
    expect(unset.body).toMatchObject({ statusCode: 409, message: "One default layout is required" });
    expect((await call("GET", `/v1/layouts/${b}`)).body.data).toMatchObject({
      name: LAYOUT.name as string,
      isDefault: true,
    });
    const taken = await call("PATCH", `/v1/layouts/${b}`, { identifier: "a", name: "Renamed" });
    expect(taken.status).toBe(409);
    expect((await call("GET", `/v1/layouts/${b}`)).body.data).toMatchObject({ name: LAYOUT.name as string });
    expect((await call("PATCH", `/v1/layouts/${a}`, { isDefault: false })).status).toBe(200);
    expect((await defaults()).map((l: { _id: string }) => l._id)).toEqual([b]);
    await replay(call, keys, "r3-q3-13b-post-layout-set-default-prod-key-dev-id", `/v1/layouts/${b}/default`);
    await replay(call, keys, "r3-q3-19-delete-default-layout-dev", `/v1/layouts/${b}`);
    const group = handle.store("development").notificationGroups[0]?._id;
    const workflow = await call("POST", "/v1/workflows", {
      name: "Layout user",
      notificationGroupId: group,
      steps: [
        { name: "Email", template: { type: "email", subject: "Hi", content: "<p>hi</p>", layoutId: a } },
      ],
    });
    expect(workflow.status).toBe(201);
    await replay(call, keys, "r3-q3-16-delete-layout-in-use-dev", `/v1/layouts/${a}`);
    const unused = (await call("POST", "/v1/layouts", { ...LAYOUT, identifier: "c" })).body.data._id;
    expect((await call("DELETE", `/v1/layouts/${unused}`)).status).toBe(204);
    expect((await call("GET", `/v1/layouts/${unused}`)).status).toBe(404);
  });

  it("a Development layout write is a Layout change; promotion copies it into Production", async () => {
    const { call, keys } = await emulator();
    const id = (await call("POST", "/v1/layouts", { ...LAYOUT, isDefault: true })).body.data._id;
    const pending = (await call("GET", "/v1/changes?promoted=false")).body.data;
    const change = pending.find((c: { _entityId: string }) => c._entityId === id);
    expect(change).toMatchObject({ type: "Layout", enabled: false });
    // Production holds no layout before the first promotion (novu-default-layout arrives by it).
    expect((await call("GET", "/v1/layouts", undefined, keys.production)).body.totalCount).toBe(0);
    expect((await call("POST", "/v1/changes/bulk/apply", { changeIds: [change._id] })).status).toBe(201);
    const listed = await replay(call, keys, "r3-q3-23-get-layouts-prod-after-apply");
    const copy = listed.body.data.find((l: { identifier: string }) => l.identifier === LAYOUT.identifier);
    expect(copy).toMatchObject({ _parentId: id, isDefault: true, content: LAYOUT.content });
    // A later Development edit reaches the same Production record on the next promotion.
    await call("PATCH", `/v1/layouts/${id}`, { name: "Renamed" });
    const next = (await call("GET", "/v1/changes?promoted=false")).body.data;
    await call("POST", "/v1/changes/bulk/apply", { changeIds: next.map((c: { _id: string }) => c._id) });
    const after = (await call("GET", `/v1/layouts/${copy._id}`, undefined, keys.production)).body.data;
    expect(after.name).toBe("Renamed");
    // Production's own writes are Production's changes: listed to its key, not to Development's.
    const prodOnly = await replay(call, keys, "r3-q3-05-post-layout-prod-key");
    expect((await call("GET", "/v1/changes?promoted=false")).body.totalCount).toBe(0);
    const own = (await call("GET", "/v1/changes?promoted=false", undefined, keys.production)).body;
    const real = capture("r3-q3-21-get-changes-prod-key-after-prod-layout").response.body as {
      data: { type: string; templateName: string }[];
    };
    expect(own.data.map((c: { type: string; templateName: string }) => [c.type, c.templateName])).toEqual(
      real.data.filter((c) => c.type === "Layout").map((c) => [c.type, c.templateName]),
    );
    expect(own.data[0]._entityId).toBe(prodOnly.body.data._id);
  });

  it("a pending Layout change moves under the change of a workflow that uses it, and is promoted with it (r3-q3-15, -20, -22)", async () => {
    const { handle, call, keys } = await emulator();
    const layoutId = (await replay(call, keys, "r3-q3-01-post-layout-dev")).body.data._id;
    const listed = async () =>
      (await call("GET", "/v1/changes?promoted=false")).body.data as {
        _id: string;
        type: string;
        _entityId: string;
      }[];
    expect((await listed()).find((c) => c._entityId === layoutId)?.type).toBe("Layout");
    const group = handle.store("development").notificationGroups[0]?._id ?? "";
    let body = JSON.stringify(capture("r3-q3-15-post-workflow-with-layoutId-dev").request.body);
    body = body
      .split("6b063baad2bc4bd543f5b242")
      .join(group)
      .split("6b063c3cd2bc4bd543f5b688")
      .join(layoutId);
    const workflow = (
      await replay(call, keys, "r3-q3-15-post-workflow-with-layoutId-dev", undefined, JSON.parse(body))
    ).body.data;
    // Listed like r3-q3-20: the workflow's change, and no Layout change of the layout it uses.
    const after = await listed();
    expect(after.some((c) => c._entityId === layoutId)).toBe(false);
    const real = capture("r3-q3-20-get-changes-after-layout-ops").response.body as {
      data: { type: string; templateName: string }[];
    };
    expect(real.data.some((c) => c.templateName === "Notiform Brand")).toBe(false);
    const change = after.find((c) => c._entityId === workflow._id);
    expect(change?.type).toBe("NotificationTemplate");
    // Applied, it brings the layout along, first, as r3-q3-22's answer for the workflow shows.
    const applied = await call("POST", `/v1/changes/${change?._id}/apply`);
    const realApplied = (
      capture("r3-q3-22-bulk-apply-layout-changes-dev").response.body as {
        data: { type: string; _parentId?: string }[][];
      }
    ).data.find((family) => family.some((c) => c.type === "NotificationTemplate"));
    const types = (family: { type: string }[]) => family.map((c) => c.type);
    expect(types(applied.body.data)).toEqual(types(realApplied ?? []));
    expect(applied.body.data[0]).toMatchObject({
      type: "Layout",
      _entityId: layoutId,
      _parentId: change?._id,
    });
    const copy = (await call("GET", "/v1/layouts", undefined, keys.production)).body.data.find(
      (l: { _parentId?: string }) => l._parentId === layoutId,
    );
    expect(copy).toBeDefined();
    const prodWorkflow = handle.store("production").workflows.find((w) => w._parentId === workflow._id);
    expect(prodWorkflow?.steps[0]?.template?._layoutId).toBe(copy._id);
    expect((await listed()).some((c) => c._entityId === layoutId)).toBe(false);
  });

  it("a PUT whose steps name a layout moves its pending change under the workflow's, used before or not", async () => {
    const { handle, call, keys } = await emulator();
    const group = handle.store("development").notificationGroups[0]?._id ?? "";
    const workflow = (
      await call("POST", "/v1/workflows", {
        name: "Late layout",
        notificationGroupId: group,
        steps: [{ name: "Email", template: { type: "email", subject: "s", content: "c" } }],
      })
    ).body.data;
    const layoutId = (await call("POST", "/v1/layouts", LAYOUT)).body.data._id;
    const step = (layout: string) => ({
      steps: [
        {
          _templateId: workflow.steps[0]._templateId,
          name: "Email",
          template: { type: "email", subject: "s", content: "c", layoutId: layout },
        },
      ],
    });
    const listedIds = async () =>
      ((await call("GET", "/v1/changes?promoted=false")).body.data as { _entityId: string }[]).map(
        (c) => c._entityId,
      );
    expect(await listedIds()).toContain(layoutId);
    await call("PUT", `/v1/workflows/${workflow._id}`, step(layoutId));
    expect(await listedIds()).not.toContain(layoutId);
    // Promoted with the workflow; a later edit of the layout is its own change again, until a PUT
    // of a workflow that already uses it moves it too (Novu's UpdateMessageTemplate re-parents on
    // every step write naming the layout). Edited again, it stays nested, and travels with the
    // workflow's next promotion.
    const pendingOf = async (id: string) =>
      (await call("GET", "/v1/changes?promoted=false")).body.data.find(
        (c: { _entityId: string }) => c._entityId === id,
      );
    await call("POST", `/v1/changes/${(await pendingOf(workflow._id))._id}/apply`);
    await call("PATCH", `/v1/layouts/${layoutId}`, { description: "edited" });
    expect(await listedIds()).toContain(layoutId);
    await call("PUT", `/v1/workflows/${workflow._id}`, step(layoutId));
    expect(await listedIds()).not.toContain(layoutId);
    await call("PATCH", `/v1/layouts/${layoutId}`, { description: "edited again" });
    expect(await listedIds()).not.toContain(layoutId);
    const applied = await call("POST", `/v1/changes/${(await pendingOf(workflow._id))._id}/apply`);
    expect(applied.body.data[0]).toMatchObject({ type: "Layout", _entityId: layoutId });
    const copy = (await call("GET", "/v1/layouts", undefined, keys.production)).body.data.find(
      (l: { _parentId?: string }) => l._parentId === layoutId,
    );
    expect(copy?.description).toBe("edited again");
  });
});
