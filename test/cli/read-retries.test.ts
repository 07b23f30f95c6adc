// A transient 5xx on a read is retried (issue 26; a 500 too, issue 33: the real server answers 500
// for transient faults): one 500, 502 or 503 on a list read and the plan still succeeds; a read
// that keeps failing gives up after the policy's bound with an error naming the method, path,
// status and attempts. A 500 on a POST is not retried: the create may have happened, and apply
// says so. As processes against the emulator's scripted faults over HTTP.
import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY } from "../../src/api/retry-policy.js";
import type { EmulatorHandle } from "../../src/emulator/index.js";
import { ACME_BASE, cliTests } from "../support/cli.js";

const cliTest = cliTests();

/** --list-unmanaged: the topics are read as a list (GET /v1/topics), not one by one. */
const listReads = (handle: EmulatorHandle) =>
  handle.requests.filter((r) => r.method === "GET" && r.path.split("?")[0] === "/v1/topics");

describe("a 5xx on a read", () => {
  it.each([500, 502, 503])(
    "a single %s on the topic list is retried and the plan succeeds",
    async (status) => {
      const session = await cliTest({ config: ACME_BASE });
      session.emulator.injectFault({ method: "GET", path: "/v1/topics*", times: 1, kind: { status } });
      const plan = await session.cli("plan", "--list-unmanaged", "--output", "json", "--verbose");
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stderr).toContain(`status ${status}`);
      const planned = JSON.parse(plan.stdout) as { actions: { id: string }[] };
      expect(planned.actions.map((a) => a.id)).toContain("topic/order-updates");
      // The failed attempt, then the retry that got the list.
      expect(listReads(session.emulator).length).toBeGreaterThanOrEqual(2);
    },
  );

  it("a single 504 on the organization read (the guard's) is retried too", async () => {
    const session = await cliTest({ config: ACME_BASE });
    session.emulator.injectFault({
      method: "GET",
      path: "/v1/organizations/me",
      times: 1,
      kind: { status: 504 },
    });
    const plan = await session.cli("plan", "--detailed-exitcode", "--verbose");
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stderr).toContain("status 504");
    expect(plan.stdout).toContain("organization Acme Inc");
  });

  it("that persists gives up after the policy's attempts, naming the read, and writes nothing", async () => {
    const session = await cliTest({ config: ACME_BASE });
    session.emulator.injectFault({ method: "GET", path: "/v1/topics*", times: 100, kind: { status: 503 } });
    const plan = await session.cli("plan", "--list-unmanaged");
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain("GET /v1/topics");
    expect(plan.stderr).toContain("503");
    expect(plan.stderr).toContain(`${DEFAULT_RETRY.maxAttempts} attempts`);
    expect(plan.stderr).not.toMatch(/\n\s+at /);
    expect(listReads(session.emulator)).toHaveLength(DEFAULT_RETRY.maxAttempts);
    expect(session.emulator.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });
});

describe("a 500 on a write", () => {
  it("a POST is not retried: apply reports it failed, and reads the groups back to say it was not created", async () => {
    const session = await cliTest({ config: ACME_BASE });
    session.emulator.injectFault({
      method: "POST",
      path: "/v1/notification-groups",
      times: 1,
      kind: { status: 500 },
    });
    const applied = await session.cli("apply", "--auto-approve", "--output", "json");
    // The topics were created, the group's create failed: stopped after some changes (3).
    expect(applied.code, applied.stderr).toBe(3);
    const report = JSON.parse(applied.stdout) as {
      results: { id: string; status: string; error?: { message: string } }[];
    };
    const group = report.results.find((r) => r.id === "notificationGroup/billing");
    expect(group?.status).toBe("failed");
    expect(group?.error?.message).toContain(
      'the server lists no unbound group named "Billing": it was not created',
    );
    // Sent once: a retry could have created a second group.
    const posts = session.emulator.requests.filter(
      (r) => r.method === "POST" && r.path === "/v1/notification-groups",
    );
    expect(posts).toHaveLength(1);
    // Its intent stays in the state file, so the next apply does not create it blindly.
    const state = JSON.parse(await session.workspace.read("notiform.state.json")) as {
      intents?: Record<string, unknown>;
    };
    expect(Object.keys(state.intents ?? {})).toEqual(["notificationGroup/billing"]);
  });
});
