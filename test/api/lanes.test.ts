// mapInLanes (src/lanes.ts): many reads with at most `lanes` under way, results in order, and
// nothing started after a failure. The reads of many ids (workflows with content, topics by key)
// and of many pages go through it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mapInLanes } from "../../src/lanes.js";

/** A few turns of the event loop: long enough for the other lanes to have their turn. */
async function someTurns(turns: number): Promise<void> {
  for (let turn = 0; turn < turns; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe("mapInLanes", () => {
  it("keeps at most `lanes` under way and gives every result in the items' order", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        async (delays, lanes) => {
          let running = 0;
          let most = 0;
          const results = await mapInLanes(delays, lanes, async (delay, index) => {
            running += 1;
            most = Math.max(most, running);
            await someTurns(delay);
            running -= 1;
            return index * 10;
          });
          expect(results).toEqual(delays.map((_, index) => index * 10));
          expect(most).toBeLessThanOrEqual(lanes);
          if (delays.length >= lanes && delays.some((d) => d > 0)) expect(most).toBe(lanes);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("starts nothing after a failure, and throws it", async () => {
    const started: number[] = [];
    const items = Array.from({ length: 100 }, (_, i) => i);
    await expect(
      mapInLanes(items, 4, async (item) => {
        started.push(item);
        await someTurns(2);
        if (item === 10) throw new Error("item 10 failed");
        return item;
      }),
    ).rejects.toThrow("item 10 failed");
    await someTurns(10);
    // Items 11 to 13 were under way beside 10 (four lanes); none was started after it failed.
    expect(Math.max(...started)).toBeLessThanOrEqual(13);
  });

  it("gives an empty list for no items", async () => {
    expect(await mapInLanes([], 8, async () => 1)).toEqual([]);
  });
});
