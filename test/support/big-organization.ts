// A large organization for tests of how a plan reads: "Big Inc" (key nf_test_big, reaching
// Development) with `topics` topics, topic-000 "Topic 0" onwards, ten to a page, and whatever
// else the test's Development environment holds.
import type { Seed, SeedEnvironment } from "../../src/emulator/index.js";

/** The key of the big organization's topic number `i`. */
export const topicKey = (i: number): string => `topic-${String(i).padStart(3, "0")}`;

export function bigOrganization(topics: number, development: SeedEnvironment = {}): Seed {
  return {
    organization: { name: "Big Inc" },
    apiKeys: [{ key: "nf_test_big", environment: "development" }],
    environments: {
      development: {
        topics: Array.from({ length: topics }, (_, i) => ({ key: topicKey(i), name: `Topic ${i}` })),
        ...development,
      },
    },
  };
}
