// Every captured real response (test/fixtures/real-responses) served to the client method that
// makes that request: successes come back unwrapped and shape-checked, failures as the typed
// error the rest of notiform relies on, with the real server's message in the text.
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/index.js";
import { DEFAULT_RETRY } from "../../src/api/retry-policy.js";
import type { ApiClient } from "../../src/kinds/client.js";
import type { PreferenceLevel } from "../../src/kinds/endpoints/wire.js";
import { isUnchangedStatusError } from "../../src/kinds/workflow/api.js";
import { fixtureNames, readFixture } from "./helpers/fake-server.js";
import { closeAll, failure, harness, T, W } from "./helpers/harness.js";

afterEach(closeAll);

const ID = "6b02c579d413275d06fb495c";
const BRANDING = {
  color: "#123456",
  fontColor: "#ffffff",
  contentBackground: "#fafafa",
  fontFamily: "Inter",
  logo: "https://example.com/logo.png",
};
type Call = (client: ApiClient) => Promise<unknown>;

const CALLS: Record<string, [Call, string]> = {
  "auth-bad-key-401": [(c) => c.listTopics(), "API_AUTH"],
  "auth-missing-401": [(c) => c.listTopics(), "API_AUTH"],
  "blueprints-get-unknown-500": [(c) => c.getBlueprint("ffffffffffffffffffffffff"), "API_ERROR"],
  "execution-details-missing-query-400": [
    (c) => c.listExecutionDetails({ notificationId: W, subscriberId: "s1" }),
    "API_ERROR",
  ],
  "ext-changes-apply-201": [(c) => c.applyChange(ID), "ok"],
  "ext-changes-apply-unknown-404": [(c) => c.applyChange("000000000000000000000000"), "API_NOT_FOUND"],
  "ext-changes-count-200": [(c) => c.countChanges(), "ok"],
  "ext-changes-list-200": [(c) => c.listChanges({ promoted: false, page: 0, limit: 2 }), "ok"],
  "ext-changes-list-promoted-200": [(c) => c.listChanges({ promoted: true, page: 0, limit: 1 }), "ok"],
  "ext-environments-me-development-200": [(c) => c.getCurrentEnvironment(), "ok"],
  "ext-environments-me-production-200": [(c) => c.getCurrentEnvironment(), "ok"],
  "ext-notification-groups-list-200": [(c) => c.listNotificationGroups(), "ok"],
  "ext-organizations-branding-bad-logo-400": [(c) => c.updateOrganizationBranding(BRANDING), "API_ERROR"],
  "ext-organizations-branding-update-200": [(c) => c.updateOrganizationBranding(BRANDING), "ok"],
  "ext-tenants-get-by-identifier-200": [(c) => c.getTenant("cap-tenant"), "ok"],
  "ext-tenants-get-by-identifier-production-404": [(c) => c.getTenant("cap-tenant"), "API_NOT_FOUND"],
  "ext-tenants-get-unknown-404": [(c) => c.getTenant("no-such-tenant"), "API_NOT_FOUND"],
  "ext-tenants-list-200": [(c) => c.listTenants({ page: 0, limit: 2 }), "ok"],
  "ext-workflows-create-201": [
    (c) => c.createWorkflow({ name: "Flow", notificationGroupId: ID, steps: [] }),
    "ok",
  ],
  "ext-workflows-create-production-401": [
    (c) => c.createWorkflow({ name: "Flow", notificationGroupId: ID, steps: [] }),
    "API_DEV_ONLY",
  ],
  "ext-workflows-get-by-identifier-200": [(c) => c.getWorkflow("capture-flow"), "ok"],
  "ext-workflows-get-production-by-identifier-200": [(c) => c.getWorkflow("capture-flow"), "ok"],
  "ext-workflows-get-unknown-identifier-404": [(c) => c.getWorkflow("no-such-flow"), "API_NOT_FOUND"],
  "ext-workflows-list-200": [(c) => c.listWorkflows({ page: 0, limit: 2 }), "ok"],
  "ext-workflows-list-production-200": [(c) => c.listWorkflows({ page: 0, limit: 2 }), "ok"],
  "ext-workflows-list-production-after-promotion-200": [
    (c) => c.listWorkflows({ page: 0, limit: 100 }),
    "ok",
  ],
  "ext-workflows-update-production-200": [(c) => c.updateWorkflow(W, { tags: ["capture"] }), "ok"],
  "ext-workflow-overrides-update-200": [(c) => c.updateWorkflowOverride(ID, { active: true }), "ok"],
  "ext-workflows-get-200": [(c) => c.getWorkflow(W), "ok"],
  "notification-groups-create-201": [(c) => c.createNotificationGroup({ name: "Billing" }), "ok"],
  "notification-groups-rename-200": [(c) => c.renameNotificationGroup(ID, { name: "B" }), "ok"],
  "notification-groups-rename-unknown-404": [
    (c) => c.renameNotificationGroup("ffffffffffffffffffffffff", { name: "x" }),
    "API_NOT_FOUND",
  ],
  "organizations-list-200": [(c) => c.listOrganizations(), "ok"],
  "organizations-me-200": [(c) => c.getCurrentOrganization(), "ok"],
  "organizations-me-after-branding-200": [(c) => c.getCurrentOrganization(), "ok"],
  "subscriber-preferences-bad-level-400": [
    (c) => c.getSubscriberPreferences("s1", "bogus" as PreferenceLevel),
    "API_ERROR",
  ],
  "topics-create-201": [(c) => c.createTopic({ key: "news", name: "News" }), "ok"],
  "topics-create-duplicate-409": [(c) => c.createTopic({ key: "news", name: "News" }), "API_ERROR"],
  "topics-create-production-201": [(c) => c.createTopic({ key: "prod", name: "Prod" }), "ok"],
  "topics-create-missing-key-400": [(c) => c.createTopic({ key: "k", name: "n" }), "API_ERROR"],
  "topics-get-200": [(c) => c.getTopic("news"), "ok"],
  "topics-create-key-with-at-201": [
    (c) => c.createTopic({ key: "ops+dccc2e@example.com", name: "E-mail-like key" }),
    "ok",
  ],
  "topics-get-key-with-at-200": [(c) => c.getTopic("ops+dccc2e@example.com"), "ok"],
  "topics-get-unknown-404": [(c) => c.getTopic("no-such-topic"), "API_NOT_FOUND"],
  "topics-list-200": [(c) => c.listTopics({ page: 0, pageSize: 2 }), "ok"],
  "topics-list-pagesize-too-large-400": [(c) => c.listTopics({ page: 0, pageSize: 11 }), "API_ERROR"],
  "topics-rename-200": [(c) => c.renameTopic("news", { name: "News 2" }), "ok"],
  "unknown-route-404": [(c) => c.listOrganizations(), "API_UNSUPPORTED"],
  "workflow-overrides-create-201": [(c) => c.createWorkflowOverride({ workflowId: W, tenantId: T }), "ok"],
  "workflow-overrides-create-bad-tenant-400": [
    (c) => c.createWorkflowOverride({ workflowId: W, tenantId: T }),
    "API_ERROR",
  ],
  "workflow-overrides-get-200": [(c) => c.getWorkflowOverride(ID), "ok"],
  "workflow-overrides-get-unknown-404": [
    (c) => c.getWorkflowOverride("ffffffffffffffffffffffff"),
    "API_NOT_FOUND",
  ],
  "workflow-overrides-list-200-flat-envelope": [(c) => c.listWorkflowOverrides({ page: 0, limit: 2 }), "ok"],
  "workflow-overrides-list-production-401": [
    (c) => c.listWorkflowOverrides({ page: 0, limit: 10 }),
    "API_DEV_ONLY",
  ],
  "workflow-overrides-list-limit-too-large-400": [
    (c) => c.listWorkflowOverrides({ page: 0, limit: 101 }),
    "API_ERROR",
  ],
  "workflows-status-200": [(c) => c.updateWorkflowStatus(W, false), "ok"],
  "workflows-status-bad-body-400": [(c) => c.updateWorkflowStatus(W, true), "API_ERROR"],
  "workflows-status-production-401": [(c) => c.updateWorkflowStatus(W, false), "API_DEV_ONLY"],
  "workflows-status-unchanged-400": [(c) => c.updateWorkflowStatus(W, true), "API_ERROR"],
  "workflows-update-200": [(c) => c.updateWorkflow(W, { name: "Renamed" }), "ok"],
  "workflows-update-bad-id-400": [(c) => c.updateWorkflow(W, { name: "x" }), "API_ERROR"],
  "workflows-update-empty-body-400": [(c) => c.updateWorkflow(W, { description: "" }), "API_ERROR"],
  "workflows-update-description-too-long-400": [
    (c) => c.updateWorkflow(W, { description: "x".repeat(301) }),
    "API_ERROR",
  ],
  "workflows-update-unknown-404": [(c) => c.updateWorkflow(W, { name: "x" }), "API_NOT_FOUND"],
};

/** A capture the client retries: a read answered 500 (or 502-504). */
function retriedRead(captured: { request: { method: string }; status: number }): boolean {
  return captured.request.method === "GET" && [500, 502, 503, 504].includes(captured.status);
}

function messageOf(body: unknown): string {
  const message = (body as { message?: unknown }).message;
  return Array.isArray(message) ? message.join("; ") : String(message);
}

describe("captured real responses", () => {
  it("every captured response has a call here", () => {
    expect(Object.keys(CALLS).sort()).toEqual(fixtureNames());
  });

  it.each(Object.keys(CALLS))("%s", async (name) => {
    const captured = readFixture(name);
    const [call, expected] = CALLS[name] ?? [];
    if (call === undefined) throw new Error(name);
    const { client, server } = await harness([{ status: captured.status, body: captured.body }]);
    const request = call(client);
    if (expected === "ok") {
      const result = await request;
      // The unwrapped value is the captured `data` (or the whole page for the paged lists).
      const data = (captured.body as { data: unknown }).data;
      const paged = name.includes("-list-") && !Array.isArray(result);
      expect(paged ? (result as { data: unknown }).data : result).toEqual(data);
    } else {
      const error = await failure(request);
      expect(error).toBeInstanceOf(ApiError);
      // A read answered 500 is retried like 502-504 (a real server's transient faults are 500s),
      // so a 500 that is not transient (an unknown blueprint) costs the whole retry budget.
      const attempts = retriedRead(captured) ? DEFAULT_RETRY.maxAttempts : 1;
      expect(error).toMatchObject({ code: expected, status: captured.status, attempts });
      const sent = server.requests[0];
      const after = attempts > 1 ? ` (after ${attempts} attempts)` : "";
      expect(error.message).toBe(
        `${sent?.method} ${sent?.path.split("?")[0]}: ${captured.status} ${messageOf(captured.body)}${after}`,
      );
    }
    // Same route as the real request (but for the unknown route itself): method and path start.
    const sent = server.requests[0];
    expect(sent?.method).toBe(captured.request.method);
    const route = (path: string) => path.split("?")[0]?.split("/").slice(0, 3).join("/");
    if (name !== "unknown-route-404") expect(route(sent?.path ?? "")).toBe(route(captured.request.path));
    expect(server.requests).toHaveLength(
      expected !== "ok" && retriedRead(captured) ? DEFAULT_RETRY.maxAttempts : 1,
    );
  });

  it("an unchanged status is told apart from a rejected body, structurally", async () => {
    const unchanged = readFixture("workflows-status-unchanged-400");
    const invalid = readFixture("workflows-status-bad-body-400");
    const { client } = await harness([
      { status: 400, body: unchanged.body },
      { status: 400, body: invalid.body },
      { status: 400, body: unchanged.body },
    ]);
    expect(isUnchangedStatusError(await failure(client.updateWorkflowStatus(W, true)))).toBe(true);
    expect(isUnchangedStatusError(await failure(client.updateWorkflowStatus(W, true)))).toBe(false);
    // The same 400 from another endpoint is not "unchanged".
    expect(isUnchangedStatusError(await failure(client.updateWorkflow(W, { name: "x" })))).toBe(false);
  });

  it("a duplicate topic key is a refusal, not a write that may have happened", async () => {
    const duplicate = readFixture("topics-create-duplicate-409");
    const { client } = await harness([{ status: 409, body: duplicate.body }]);
    expect(await failure(client.createTopic({ key: "news", name: "News" }))).toMatchObject({
      status: 409,
      mayHaveBeenApplied: false,
      retried: false,
    });
  });
});
