// Lists far larger than the call stack allows as arguments (200,000 items) pass through the
// functions that used to spread them into push(...): each would throw "Maximum call stack size
// exceeded" if a spread came back.
import { describe, expect, it } from "vitest";
import { dataFromSeed } from "../../src/emulator/seed-data.js";
import { emptyResources } from "../../src/loader/defaults.js";
import { layer } from "../../src/loader/merge.js";
import { Masker } from "../../src/mask.js";

const HUGE = 200_000;
const pos = { file: "notiform.yaml", line: 1, col: 1 };

describe("huge lists do not overflow the stack", () => {
  it("layers an environment over a base of 200,000 topics", () => {
    const base = emptyResources();
    for (let n = 0; n < HUGE; n += 1) {
      base.topic.push({ spec: { key: `t-${n}`, name: `T ${n}` }, source: { pos, fields: {} } });
    }
    const overlay = emptyResources();
    overlay.topic.push({ spec: { key: "t-7", name: "Seven" }, source: { pos, fields: {} } });
    const out = layer(base, overlay);
    expect(out.topic).toHaveLength(HUGE);
    expect(out.topic[7]?.spec.name).toBe("Seven");
  });

  it("builds emulator data from a seed with 200,000 tenants", () => {
    const tenants = Array.from({ length: HUGE }, (_, n) => ({
      _id: `66${n.toString(16).padStart(22, "0")}`,
      identifier: `tenant-${n}`,
    }));
    const data = dataFromSeed({ environments: { development: { tenants } } }, "2026-01-01T00:00:00.000Z");
    expect(data.environments.development.tenants).toHaveLength(HUGE);
  });

  it("registers 200,000 sensitive values for masking (the CLI's addAll, not a spread into add)", () => {
    const masker = new Masker().addAll(Array.from({ length: HUGE }, (_, n) => `secret-${n}`));
    expect(masker.size).toBe(HUGE);
    expect(masker.mask("the value secret-199999 is hidden")).toBe("the value ******** is hidden");
  });
});
