// What the reviewer sees is what apply sends (4), over real HTTP: a random config of every kind
// is applied, then a random second config over it is planned with `plan --out plan.json`. The
// text and the comment it prints, `show plan.json` and the saved plan agree with `plan`; then
// `apply plan.json` runs and every write the emulator receives (its request log: method, path,
// body) is one of the saved plan's requests, of an action the text plan shows with each of its
// field changes, and every planned request is sent. Afterwards the plan is empty. Seeded and
// bounded: a few runs, each on its own emulator.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeRegExp } from "../../src/escape-regexp.js";
import type { PlannedRequest } from "../../src/kinds/operations.js";
import { describeKind } from "../../src/kinds/registry.js";
import { parseStepField, STEPS_FIELD } from "../../src/kinds/workflow/steps-canonical.js";
import { MASK } from "../../src/mask.js";
import type { Plan } from "../../src/plan/model.js";
import { OP_SYMBOL } from "../../src/plan/render-common.js";
import { visibleKey, visibleText } from "../../src/sanitize.js";
import { startCliTest, twoEnvironments } from "../support/cli.js";
import {
  configArb,
  explain,
  type Generated,
  over,
  VAR,
  VAR_VALUE,
  yamlOf,
} from "../support/generated-config.js";

const FRESH = twoEnvironments("Review Inc");
const DEV = ["--env", "development"];

/** The comparable part of a plan's actions: what it shows and what it sends. */
function actionsOf(plan: Plan) {
  return plan.actions.map((a) => ({ id: a.id, op: a.op, changes: a.changes, requests: a.requests }));
}

/** The line the text plan gives a field change starts with this (render-text / render-steps). */
function changeStart(field: string): string {
  if (field === STEPS_FIELD) return "steps: ";
  const step = parseStepField(field);
  if (step !== undefined)
    return `step ${visibleText(step.step)}  ${visibleText(step.field.replace(/^template\./, ""))}: `;
  return `${visibleText(field)}: `;
}

/**
 * `sent` is `planned`, with each `<id of ACTION>` filled in by some id, and each masked value from
 * the environment (a saved plan never holds one; apply reads it again) by some text.
 */
function matches(planned: PlannedRequest, sent: { method: string; path: string; body?: unknown }): boolean {
  if (planned.method !== sent.method) return false;
  const pattern = (text: string) =>
    new RegExp(
      `^${escapeRegExp(text)
        .replace(/<id of [^>]*>|<id this create answers>/g, '[^/"]+')
        .replaceAll(escapeRegExp(MASK), '(?:[^"\\\\]|\\\\.)*')}$`,
    );
  if (!pattern(planned.path).test(sent.path)) return false;
  return pattern(JSON.stringify(sortKeys(planned.body))).test(JSON.stringify(sortKeys(sent.body ?? {})));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

/** One run; the first disagreement, or undefined. */
async function agrees(first: Generated, second: Generated): Promise<string | undefined> {
  const test = await startCliTest({
    ...FRESH.options,
    env: (keys) => ({ NOTIFORM_API_KEY_DEVELOPMENT: keys.development, [VAR]: VAR_VALUE }),
  });
  const { workspace, run, json } = test;
  try {
    const write = async (generated: Generated) => {
      const config = yamlOf(FRESH.header, generated);
      await workspace.write("notiform.yaml", config);
      for (const [path, text] of Object.entries(generated.files)) await workspace.write(path, text);
      return config;
    };
    const firstConfig = await write(first);
    const applied = await run(["apply", ...DEV, "--auto-approve"]);
    if (applied.code !== 0) return explain("first apply", applied, firstConfig, first.files);

    const next = over(first, second);
    const config = await write(next);
    const planned = await run(["plan", ...DEV, "--out", "plan.json"]);
    if (planned.code !== 0) return explain("plan --out", planned, config, next.files);
    const text = planned.stdout;
    const shown = await run(["show", "plan.json"], { url: null });
    expect(shown.stdout, "show prints what plan printed").toBe(text);
    const live = (await json(["plan", ...DEV], { schema: "plan" })).value as Plan;
    const saved = (await json(["show", "plan.json"], { url: null, schema: "plan" })).value as Plan;
    expect(actionsOf(saved), "the saved plan is the plan").toEqual(actionsOf(live));
    expect(saved.summary).toEqual(live.summary);
    const comment = await run(["plan", ...DEV, "--output", "markdown"]);
    const shownComment = await run(["show", "plan.json", "--output", "markdown"], { url: null });
    // The rendered messages need the config (its preview examples): show, offline, has none.
    const withoutMessages = comment.stdout.replace(/#### Messages: [\s\S]*?(?=#### )/, "");
    expect(shownComment.stdout, "show's comment is plan's").toBe(withoutMessages);

    // Every action that sends anything is shown, with every field it changes.
    const lines = text.split("\n");
    const sending = saved.actions.filter((a) => a.requests.length > 0);
    for (const action of sending) {
      const head = `  ${OP_SYMBOL[action.op]} ${describeKind(action.kind)} ${visibleKey(action.key)}`;
      const at = lines.indexOf(head);
      expect(at, `${action.id} is shown\n${text}`).toBeGreaterThanOrEqual(0);
      expect(action.changes.length, `${action.id} sends, so it shows a change`).toBeGreaterThan(0);
      const body = lines.slice(
        at + 1,
        lines.findIndex((l, i) => i > at && l.startsWith("  ") && !l.startsWith("    ")),
      );
      for (const change of action.changes) {
        const start = `      ${changeStart(change.field)}`;
        expect(
          body.some((line) => line.startsWith(start)),
          `${action.id}: ${change.field} is shown\n${text}`,
        ).toBe(true);
      }
    }

    test.emulator.requests.length = 0;
    const sent = await run(["apply", "plan.json", ...DEV]);
    if (sent.code !== 0) return explain("apply plan.json", sent, config, next.files);
    const writes = test.emulator.requests.filter((r) => r.method !== "GET");
    const left = sending.flatMap((action) => action.requests.map((request) => ({ action, request })));
    for (const request of writes) {
      const at = left.findIndex((p) => matches(p.request, request));
      expect(
        at,
        `${request.method} ${request.path} ${JSON.stringify(request.body)} was planned and shown`,
      ).toBeGreaterThanOrEqual(0);
      left.splice(at, 1);
    }
    // A request with `when` (a created workflow's identifier) is sent only when its answer asks.
    expect(
      left
        .filter((p) => p.request.when === undefined)
        .map((p) => `${p.action.id}: ${p.request.method} ${p.request.path}`),
      "every planned request was sent",
    ).toEqual([]);

    const again = await run(["plan", ...DEV, "--detailed-exitcode"]);
    if (again.code !== 0) return explain("plan after apply plan.json", again, config, next.files);
    return undefined;
  } finally {
    await test.close();
  }
}

describe("the plan a reviewer reads is what apply sends (over HTTP, generative)", () => {
  it("plan --out, show and plan --output json agree, and apply FILE sends only shown changes", async () => {
    await fc.assert(
      fc.asyncProperty(configArb, configArb, async (first, second) => {
        expect(await agrees(first, second)).toBeUndefined();
      }),
      { seed: 20_260_519, numRuns: 3, endOnFailure: true },
    );
  }, 120_000);
});
