// Secrets the config stops naming, found again by their keyed digest (the state's secretValues)
// where no field record reaches: in a plan's requests, in what the state file is given to keep,
// and in a promotion's diffs, fields and names. Pure units; the CLI paths are in
// test/security/held-secrets.test.ts and the generative test/security/secrets-any-form.test.ts.
import { describe, expect, it } from "vitest";
import { StateRecorder } from "../../src/apply/state-recorder.js";
import { heldTextsOf } from "../../src/plan/held-secrets.js";
import type { Plan } from "../../src/plan/model.js";
import { withholdPromotionSecrets } from "../../src/promote/held-secrets.js";
import type { Promotion, PromotionEntry } from "../../src/promote/model.js";
import { keyedDigest, unprotected } from "../../src/secrets/keyed-digest.js";
import { emptyState } from "../../src/state/model.js";
import { TARGET } from "../helpers/builders.js";

const keyed = keyedDigest("nf_test_key_held");
const SECRET_TEXT = "Orders tok_9f8e7d";
const secretValues = [keyed(SECRET_TEXT)];

describe("heldTextsOf", () => {
  it("finds a held text in a change, a request's body and an unmanaged name, and nothing else", () => {
    const plan = {
      actions: [
        {
          changes: [{ field: "name", old: "Orders", new: "Orders v2" }],
          requests: [
            { method: "PUT", path: "/v1/workflows/w1", body: { steps: [{ subject: SECRET_TEXT }] } },
          ],
        },
      ],
      unmanaged: [{ kind: "topic", key: "t", name: SECRET_TEXT }],
    } as unknown as Plan;
    const unchanged = (text: string) => text;
    expect(heldTextsOf(plan, secretValues, keyed, unchanged)).toEqual([SECRET_TEXT]);
    expect(heldTextsOf(plan, [], keyed, unchanged)).toEqual([]);
    expect(heldTextsOf(plan, [keyedDigest("another key")(SECRET_TEXT)], keyed, unchanged)).toEqual([]);
  });

  it("leaves a held text that holds a value the masker still knows to the masker", () => {
    const plan = {
      actions: [{ changes: [{ field: "name", old: "Orders", new: SECRET_TEXT }], requests: [] }],
      unmanaged: [],
    } as unknown as Plan;
    const masking = (text: string) => text.replaceAll("tok_9f8e7d", "********");
    expect(heldTextsOf(plan, secretValues, keyed, masking)).toEqual([]);
  });
});

describe("the state recorder", () => {
  it("keeps a value holding a held text as its keyed digest, though protect does not know it", async () => {
    const state = { ...emptyState(TARGET), secretValues };
    const recorder = new StateRecorder(state, undefined, unprotected, keyed);
    await recorder.record({
      section: "workflows",
      id: "w1",
      key: "orders",
      values: { tags: ["plain", SECRET_TEXT], name: "Orders" },
    });
    const values = recorder.state.workflows.w1?.values ?? {};
    expect(values.name).toBe("Orders");
    expect(values.tags).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(JSON.stringify(recorder.state)).not.toContain("tok_9f8e7d");
  });
});

function entry(parts: Partial<PromotionEntry>): PromotionEntry {
  return {
    changeId: "c1",
    changeType: "NotificationTemplate",
    kind: "workflow",
    entityId: "w1",
    name: "Orders",
    managed: true,
    fields: [],
    digest: "sha256:0",
    ...parts,
  };
}

function promotion(entries: PromotionEntry[], unmanaged: PromotionEntry[] = []): Promotion {
  return {
    formatVersion: 1,
    createdBy: "test",
    target: {
      apiUrl: TARGET.apiUrl,
      organization: TARGET.organization,
      environment: null,
      environmentId: "e",
    },
    all: false,
    entries,
    unmanaged,
    summary: { promote: entries.length, unmanaged: unmanaged.length, pending: entries.length },
    warnings: [],
  };
}

describe("withholdPromotionSecrets", () => {
  const secretStep = "mail tok_9f8e7d";
  const state = { secretValues: [...secretValues, keyed(secretStep)] };

  it("withholds the side that holds a held text, and renames a step named by one", () => {
    const out = withholdPromotionSecrets(
      promotion([
        entry({
          key: "orders",
          diff: [
            { field: "notificationGroup", old: SECRET_TEXT, new: "Orders" },
            { field: `steps[${JSON.stringify(secretStep)}].active`, old: false, new: true },
            { field: "description", old: "a", new: "b" },
          ],
        }),
      ]),
      state,
      keyed,
    );
    expect(out.entries[0]?.diff).toEqual([
      { field: "notificationGroup", old: "********", new: "Orders" },
      { field: 'steps["********"].active', old: "********", new: "********" },
      { field: "description", old: "a", new: "b" },
    ]);
  });

  it("withholds a pending change's name and field values holding one, and an unmanaged layout's held field by identifier", () => {
    const out = withholdPromotionSecrets(
      promotion(
        [],
        [
          entry({
            kind: "notificationGroup",
            managed: false,
            name: SECRET_TEXT,
            fields: [{ field: "tags", op: "set", value: ["x", SECRET_TEXT] }],
          }),
          entry({
            kind: "layout",
            managed: false,
            identifier: "brand",
            fields: [{ field: "description", op: "set", value: "not a held text" }],
          }),
        ],
      ),
      { ...state, heldSecrets: { "layout/brand": ["description"] } },
      keyed,
    );
    expect(out.unmanaged.map((e) => [e.name, e.fields])).toEqual([
      ["********", [{ field: "tags", op: "set", value: "********" }]],
      ["Orders", [{ field: "description", op: "set", value: "********" }]],
    ]);
  });

  it("returns the very promotion when the state holds nothing", () => {
    const same = promotion([entry({ diff: [{ field: "name", old: SECRET_TEXT, new: "x" }] })]);
    expect(withholdPromotionSecrets(same, {}, keyed)).toBe(same);
  });
});
