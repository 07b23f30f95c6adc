// The emulator's workflow content against the real server's captures (r3-q1-*, r3-q2-*): the
// captured requests are sent again with the capture's ids rewritten onto the emulator's, and the
// answers must have the real answers' shape and, once ids, timestamps and layout ids are set
// aside, the same steps. Then the rules the captures show: templates matched by `_templateId`
// only, unsent step fields reverting, `_parentId` re-chained, a change per real write, and
// promotion copying content into Production with new template ids and the same step ids.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { EmulatorHandle } from "../../src/emulator/index.js";
import { type Call, caller, start } from "./harness.js";

const DIR = join(import.meta.dirname, "..", "fixtures", "real-responses", "workflow-content");

interface Capture {
  request: {
    method: string;
    path: string;
    key: "development" | "production";
    body?: Record<string, unknown>;
  };
  response: { status: number; body: { data?: Record<string, unknown> } & Record<string, unknown> };
}

function capture(name: string): Capture {
  return JSON.parse(readFileSync(join(DIR, `${name}.json`), "utf8")) as Capture;
}

type Json = Record<string, unknown>;

/** Keys and types, recursively, arrays by their first element; bookkeeping of Mongo left out. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])];
  if (value === null) return "null";
  if (typeof value === "object") {
    const out: Json = {};
    for (const key of Object.keys(value as object).sort()) {
      if (key === "__v" || key === "id") continue;
      out[key] = shapeOf((value as Json)[key]);
    }
    return out;
  }
  return typeof value;
}

/** Where `emulated` lacks a key of `real` or has another type there. */
function missingFrom(emulated: unknown, real: unknown, path = "body"): string[] {
  if (Array.isArray(real)) {
    if (!Array.isArray(emulated)) return [`${path}: expected an array`];
    return real.length === 0 || emulated.length === 0 ? [] : missingFrom(emulated[0], real[0], `${path}[0]`);
  }
  if (real !== null && typeof real === "object") {
    if (emulated === null || typeof emulated !== "object") return [`${path}: expected an object`];
    return Object.entries(real as Json).flatMap(([key, value]) =>
      key in (emulated as object)
        ? missingFrom((emulated as Json)[key], value, `${path}.${key}`)
        : [`${path}.${key}: missing`],
    );
  }
  return real === emulated ? [] : [`${path}: ${String(emulated)} instead of ${String(real)}`];
}

const SERVER_ONLY = new Set([
  "_id",
  "id",
  "_templateId",
  "_parentId",
  "_environmentId",
  "_organizationId",
  "_creatorId",
  "createdAt",
  "updatedAt",
  "__v",
]);

/** Steps as content: ids, timestamps and owners set aside; a layout id only says there is one. */
function contentOf(steps: unknown): unknown {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (value === null || typeof value !== "object") return value;
    const out: Json = {};
    for (const [key, inner] of Object.entries(value as Json)) {
      if (SERVER_ONLY.has(key)) continue;
      out[key] = key === "_layoutId" ? (inner === null ? null : "a layout") : strip(inner);
    }
    return out;
  };
  return strip(steps);
}

interface Step {
  _id: string;
  _templateId: string;
  _parentId: string | null;
  name: string;
  template: Json & { _id: string; _parentId?: string; _layoutId: string | null };
}

const DEFAULT_LAYOUT = "e0aaaaaaaaaaaaaaaaaaaaaa";

/** An emulator whose Development environment has a default layout, as a fresh real organization does. */
async function emulator(): Promise<{ handle: EmulatorHandle; call: Call; prod: Call; group: string }> {
  const { handle, call } = await start({ flavor: "real" });
  (handle.store("development") as unknown as { layouts: Json[] }).layouts = [
    { _id: DEFAULT_LAYOUT, identifier: "novu-default-layout", isDefault: true },
  ];
  const group = handle.store("development").notificationGroups[0]?._id ?? "";
  return { handle, call, prod: caller(handle.url, handle.productionApiKey ?? ""), group };
}

/** The capture's request body with its ids replaced (`ids`: capture id -> emulator id). */
function bodyOf(name: string, ids: Record<string, string>): Json {
  let text = JSON.stringify(capture(name).request.body ?? {});
  for (const [from, to] of Object.entries(ids)) text = text.split(from).join(to);
  return JSON.parse(text) as Json;
}

/** The captured answer's status and shape, and its steps' content. */
function expectLikeCapture(name: string, answer: { status: number; body: Json }, content = true): void {
  const real = capture(name).response;
  expect(answer.status).toBe(real.status);
  expect(missingFrom(shapeOf(answer.body), shapeOf(real.body))).toEqual([]);
  const realSteps = (real.body.data as Json | undefined)?.steps;
  if (content && realSteps !== undefined)
    expect(contentOf((answer.body.data as Json).steps)).toEqual(contentOf(realSteps));
}

async function createWelcome(call: Call, group: string) {
  const created = await call(
    "POST",
    "/v1/workflows",
    bodyOf("r3-q1-02-post-workflow-dev", { "6b063baad2bc4bd543f5b242": group }),
  );
  return created;
}

describe("workflow content, held to the real server's captures", () => {
  it("POST with steps and GET by id answer full steps like the real server (r3-q1-02, -03, -04)", async () => {
    const { call, group } = await emulator();
    const created = await createWelcome(call, group);
    expectLikeCapture("r3-q1-02-post-workflow-dev", created);
    const read = await call("GET", `/v1/workflows/${created.body.data._id}`);
    expectLikeCapture("r3-q1-03-get-workflow-dev", read);
    const steps = read.body.data.steps as Step[];
    // The step id is its template's id; each step chains to the previous step's template.
    expect(steps.map((s) => [s._id === s._templateId, s._templateId === s.template._id])).toEqual([
      [true, true],
      [true, true],
      [true, true],
    ]);
    expect(steps.map((s) => s._parentId)).toEqual([null, steps[0]?._templateId, steps[1]?._templateId]);
    // An email sent without a layout gets the default layout; other channels none.
    expect(steps.map((s) => s.template._layoutId)).toEqual([DEFAULT_LAYOUT, null, null]);
    const editor = await call(
      "POST",
      "/v1/workflows",
      bodyOf("r3-q1-04-post-workflow-editor-email-dev", { "6b063baad2bc4bd543f5b242": group }),
    );
    expectLikeCapture("r3-q1-04-post-workflow-editor-email-dev", editor);
  });

  it("PUT matches templates by _templateId only, re-chains _parentId and drops steps left out (r3-q1-06, -07)", async () => {
    const { call, group } = await emulator();
    const created = (await createWelcome(call, group)).body.data;
    const [email, inApp, sms] = created.steps as Step[];
    const ids = {
      "6b063bded2bc4bd543f5b327": email?._templateId ?? "",
      "6b063bded2bc4bd543f5b33b": sms?._templateId ?? "",
    };
    const updated = await call(
      "PUT",
      `/v1/workflows/${created._id}`,
      bodyOf("r3-q1-06-put-workflow-modified-steps-dev", ids),
    );
    expectLikeCapture("r3-q1-06-put-workflow-modified-steps-dev", updated);
    expectLikeCapture(
      "r3-q1-07-get-workflow-after-put-dev",
      await call("GET", `/v1/workflows/${created._id}`),
    );
    const steps = updated.body.data.steps as Step[];
    expect(steps.map((s) => s.name)).toEqual(["SMS welcome", "Welcome email", "Chat ping"]);
    // Kept in place (same ids), the new step a new template; the in-app step is gone.
    expect(steps[0]?._templateId).toBe(sms?._templateId);
    expect(steps[1]?._templateId).toBe(email?._templateId);
    expect([email?._templateId, inApp?._templateId, sms?._templateId]).not.toContain(steps[2]?._templateId);
    expect(steps.map((s) => s._parentId)).toEqual([null, sms?._templateId, email?._templateId]);
    expect(steps[1]?.template.createdAt).toBe(email?.template.createdAt);
  });

  it("a PUT step without _templateId gets a new template, the old one gone (r3-q1-24)", async () => {
    const { call, group } = await emulator();
    const created = (
      await call(
        "POST",
        "/v1/workflows",
        bodyOf("r3-q1-04-post-workflow-editor-email-dev", { "6b063baad2bc4bd543f5b242": group }),
      )
    ).body.data;
    const updated = await call(
      "PUT",
      `/v1/workflows/${created._id}`,
      bodyOf("r3-q1-24-put-workflow-without-templateId", {}),
    );
    expectLikeCapture("r3-q1-24-put-workflow-without-templateId", updated);
    expect(updated.body.data.steps[0]._templateId).not.toBe(created.steps[0]._templateId);
  });

  it("step fields not sent revert to defaults, and sending them again restores them (r3-q1-20 .. -26)", async () => {
    const { call, group } = await emulator();
    const created = await call(
      "POST",
      "/v1/workflows",
      bodyOf("r3-q1-20-post-workflow-filters-variants-delay", { "6b063baad2bc4bd543f5b242": group }),
    );
    expectLikeCapture("r3-q1-20-post-workflow-filters-variants-delay", created);
    const workflow = created.body.data;
    const ids = {
      "6b063cb1d2bc4bd543f5b99d": workflow.steps[0]._templateId,
      "6b063cb1d2bc4bd543f5b9ae": workflow.steps[1]._templateId,
    };
    expectLikeCapture(
      "r3-q1-21-get-workflow-filters-variants",
      await call("GET", `/v1/workflows/${workflow._id}`),
    );
    const minimal = await call(
      "PUT",
      `/v1/workflows/${workflow._id}`,
      bodyOf("r3-q1-22-put-workflow-omitting-step-fields", ids),
    );
    expectLikeCapture("r3-q1-22-put-workflow-omitting-step-fields", minimal);
    expectLikeCapture(
      "r3-q1-23-get-workflow-after-minimal-put",
      await call("GET", `/v1/workflows/${workflow._id}`),
    );
    const restored = await call(
      "PUT",
      `/v1/workflows/${workflow._id}`,
      bodyOf("r3-q1-25-put-workflow-restore-filters-variants", ids),
    );
    expectLikeCapture("r3-q1-25-put-workflow-restore-filters-variants", restored);
    expectLikeCapture(
      "r3-q1-26-get-wf4-dev-after-restore",
      await call("GET", `/v1/workflows/${workflow._id}`),
    );
  });

  it("another workflow's _templateId sent in a PUT overwrites that workflow's template (why a client never sends one)", async () => {
    const { call, group } = await emulator();
    const a = (await createWelcome(call, group)).body.data;
    const b = (
      await call("POST", "/v1/workflows", {
        name: "Other",
        notificationGroupId: group,
        steps: [{ name: "x", template: { type: "sms", content: "mine" } }],
      })
    ).body.data;
    const sms = (a.steps as Step[])[2];
    await call("PUT", `/v1/workflows/${b._id}`, {
      steps: [
        { _templateId: sms?._templateId, name: "x", template: { type: "sms", content: "overwritten" } },
      ],
    });
    const reread = (await call("GET", `/v1/workflows/${a._id}`)).body.data.steps as Step[];
    expect(reread[2]?.template.content).toBe("overwritten");
  });

  it("writes say layoutId; a read-side _layoutId in a body is ignored", async () => {
    const { handle, call, group } = await emulator();
    (handle.store("development") as unknown as { layouts: Json[] }).layouts.push({
      _id: "e0bbbbbbbbbbbbbbbbbbbbbb",
      isDefault: false,
    });
    const created = (
      await call("POST", "/v1/workflows", {
        name: "Layouts",
        notificationGroupId: group,
        steps: [
          {
            name: "a",
            template: { type: "email", subject: "s", content: "c", layoutId: "e0bbbbbbbbbbbbbbbbbbbbbb" },
          },
          {
            name: "b",
            template: { type: "email", subject: "s", content: "c", _layoutId: "e0bbbbbbbbbbbbbbbbbbbbbb" },
          },
        ],
      })
    ).body.data;
    expect(created.steps.map((s: Step) => s.template._layoutId)).toEqual([
      "e0bbbbbbbbbbbbbbbbbbbbbb",
      DEFAULT_LAYOUT,
    ]);
  });

  it("the list holds each step's template as {_id, type} only (r3-q1-30)", async () => {
    const { call, group } = await emulator();
    await createWelcome(call, group);
    const listed = await call("GET", "/v1/workflows?page=0&limit=100&query=welcome");
    const real = capture("r3-q1-30-get-workflows-dev-page1-limit2").response.body as unknown as {
      data: Json[];
    };
    expect(missingFrom(shapeOf(listed.body.data[0].steps), shapeOf(real.data[0]?.steps))).toEqual([]);
    expect(Object.keys(listed.body.data[0].steps[0].template).sort()).toEqual(["_id", "type"]);
  });

  it("lists newest first: the last page holds the oldest (r3-q1-30, r3-q2-07)", async () => {
    const { handle, call, group } = await emulator();
    const names = (answer: { body: Json }) => (answer.body.data as { name: string }[]).map((w) => w.name);
    // Like the capture's organization, the seed has three workflows: page 1 of 2 is the oldest.
    const oldest = handle.store("development").workflows[0]?.name;
    const lastPage = await call("GET", "/v1/workflows?page=1&limit=2");
    const { data: _real, ...envelope } = capture("r3-q1-30-get-workflows-dev-page1-limit2").response.body;
    expect(lastPage.body).toMatchObject(envelope);
    expect(names(lastPage)).toEqual([oldest]);
    for (const name of ["First", "Second"])
      await call("POST", "/v1/workflows", { name, notificationGroupId: group, steps: [] });
    expect(names(await call("GET", "/v1/workflows?page=0&limit=2"))).toEqual(["Second", "First"]);
  });

  it("Production: a Development id is unknown there, and POST is Development only (r3-q1-11, -12)", async () => {
    const { call, prod, group } = await emulator();
    const created = (await createWelcome(call, group)).body.data;
    const put = await prod("PUT", `/v1/workflows/${created._id}`, { description: "x" });
    expectLikeCapture("r3-q1-11-put-workflow-prod-key-dev-id-before-promotion", put);
    expectLikeCapture("r3-q1-12-post-workflow-prod-key", await prod("POST", "/v1/workflows", { name: "x" }));
  });
});

async function pendingChanges(call: Call): Promise<{ _id: string; _entityId: string }[]> {
  return (await call("GET", "/v1/changes?promoted=false&page=0&limit=100")).body.data;
}

async function promote(call: Call, workflowId: string): Promise<void> {
  const change = (await pendingChanges(call)).find((c) => c._entityId === workflowId);
  expect(change).toBeDefined();
  expect((await call("POST", `/v1/changes/${change?._id}/apply`)).status).toBe(201);
}

async function productionCopy(
  prod: Call,
  developmentId: string,
): Promise<Json & { _id: string; steps: Step[] }> {
  const list = (await prod("GET", "/v1/workflows?page=0&limit=100")).body.data as {
    _id: string;
    _parentId: string;
  }[];
  const copy = list.find((w) => w._parentId === developmentId);
  expect(copy).toBeDefined();
  return (await prod("GET", `/v1/workflows/${copy?._id}`)).body.data;
}

describe("changes and promotion of workflow content", () => {
  it("an identical PUT updates the pending change; after promotion it makes a new one (r3-q1-09, -13, -14)", async () => {
    const { call, group } = await emulator();
    const created = (await createWelcome(call, group)).body.data;
    const body = {
      steps: (created.steps as Step[]).map((s) => ({
        _templateId: s._templateId,
        name: s.name,
        template: { type: s.template.type, content: s.template.content },
      })),
    };
    await call("PUT", `/v1/workflows/${created._id}`, body);
    const before = (await pendingChanges(call)).filter((c) => c._entityId === created._id);
    await call("PUT", `/v1/workflows/${created._id}`, body);
    expect((await pendingChanges(call)).filter((c) => c._entityId === created._id)).toEqual([
      expect.objectContaining({ _id: before[0]?._id }),
    ]);
    await promote(call, created._id);
    expect((await pendingChanges(call)).filter((c) => c._entityId === created._id)).toEqual([]);
    await call("PUT", `/v1/workflows/${created._id}`, body);
    const after = (await pendingChanges(call)).filter((c) => c._entityId === created._id);
    expect(after).toHaveLength(1);
    expect(after[0]?._id).not.toBe(before[0]?._id);
  });

  it("records diffs in the real vocabulary: adds first, then deep updates with oldVal (r3-q1-05, -13, -14)", async () => {
    const { call, group } = await emulator();
    const created = (await createWelcome(call, group)).body.data;
    const [email, , sms] = created.steps as Step[];
    const ids: Record<string, string> = {
      "6b063bded2bc4bd543f5b327": email?._templateId ?? "",
      "6b063bded2bc4bd543f5b33b": sms?._templateId ?? "",
    };
    const put = await call(
      "PUT",
      `/v1/workflows/${created._id}`,
      bodyOf("r3-q1-06-put-workflow-modified-steps-dev", ids),
    );
    ids["6b063befd2bc4bd543f5b3da"] = put.body.data.steps[2]._templateId;
    type Op = { op: string; path: (string | number)[]; val?: unknown; oldVal?: unknown };
    const opsOf = async () =>
      ((await pendingChanges(call)) as unknown as { _entityId: string; change: Op[] }[]).find(
        (c) => c._entityId === created._id,
      )?.change ?? [];
    const realOps = (name: string) =>
      (
        (capture(name).response.body.data as unknown as { templateName: string; change: Op[] }[]).find(
          (c) => c.templateName === "Notiform Welcome",
        )?.change ?? []
      ).filter((op) => op.path.at(-1) !== "id" && op.path[0] !== "__v");
    // Before the first promotion: every field of the record added, at the top level.
    const first = await opsOf();
    expect(new Set(first.map((op) => op.op))).toEqual(new Set(["add"]));
    expect(first.map((op) => op.path.join("/")).sort()).toEqual(
      realOps("r3-q1-05-get-changes-after-create")
        .map((op) => op.path.join("/"))
        .sort(),
    );
    await promote(call, created._id);
    // An identical PUT after promotion: the trigger variables' new sub-ids, as deep updates.
    await call(
      "PUT",
      `/v1/workflows/${created._id}`,
      bodyOf("r3-q1-13-put-workflow-identical-after-promotion-dev", ids),
    );
    const second = await opsOf();
    const shape = (op: Op) => ({
      op: op.op,
      path: op.path,
      ...(op.op !== "delete" ? { val: expect.any(String) } : {}),
      ...(op.op !== "add" ? { oldVal: expect.any(String) } : {}),
    });
    const real = realOps("r3-q1-14-get-changes-after-identical-put-promoted");
    expect(real.length).toBeGreaterThan(0);
    expect(second).toEqual(expect.arrayContaining(real.map(shape)));
    expect(second.every((op) => ["add", "update", "delete"].includes(op.op))).toBe(true);
  });

  it("promotion copies content: same step ids, new template ids pointing back, same content (r3-q2-01 .. -03)", async () => {
    const { call, prod, group } = await emulator();
    const created = (await createWelcome(call, group)).body.data;
    await promote(call, created._id);
    const copy = await productionCopy(prod, created._id);
    // Its content was edited before that promotion: the shape here, the content below.
    expectLikeCapture("r3-q2-03-get-workflow-prod-after-apply", { status: 200, body: { data: copy } }, false);
    const dev = created.steps as Step[];
    expect(copy.steps.map((s) => s._id)).toEqual(dev.map((s) => s._id));
    expect(copy.steps.map((s) => s._parentId)).toEqual(dev.map((s) => s._parentId));
    expect(copy.steps.map((s) => s.template._parentId)).toEqual(dev.map((s) => s._templateId));
    for (const step of copy.steps) expect(dev.map((s) => s._templateId)).not.toContain(step._templateId);
    // The layout was never promoted: Production's email points at none.
    expect(copy.steps.map((s) => s.template._layoutId)).toEqual([null, null, null]);
    const strip = (steps: Step[]) =>
      contentOf(steps.map((s) => ({ ...s, template: { ...s.template, _layoutId: null, _feedId: null } })));
    expect(strip(copy.steps)).toEqual(strip(dev));
  });

  it("a later promotion updates Production's templates in place and overwrites a Production edit (r3-q2-04 .. -06, r3-q1-16)", async () => {
    const { call, prod, group } = await emulator();
    const created = (await createWelcome(call, group)).body.data;
    await promote(call, created._id);
    const first = await productionCopy(prod, created._id);
    // A Production edit of its own copy is allowed, and lost at the next promotion.
    const prodEdit = await prod("PUT", `/v1/workflows/${first._id}`, {
      steps: first.steps.map((s) => ({
        _templateId: s._templateId,
        name: s.name,
        template: { type: s.template.type, content: "edited in prod" },
      })),
    });
    expect(prodEdit.status).toBe(200);
    const devSteps = created.steps as Step[];
    await call("PUT", `/v1/workflows/${created._id}`, {
      steps: devSteps.map((s) => ({
        _templateId: s._templateId,
        name: s.name,
        template: {
          type: s.template.type,
          subject: s.template.subject,
          content: `${String(s.template.content)} v2`,
        },
      })),
    });
    await promote(call, created._id);
    const second = await productionCopy(prod, created._id);
    expect(second._id).toBe(first._id);
    expect(second.steps.map((s) => s._templateId)).toEqual(first.steps.map((s) => s._templateId));
    expect(second.steps.map((s) => s.template.content)).toEqual(
      devSteps.map((s) => `${String(s.template.content)} v2`),
    );
  });

  it("a Production key's PUT of its own copy is a Production change, listed to that key, never applied (r3-q1-15 .. -17, r3-q2-16, -17)", async () => {
    const { handle, call, prod, group } = await emulator();
    const created = (await createWelcome(call, group)).body.data;
    await promote(call, created._id);
    const copy = await productionCopy(prod, created._id);
    const put = await prod(
      "PUT",
      `/v1/workflows/${copy._id}`,
      bodyOf("r3-q1-15-put-workflow-prod-key-prod-id-description-only", {}),
    );
    expectLikeCapture("r3-q1-15-put-workflow-prod-key-prod-id-description-only", put, false);
    const listed = await prod("GET", "/v1/changes?promoted=false");
    const real = capture("r3-q1-17-get-changes-prod-key").response.body as unknown as {
      data: Json[];
      totalCount: number;
    };
    expect(listed.status).toBe(200);
    expect(listed.body.totalCount).toBe(real.totalCount);
    const [change] = listed.body.data as Json[];
    const productionId = handle.store("production").environmentId;
    expect(change).toMatchObject({
      type: "NotificationTemplate",
      _entityId: copy._id,
      _environmentId: productionId,
      templateId: copy._id,
      templateName: copy.name,
      enabled: false,
    });
    expect(Object.keys(change ?? {}).sort()).toEqual(
      expect.arrayContaining(Object.keys(real.data[0] ?? {}).filter((k) => k !== "__v" && k !== "id")),
    );
    expect((await prod("GET", "/v1/changes/count")).body).toEqual({ data: 1 });
    // Development lists its own only.
    expect((await pendingChanges(call)).some((c) => c._entityId === copy._id)).toBe(false);
    // Production has no environment to promote into; Development's ids are not its own.
    const own = await prod("POST", `/v1/changes/${change?._id}/apply`);
    expectLikeCapture("r3-q2-16-apply-change-with-prod-key", own);
    expect(own.body.message).toBe(`Environment ${productionId} not found`);
    const devChange = (await call("GET", "/v1/changes?promoted=true")).body.data[0]._id;
    const theirs = await prod("POST", `/v1/changes/${devChange}/apply`);
    expectLikeCapture("r3-q2-17-apply-dev-change-id-with-prod-key", theirs);
    expect(theirs.body.message).toBe("Parent Change not found");
    expect((await prod("POST", "/v1/changes/bulk/apply", { changeIds: [change?._id] })).status).toBe(404);
  });

  it("a replaced Development template reaches Production as a new step (r3-q2-11)", async () => {
    const { call, prod, group } = await emulator();
    const created = (
      await call(
        "POST",
        "/v1/workflows",
        bodyOf("r3-q1-04-post-workflow-editor-email-dev", { "6b063baad2bc4bd543f5b242": group }),
      )
    ).body.data;
    await promote(call, created._id);
    const first = await productionCopy(prod, created._id);
    const replaced = (
      await call(
        "PUT",
        `/v1/workflows/${created._id}`,
        bodyOf("r3-q1-24-put-workflow-without-templateId", {}),
      )
    ).body.data;
    await promote(call, created._id);
    const second = await productionCopy(prod, created._id);
    expect(second.steps[0]?._id).toBe(replaced.steps[0]._id);
    expect(second.steps[0]?._templateId).not.toBe(first.steps[0]?._templateId);
    expect(second.steps[0]?.template._parentId).toBe(replaced.steps[0]._templateId);
  });

  it("a Development DELETE is a change whose promotion removes Production's copy (r3-q1-27 .. -29, r3-q2-15)", async () => {
    const { call, prod, group } = await emulator();
    const created = (await createWelcome(call, group)).body.data;
    await promote(call, created._id);
    expectLikeCapture(
      "r3-q1-19-delete-workflow-prod-key",
      await prod("DELETE", `/v1/workflows/${created._id}`),
    );
    expectLikeCapture("r3-q1-27-delete-workflow-dev", await call("DELETE", `/v1/workflows/${created._id}`));
    expectLikeCapture("r3-q1-28-get-deleted-workflow-dev", await call("GET", `/v1/workflows/${created._id}`));
    await promote(call, created._id);
    const list = (await prod("GET", "/v1/workflows?page=0&limit=100")).body.data as { _parentId: string }[];
    expect(list.some((w) => w._parentId === created._id)).toBe(false);
  });
});
