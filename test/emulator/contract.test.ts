// The emulator against the real server: for every captured request/response pair, the emulator
// (flavor "real") answers the same request with the same status and a body that has every field
// the real body has, with the same type, recursively. Ids and timestamps differ; the emulator may
// add fields the spec lists that this server left out (a workflow's notificationGroup, data).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";

const DIR = join(import.meta.dirname, "..", "fixtures", "real-responses");

interface Capture {
  request: {
    method: string;
    path: string;
    body?: unknown;
    headers?: Record<string, string>;
    /** Which of the organization's keys sent it (absent: development). */
    key?: "development" | "production";
  };
  response: { status: number; body: unknown };
}

const captures = readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((file) => ({ file, capture: JSON.parse(readFileSync(join(DIR, file), "utf8")) as Capture }));

/** Keys and types, recursively; arrays by their first element. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])];
  if (value === null) return "null";
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as object).sort()) {
      // Server-only bookkeeping a Mongo-backed server adds; notiform never relies on them.
      if (key === "__v" || key === "id" || key === "errorId") continue;
      out[key] = shapeOf((value as Record<string, unknown>)[key]);
    }
    return out;
  }
  return typeof value;
}

/** Every key of `real` is in `emulated` with the same shape: the paths where that fails. */
function missingFrom(emulated: unknown, real: unknown, path = "body"): string[] {
  if (Array.isArray(real)) {
    if (!Array.isArray(emulated)) return [`${path}: expected an array`];
    return real.length === 0 || emulated.length === 0 ? [] : missingFrom(emulated[0], real[0], `${path}[0]`);
  }
  if (real !== null && typeof real === "object") {
    if (emulated === null || typeof emulated !== "object" || Array.isArray(emulated))
      return [`${path}: expected an object`];
    return Object.entries(real as Record<string, unknown>).flatMap(([key, value]) =>
      key in (emulated as object)
        ? missingFrom((emulated as Record<string, unknown>)[key], value, `${path}.${key}`)
        : [`${path}.${key}: missing`],
    );
  }
  return real === emulated ? [] : [`${path}: ${String(emulated)} instead of ${String(real)}`];
}

/** The ids of the capture's server are not the emulator's: rewrite the request onto seeded ones. */
function rewrite(path: string, emulator: EmulatorHandle, environment: "development" | "production"): string {
  const store = emulator.store(environment);
  const workflow = store.workflows[0]?._id ?? "";
  const tenant = store.tenants[0]?._id ?? "";
  const development = emulator.store("development");
  return path
    .replace(/\/v1\/workflows\/(?!f{24})[0-9a-f]{24}/, `/v1/workflows/${workflow}`)
    .replace(
      "/v1/workflows/capture-flow-dccc2e",
      `/v1/workflows/${development.workflows[0]?.triggers[0]?.identifier}`,
    )
    .replace("/v1/tenants/cap-tenant-dccc2e", `/v1/tenants/${development.tenants[0]?.identifier}`)
    .replace(/\/v1\/topics\/(?!no-such-topic)[^/?]+/, "/v1/topics/existing-announcements")
    .replace("{workflow}", workflow)
    .replace("{tenant}", tenant);
}

let emulator: EmulatorHandle;
beforeAll(async () => {
  emulator = await startEmulator({ seedFile: "examples/emulator-seed.yaml", port: 0, flavor: "real" });
});
afterAll(async () => {
  await emulator.close();
});

async function call(method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: {
      authorization: `ApiKey ${emulator.apiKey}`,
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

/** A workflow created with two steps through the API: its pending change has two children. */
async function createWorkflowWithSteps(): Promise<{ _id: string }> {
  const group = emulator.store("development").notificationGroups[0]?._id;
  const created = await call("POST", "/v1/workflows", {
    name: `Contract flow ${emulator.store("development").workflows.length}`,
    notificationGroupId: group,
    active: true,
    steps: [
      {
        name: "In-app",
        template: { type: "in_app", content: "Hello", cta: { type: "redirect", data: { url: "/" } } },
      },
      { name: "Email", template: { type: "email", subject: "Hi", content: "Hi" } },
    ],
  });
  return (created.body as { data: { _id: string } }).data;
}

/** Point the promotion and environment captures at what exists in the emulator. */
async function preparePromotion(
  file: string,
  path: string,
  body: unknown,
): Promise<{ path: string; body: unknown }> {
  const changeOf = async (entityId: string) => {
    const pending = await call("GET", "/v1/changes?promoted=false&page=0&limit=100", undefined);
    const list = (pending.body as { data: { _id: string; _entityId: string }[] }).data;
    return list.find((c) => c._entityId === entityId)?._id;
  };
  if (file === "ext-changes-apply-201.json") {
    const workflow = await createWorkflowWithSteps();
    return { path: `/v1/changes/${await changeOf(workflow._id)}/apply`, body };
  }
  if (file === "ext-changes-list-200.json") await createWorkflowWithSteps();
  if (file === "ext-changes-list-promoted-200.json") {
    const workflow = await createWorkflowWithSteps();
    await call("POST", `/v1/changes/${await changeOf(workflow._id)}/apply`, undefined);
  }
  if (file === "ext-workflows-list-200.json") {
    // The capture's first workflow sits in a group of its own (the seed's are all in General).
    const group = await call("POST", "/v1/notification-groups", { name: "Contract group" });
    const groupId = (group.body as { data: { _id: string } }).data._id;
    await call("POST", "/v1/workflows", { name: "Listed flow", notificationGroupId: groupId, steps: [] });
    return { path: `${path}&query=listed`, body };
  }
  if (file === "ext-workflows-create-201.json")
    body = {
      ...(body as object),
      notificationGroupId: emulator.store("development").notificationGroups[0]?._id,
    };
  if (file === "organizations-me-after-branding-200.json") {
    await call("PUT", "/v1/organizations/branding", {
      color: "#123456",
      fontColor: "#ffffff",
      contentBackground: "#fafafa",
      fontFamily: "Inter",
      logo: "https://example.com/logo.png",
    });
  }
  return { path, body };
}

describe("the emulator answers like the real server", () => {
  it("covers every captured case", () => {
    expect(captures.length).toBe(64);
  });

  it.each(captures)("$file", async ({ file, capture }) => {
    const store = emulator.store("development");
    let { method, path } = capture.request;
    let body = capture.request.body;
    const headers: Record<string, string> = {};
    const environment = capture.request.key ?? "development";
    if (environment === "production") headers.authorization = `ApiKey ${emulator.productionApiKey}`;
    if (file.startsWith("auth-missing")) headers.authorization = "";
    if (file.startsWith("auth-bad-key")) headers.authorization = "ApiKey not-a-key";
    // Point the request at records that exist in the emulator where the capture's did.
    if (file === "workflow-overrides-create-201.json") {
      const tenant = store.tenants.find((t) => !store.overrides.some((o) => o._tenantId === t._id))?._id;
      body = { ...(body as object), workflowId: store.workflows[0]?._id, tenantId: tenant };
    }
    if (file === "workflow-overrides-create-bad-tenant-400.json")
      body = { ...(body as object), workflowId: store.workflows[0]?._id };
    if (file.startsWith("workflow-overrides-get-200") || file.startsWith("ext-workflow-overrides-update")) {
      const existing =
        store.overrides[0] ??
        (
          await call(
            "POST",
            "/v1/workflow-overrides",
            { workflowId: store.workflows[1]?._id, tenantId: store.tenants[1]?._id },
            {},
          )
        ).body;
      const id =
        (existing as { _id?: string; data?: { _id: string } })._id ??
        (existing as { data: { _id: string } }).data._id;
      path = path.replace(/[0-9a-f]{24}$/, id);
    }
    if (file === "workflows-status-200.json") {
      const workflow = store.workflows[0];
      body = { active: !workflow?.active };
    }
    if (file === "workflows-status-unchanged-400.json") body = { active: store.workflows[0]?.active };
    if (file === "notification-groups-rename-200.json")
      path = `/v1/notification-groups/${store.notificationGroups.at(-1)?._id}`;
    if (file === "topics-create-201.json" || file === "topics-create-duplicate-409.json")
      body = { key: "contract-topic", name: "Contract" };
    if (
      file === "topics-create-duplicate-409.json" &&
      !store.topics.some((t) => t.key === "contract-topic")
    ) {
      await call("POST", "/v1/topics", body, {});
    }
    ({ path, body } = await preparePromotion(file, path, body));
    path = rewrite(path, emulator, environment);
    if (file === "ext-workflows-get-200.json") path = `/v1/workflows/${store.workflows[0]?._id}`;
    if (headers.authorization === "") {
      const response = await fetch(`${emulator.url}${path}`, { method });
      expect(response.status).toBe(capture.response.status);
      expect(missingFrom(shapeOf(await response.json()), shapeOf(capture.response.body))).toEqual([]);
      return;
    }
    const result = await call(method, path, body, headers);
    // Where the real server crashed (500) the emulator answers with what happened (documented).
    if (file === "blueprints-get-unknown-500.json") {
      expect(result.status).toBe(404);
      return;
    }
    expect(result.status).toBe(capture.response.status);
    expect(missingFrom(shapeOf(result.body), shapeOf(capture.response.body))).toEqual([]);
  });
});
