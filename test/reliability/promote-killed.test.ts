// A promotion killed with SIGKILL part-way (after its Nth write reached the server), then run
// again, the way a cancelled CI job is retried: directly (`promote --auto-approve`) and through the
// saved file (`promote FILE`). The re-run must finish with exit 0, leave nothing to promote,
// create no workflow or layout twice in Production, and leave nothing in Production's plan that
// still "arrives by promotion".
import { describe, expect, it } from "vitest";
import { type CliTest, cliTests, killWhen, twoEnvironments } from "../support/cli.js";

const cliTest = cliTests();
const FRESH = twoEnvironments("Killed Promotion Inc");
const DEV = ["--env", "development"];

/** Four workflows in two groups, two of them in layouts of their own (promoted first). */
const CONFIG = `${FRESH.header}notificationGroups:
  - key: orders
    name: Orders
  - key: accounts
    name: Accounts
layouts:
  - identifier: brand
    name: Brand
    content: "<html><body>{{{body}}}<p>{{footer}}</p></body></html>"
    variables:
      - name: footer
        defaultValue: Acme
  - identifier: plain
    name: Plain
    content: "<div>{{{body}}}</div>"
workflows:
${["shipped", "refunded", "welcome", "reset"]
  .map(
    (id, i) => `  - identifier: ${id}
    name: ${id[0]?.toUpperCase()}${id.slice(1)}
    notificationGroup: ${i < 2 ? "orders" : "accounts"}
    steps:
      - name: email
        type: email
        template:
          subject: "${id} {{number}}"
          content: "<p>${id} {{number}}</p>"
          contentType: customHtml
${i < 2 ? `          layout: ${i === 0 ? "brand" : "plain"}\n` : ""}      - name: bell
        type: in_app
        template:
          content: "${id} {{number}}"
`,
  )
  .join("")}`;

/** The writes a promotion sends: everything but reads. */
const writes = (test: CliTest) => test.emulator.requests.filter((r) => r.method !== "GET").length;

/** The writes' paths since the log was cleared (`answered`: only those answered 2xx). */
const writePaths = (test: CliTest, answered: boolean) =>
  test.emulator.requests
    .filter((r) => r.method !== "GET" && (!answered || (r.status !== null && r.status < 300)))
    .map((r) => `${r.method} ${r.path}`);

/** Production's workflows and layouts by name, each once. */
function productionNames(test: CliTest): { workflows: string[]; layouts: string[] } {
  const store = test.emulator.store("production");
  return {
    workflows: store.workflows
      .filter((w) => w.deleted !== true)
      .map((w) => w.name)
      .sort(),
    layouts: (store.layouts ?? [])
      .filter((l) => !l.deleted)
      .map((l) => l.identifier)
      .sort(),
  };
}

async function killedThenRerun(way: "direct" | "saved", killAfter: number) {
  const test = await cliTest({ ...FRESH.options, config: CONFIG });
  const { run } = test;
  const applied = await run(["apply", ...DEV, "--auto-approve"]);
  expect(applied.code, applied.stderr).toBe(0);
  const promote =
    way === "direct"
      ? ["promote", ...DEV, "--auto-approve", "--concurrency", "1"]
      : ["promote", "promotion.json", ...DEV, "--concurrency", "1"];
  if (way === "saved") expect((await run(["promote", ...DEV, "--out", "promotion.json"])).code).toBe(0);

  test.emulator.clearRequests();
  // Each write takes 25 ms while the promotion is killed: the kill (polled every millisecond)
  // lands before the next write, however loaded the machine, and the re-run has work left.
  test.emulator.setFaults({ latencyMs: 25 });
  const killed = await run(promote, { onSpawn: killWhen(() => writes(test) >= killAfter) });
  test.emulator.setFaults({ latencyMs: 0 });
  const wroteBeforeKill = writes(test);
  const answeredBeforeKill = writePaths(test, true);

  test.emulator.clearRequests();
  const rerun = await run(promote);
  expect(rerun.code, `${rerun.stdout}${rerun.stderr}`).toBe(0);
  const rerunPaths = writePaths(test, false);
  // What the killed run had done, and been told it had, is not sent again.
  expect(rerunPaths.filter((path) => answeredBeforeKill.includes(path))).toEqual([]);
  const left = await run(["promote", ...DEV, "--detailed-exitcode", "--output", "json"]);
  expect(left.code, left.stdout + left.stderr).toBe(0);
  expect(JSON.parse(left.stdout).entries).toEqual([]);
  expect(productionNames(test)).toEqual({
    workflows: ["Refunded", "Reset", "Shipped", "Welcome"],
    layouts: ["brand", "novu-default-layout", "plain"],
  });
  const production = await run(["plan", "--env", "production", "--output", "json"]);
  expect(production.code, production.stderr).toBe(0);
  const arriving = (JSON.parse(production.stdout).actions as { id: string; reason?: string }[]).filter(
    (action) => (action.reason ?? "").includes("arrives by promotion"),
  );
  expect(arriving).toEqual([]);
  return { signal: killed.signal, wroteBeforeKill, rerunWrites: rerunPaths.length };
}

describe("a promotion killed part-way, then run again", () => {
  it.each([
    ["direct", 1],
    ["direct", 3],
    ["direct", 5],
    ["saved", 1],
    ["saved", 2],
    ["saved", 4],
  ] as const)(
    "%s: killed after write %i, the re-run promotes the rest and nothing twice",
    async (way, killAfter) => {
      const { signal, wroteBeforeKill, rerunWrites } = await killedThenRerun(way, killAfter);
      // The kill really landed part-way: the promotion had begun, and the re-run had changes left
      // (a full promotion of this config is more writes than the latest kill point).
      expect(signal).toBe("SIGKILL");
      expect(wroteBeforeKill).toBeGreaterThanOrEqual(killAfter);
      expect(rerunWrites).toBeGreaterThan(0);
    },
    60_000,
  );
});
