// Apply against a hostile network, at a small scale and seeded so runs repeat: 10 % 5xx,
// dropped connections, lost responses (the write happened, the answer did not arrive) and 429
// bursts. Re-running apply must converge with zero duplicate creates and zero lost changes.
import { describe, expect, it } from "vitest";
import { cliTests } from "../support/cli.js";
import { buildScaleConfig, scaleSeed } from "./scale-config.js";

const cliTest = cliTests();

describe("apply under faults", () => {
  it.each([1, 2, 3])(
    "converges under 5xx, drops, lost responses and 429s with no duplicate and nothing lost (fault seed %i)",
    async (faultSeed) => {
      const scale = { topics: 40, groups: 4, workflows: 3, tenants: 12 };
      const { emulator, cli } = await cliTest({
        config: buildScaleConfig(scale),
        seed: scaleSeed(scale),
        faultSeed,
        errorRate: 0.1,
        dropRate: 0.03,
        lostResponseRate: 0.05,
        rateLimit: { perSecond: 200, burst: 20 },
      });

      // Each run either finishes (0) or reports what failed (1/3); a re-run picks up the rest.
      const codes: (number | null)[] = [];
      for (let run = 0; run < 6 && codes.at(-1) !== 0; run += 1) {
        const result = await cli("apply", "--auto-approve", "--continue-on-error");
        expect(result.stderr).not.toMatch(/\n\s+at /);
        codes.push(result.code);
      }
      expect(codes.at(-1), `exit codes of the runs: ${codes.join(", ")}`).toBe(0);
      expect(codes.every((code) => code === 0 || code === 1 || code === 3)).toBe(true);

      // Nothing duplicated: one topic per key, one group per name, one override per pair.
      const store = emulator.store("development");
      const topicKeys = store.topics.map((t) => t.key);
      expect(new Set(topicKeys).size).toBe(topicKeys.length);
      const groupNames = store.notificationGroups.map((g) => g.name);
      expect(new Set(groupNames).size).toBe(groupNames.length);
      const pairs = store.overrides.map((o) => `${o._workflowId}/${o._tenantId}`);
      expect(new Set(pairs).size).toBe(pairs.length);

      // Nothing lost: with the faults off, the plan is empty.
      emulator.setFaults({ errorRate: 0, dropRate: 0, lostResponseRate: 0, rateLimit: undefined });
      const plan = await cli("plan", "--detailed-exitcode");
      expect(plan.stdout).toContain("No changes.");
      expect(plan.code).toBe(0);
    },
  );
});
