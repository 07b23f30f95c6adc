// The pure parts of held secrets: which desired fields hold a value from the environment, what
// the state records before an apply, and the planner withholding the old side of a held field.
import { describe, expect, it } from "vitest";
import {
  heldSecretsBeforeApply,
  secretFieldsOf,
  secretValuesBeforeApply,
  withholdHeldSecrets,
} from "../../src/plan/held-secrets.js";
import { planChanges } from "../../src/plan/plan-changes.js";
import { keyedDigest, protector, secretHolder, unprotected } from "../../src/secrets/keyed-digest.js";
import type { StateFile } from "../../src/state/model.js";
import { desiredState, liveSnapshot, noState, TARGET, topic } from "../helpers/builders.js";

const SECRET = "tok_9f8e7d";

function desiredWith(names: Record<string, string>, sensitive: string[] = [SECRET]) {
  const desired = desiredState({ topics: Object.entries(names).map(([key, name]) => ({ key, name })) });
  return { ...desired, sensitive };
}

function withHeld(heldSecrets: StateFile["heldSecrets"]): StateFile {
  return { ...noState(), ...(heldSecrets === undefined ? {} : { heldSecrets }) };
}

describe("secretFieldsOf", () => {
  it("names each field holding a value from the environment, as it is or JSON-escaped", () => {
    const quoted = 'a"b';
    const desired = desiredWith({ orders: `Orders ${SECRET}`, news: "News", quoted: `x ${quoted}` }, [
      SECRET,
      quoted,
    ]);
    expect(Object.fromEntries(secretFieldsOf(desired, secretHolder(desired.sensitive)))).toEqual({
      "topic/orders": ["name"],
      "topic/quoted": ["name"],
    });
  });

  it("names none when nothing came from the environment", () => {
    const desired = desiredWith({ orders: "Orders" }, []);
    expect(secretHolder(desired.sensitive)).toBeUndefined();
    expect(secretFieldsOf(desired, undefined).size).toBe(0);
  });
});

describe("heldSecretsBeforeApply", () => {
  const holds = secretHolder([SECRET]);

  it("adds the desired fields holding a secret to those recorded, sorted and once", () => {
    const desired = desiredWith({ orders: `Orders ${SECRET}` });
    const next = heldSecretsBeforeApply(
      { "topic/orders": ["name"], "topic/gone": ["name"] },
      desired,
      holds,
      {
        actions: [],
      },
      unprotected,
    );
    expect({ ...next }).toEqual({ "topic/orders": ["name"], "topic/gone": ["name"] });
    expect(Object.getPrototypeOf(next)).toBe(null);
  });

  it("releases a field only when the whole config's plan finds it in sync with a value holding none", () => {
    const desired = desiredWith({ orders: "Orders", news: "News" });
    const held = { "topic/orders": ["name"], "topic/news": ["name"], "topic/dropped": ["name"] };
    const changing = [{ id: "topic/news", changes: [{ field: "name", new: "News" }] }] as never;
    // A plan of part of the config (a saved plan, --target) releases nothing.
    expect({ ...heldSecretsBeforeApply(held, desired, holds, undefined, unprotected) }).toEqual(held);
    // The whole config: orders is in sync (released); news still changes; dropped is not managed.
    expect({ ...heldSecretsBeforeApply(held, desired, holds, { actions: changing }, unprotected) }).toEqual({
      "topic/news": ["name"],
      "topic/dropped": ["name"],
    });
  });

  it("keeps a __proto__ key as a record like any other", () => {
    const desired = desiredWith({ ["__proto__"]: `P ${SECRET}` });
    const next = heldSecretsBeforeApply(undefined, desired, holds, { actions: [] }, unprotected);
    expect(Object.keys(next)).toEqual(["topic/__proto__"]);
  });
});

describe("withholdHeldSecrets, in the planner", () => {
  it("shows a held field's old side as the mask, and every other field's as it is", () => {
    const desired = desiredWith({ orders: "Orders", news: "News v2" }, []);
    const live = liveSnapshot({ topics: [topic("orders", `Orders ${SECRET}`), topic("news", "News")] });
    const plan = planChanges({
      desired,
      live,
      state: withHeld({ "topic/orders": ["name"] }),
      target: TARGET,
      createdBy: "test",
    });
    expect(plan.actions.map((a) => [a.id, a.changes])).toEqual([
      ["topic/news", [{ field: "name", old: "News", new: "News v2" }]],
      ["topic/orders", [{ field: "name", old: "********", new: "Orders" }]],
    ]);
    expect(JSON.stringify(plan)).not.toContain(SECRET);
  });

  it("matches a field whose name holds a secret by its keyed digest, the form the state keeps it in", () => {
    const protect = protector([SECRET], keyedDigest("nf_test_key_1"));
    const field = `steps["mail ${SECRET}"].template.subject`;
    const kept = String(protect(field));
    expect(kept).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    const actions = [{ id: "workflow/w", changes: [{ field, old: "before", new: "after" }] }] as never[];
    expect(withholdHeldSecrets(actions, { "workflow/w": [kept] }, protect)[0]).toEqual({
      id: "workflow/w",
      changes: [{ field, old: "********", new: "after" }],
    });
    // Under another key the digest is another: the old side is not withheld (the state's values
    // plan as unverified then, as the state file's docs say).
    const other = protector([SECRET], keyedDigest("nf_test_key_2"));
    expect(withholdHeldSecrets(actions, { "workflow/w": [kept] }, other)[0]).toBe(actions[0]);
  });

  it("returns the very actions when nothing is held, and leaves a create's absent old side absent", () => {
    const actions = [
      { id: "topic/a", changes: [{ field: "name", new: "A" }] },
      { id: "topic/b", changes: [{ field: "name", old: "x", new: "B" }] },
    ] as never[];
    expect(withholdHeldSecrets(actions, undefined, unprotected)).toBe(actions);
    expect(withholdHeldSecrets(actions, {}, unprotected)).toBe(actions);
    const held = withholdHeldSecrets(actions, { "topic/a": ["name"], "topic/b": ["name"] }, unprotected);
    expect(held[0]).toBe(actions[0]);
    expect(held[1]).toEqual({ id: "topic/b", changes: [{ field: "name", old: "********", new: "B" }] });
  });
});

describe("secretValuesBeforeApply", () => {
  it("keeps the keyed digest of each text holding a secret, once, beside those recorded", () => {
    const keyed = keyedDigest("nf_test_key_1");
    const desired = desiredWith({ orders: `Orders ${SECRET}`, news: "News", again: `Orders ${SECRET}` });
    const values = secretValuesBeforeApply(["hmac-sha256:recorded"], desired, secretHolder([SECRET]), keyed);
    expect(values).toEqual(["hmac-sha256:recorded", keyed(`Orders ${SECRET}`)].sort());
    expect(values.join()).not.toContain(SECRET);
    expect(secretValuesBeforeApply(undefined, desired, undefined, keyed)).toEqual([]);
  });
});
