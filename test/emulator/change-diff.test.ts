// The emulator's change diff (a real server's add / update / delete at deep paths) on inputs the
// contract tests' captures do not reach: a very long list, and keys named like Object.prototype's.
import { describe, expect, it } from "vitest";
import { applyOps, diffOps } from "../../src/emulator/change-diff.js";

describe("the change diff", () => {
  it("takes a list of 200,000 items apart and back without overflowing the stack", () => {
    const long = Array.from({ length: 200_000 }, (_, i) => i);
    const ops = diffOps({ list: long }, { list: [] });
    expect(ops).toHaveLength(200_000);
    expect(applyOps({ list: [...long] }, ops)).toEqual({ list: [] });
  });

  it("reads keys named like Object.prototype's as the data's own", () => {
    expect(diffOps({}, { toString: 1 })).toEqual([{ op: "add", path: ["toString"], val: 1 }]);
    expect(diffOps({ constructor: 1 }, {})).toEqual([{ op: "delete", path: ["constructor"], oldVal: 1 }]);
  });

  it("closes the holes deletes leave in a list, keeping the order of what stays", () => {
    const before = { steps: ["a", "b", "c", "d"] };
    const after = { steps: ["a", "d"] };
    expect(applyOps(structuredClone(before), diffOps(before, after))).toEqual(after);
  });
});
