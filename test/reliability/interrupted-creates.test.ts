// Interrupted creates are never silently repeated. A create's intent is in the state file before
// its POST is sent; when its answer is lost and the server cannot list the kind, the next plan
// shows it as uncertain (with when it was interrupted), apply refuses to create it, and
// `notiform resolve` records what became of it. Where the server can list the kind, the single
// unbound match is adopted. SIGKILL at seeded random points, with and without the list extension,
// ends with every group exactly once.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { EmulatorHandle } from "../../src/emulator/index.js";
import { cliTests, killWhen, type Workspace } from "../support/cli.js";

const cliTest = cliTests();

const groupsConfig = (count: number) =>
  `version: 1\norganization: Acme Inc\nnotificationGroups:\n${Array.from(
    { length: count },
    (_, n) => `  - { key: g${n}, name: Group ${n} }\n`,
  ).join("")}`;

async function setup(options: { strictSpec: boolean; groups: number; latencyMs?: number }) {
  const { groups, ...emulator } = options;
  const test = await cliTest({ config: groupsConfig(groups), ...emulator });
  // resolve is offline: it takes no --api-url.
  const cli = (...args: string[]) => test.run(args, args[0] === "resolve" ? { url: null } : {});
  return { ...test, handle: test.emulator, cli };
}

function stateOf(workspace: Workspace) {
  return JSON.parse(readFileSync(join(workspace.dir, "notiform.state.json"), "utf8")) as {
    notificationGroups: Record<string, { id: string }>;
    intents?: Record<string, { startedAt: string }>;
  };
}

const groupsNamed = (handle: EmulatorHandle, name: string) =>
  handle.store("development").notificationGroups.filter((g) => g.name === name);

describe("an interrupted create", () => {
  it("on a server that cannot list groups: uncertain in the plan, refused by apply, resolved with --id", async () => {
    const { handle, workspace, cli } = await setup({ strictSpec: true, groups: 2 });
    handle.injectFault({ method: "POST", path: "/v1/notification-groups", kind: "lost-response" });
    const first = await cli("apply", "--auto-approve", "--concurrency", "1", "--output", "json");
    // g0's answer lost: it stops there, and says the server may have changed (exit 3).
    expect(first.code).toBe(3);
    const lost = JSON.parse(first.stdout).results.find(
      (r: { id: string }) => r.id === "notificationGroup/g0",
    );
    expect(lost.error.code).toBe("CREATE_UNCERTAIN");
    expect(lost.error.hint).toContain("notiform resolve notificationGroup/g0 --id ID");
    expect(lost.error.hint).not.toContain("state file");
    expect(Object.keys(stateOf(workspace).intents ?? {})).toEqual(["notificationGroup/g0"]);

    const plan = await cli("plan", "--detailed-exitcode");
    expect(plan.code).toBe(2);
    expect(plan.stdout).toMatch(
      /\?! notification group g0 \(uncertain: a create started \d{4}-\d\d-\d\dT.*was interrupted/,
    );
    expect(plan.stdout).toContain("notiform resolve notificationGroup/g0 --id ID");

    const refused = await cli("apply", "--auto-approve");
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain("notiform resolve notificationGroup/g0");
    expect(groupsNamed(handle, "Group 0")).toHaveLength(1); // not sent again

    const [created] = groupsNamed(handle, "Group 0");
    const resolved = await cli("resolve", "notificationGroup/g0", "--id", created?._id ?? "");
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(stateOf(workspace).intents ?? {}).toEqual({});
    expect(stateOf(workspace).notificationGroups.g0?.id).toBe(created?._id);
    const converged = await cli("apply", "--auto-approve");
    expect(converged.code, converged.stderr).toBe(0);
    expect((await cli("plan", "--detailed-exitcode")).code).toBe(0);
    expect(groupsNamed(handle, "Group 0")).toHaveLength(1);
  });

  it("resolved with --not-created, the next apply creates it once", async () => {
    const { handle, cli } = await setup({ strictSpec: true, groups: 1 });
    // The connection drops before the server does anything: the create did not happen, but the
    // client cannot tell that from a lost answer.
    handle.injectFault({ method: "POST", path: "/v1/notification-groups", kind: "drop" });
    expect((await cli("apply", "--auto-approve")).code).toBe(3);
    expect((await cli("plan")).stdout).toContain("uncertain");
    expect((await cli("resolve", "notificationGroup/g0", "--not-created")).code).toBe(0);
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    expect(groupsNamed(handle, "Group 0")).toHaveLength(1);
    expect((await cli("resolve", "notificationGroup/g0", "--not-created")).code).toBe(1);
  });

  it("reads back a create whose answer was lost instead of sending it again (groups and topics)", async () => {
    const { handle, workspace, cli } = await setup({ strictSpec: false, groups: 1 });
    await workspace.write(
      "notiform.yaml",
      `${groupsConfig(1)}topics:\n  - { key: lost-topic, name: Lost topic }\n`,
    );
    handle.injectFault({ method: "POST", path: "/v1/notification-groups", kind: "lost-response" });
    handle.injectFault({ method: "POST", path: "/v1/topics", kind: "lost-response" });
    const applied = await cli("apply", "--auto-approve", "--output", "json");
    expect(applied.code, applied.stderr).toBe(0);
    const notes = JSON.parse(applied.stdout).results.flatMap((r: { notes: string[] }) => r.notes);
    expect(notes).toEqual(["response lost; read back: created", "response lost; read back: created"]);
    expect(groupsNamed(handle, "Group 0")).toHaveLength(1);
    expect(handle.requests.filter((r) => r.method === "POST")).toHaveLength(2);
    expect(stateOf(workspace).intents ?? {}).toEqual({});
  });

  /** Kill the apply once its group POST has reached the server, before the answer comes back. */
  async function killAfterPost({ handle, run }: Awaited<ReturnType<typeof setup>>) {
    const killed = await run(["apply", "--auto-approve"], {
      onSpawn: killWhen(() => handle.requests.some((r) => r.method === "POST")),
    });
    expect(killed.signal).toBe("SIGKILL");
    // The server finishes the create on its own.
    for (let i = 0; i < 100 && groupsNamed(handle, "Group 0").length === 0; i += 1)
      await new Promise((r) => setTimeout(r, 20));
  }

  it("where the server lists groups, the single unbound match is adopted without asking", async () => {
    const session = await setup({ strictSpec: false, groups: 1, latencyMs: 150 });
    const { handle, workspace, cli } = session;
    await killAfterPost(session);
    expect(Object.keys(stateOf(workspace).intents ?? {})).toEqual(["notificationGroup/g0"]);
    expect(groupsNamed(handle, "Group 0")).toHaveLength(1);
    const converged = await cli("apply", "--auto-approve");
    expect(converged.code, converged.stderr).toBe(0);
    expect(groupsNamed(handle, "Group 0")).toHaveLength(1);
    expect(stateOf(workspace).intents ?? {}).toEqual({});
    expect(stateOf(workspace).notificationGroups.g0?.id).toBe(groupsNamed(handle, "Group 0")[0]?._id);
  });

  it("stops, naming the candidates, when several unbound groups could be the one it created", async () => {
    const session = await setup({ strictSpec: false, groups: 1, latencyMs: 150 });
    const { handle, cli } = session;
    await killAfterPost(session);
    // Someone else makes a group of the same name meanwhile.
    await session.call("POST", "/v1/notification-groups", { name: "Group 0" });
    const ids = groupsNamed(handle, "Group 0").map((g) => g._id);
    expect(ids).toHaveLength(2);
    const plan = await cli("plan");
    expect(plan.stdout).toContain("uncertain");
    for (const id of ids) expect(plan.stdout).toContain(id);
    expect((await cli("apply", "--auto-approve")).code).toBe(1);
    expect(groupsNamed(handle, "Group 0")).toHaveLength(2);
  });
});

/** A small deterministic generator, so every run kills at the same points. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe("SIGKILL at random points during an apply of hundreds of creates", () => {
  it.each([
    { strictSpec: true, seed: 11 },
    { strictSpec: true, seed: 23 },
    { strictSpec: false, seed: 37 },
  ])(
    "converges with zero duplicate groups (strict spec: $strictSpec, seed $seed)",
    async ({ strictSpec, seed }) => {
      const count = 200;
      const { handle, workspace, cli, run } = await setup({ strictSpec, groups: count, latencyMs: 2 });
      const random = seeded(seed);
      for (let round = 0; round < 3; round += 1) {
        const killAt = handle.requests.length + 5 + Math.floor(random() * 60);
        const killed = await run(["apply", "--auto-approve"], {
          onSpawn: killWhen(() => handle.requests.length >= killAt),
        });
        if (killed.signal !== "SIGKILL") break;
        // What a user does with an uncertain group: look in the dashboard, then say.
        const plan = JSON.parse((await cli("plan", "--output", "json")).stdout) as {
          actions: { id: string; op: string }[];
        };
        for (const { id } of plan.actions.filter((a) => a.op === "uncertain")) {
          const n = Number(id.slice("notificationGroup/g".length));
          const bound = new Set(Object.values(stateOf(workspace).notificationGroups).map((g) => g.id));
          const found = groupsNamed(handle, `Group ${n}`).filter((g) => !bound.has(g._id));
          expect(found.length).toBeLessThanOrEqual(1);
          const answer = found[0] === undefined ? ["--not-created"] : ["--id", found[0]._id];
          expect((await cli("resolve", id, ...answer)).code).toBe(0);
        }
      }
      const final = await cli("apply", "--auto-approve");
      expect(final.code, final.stderr).toBe(0);
      expect((await cli("plan", "--detailed-exitcode")).code).toBe(0);
      const names = handle.store("development").notificationGroups.map((g) => g.name);
      expect(names.filter((name) => name.startsWith("Group "))).toHaveLength(count);
      expect(new Set(names).size).toBe(names.length);
    },
  );
});
