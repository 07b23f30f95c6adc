// A kind's desired items built a slice of entries at a time (desiredItemsInTurns, used while the
// reads are in flight) are the items built at once: for every kind of a config that uses every
// kind with several entries each, slices of 2. A kind whose items came to depend on its own other
// entries would fail here.
import { describe, expect, it } from "vitest";
import { desiredItemsInTurns, desiredItemsOf } from "../../src/kinds/desired-items.js";
import type { KindModule } from "../../src/kinds/kind.js";
import { KINDS, type Kind, registry } from "../../src/kinds/registry.js";
import { loadConfig } from "../../src/loader/index.js";
import { createWorkspace } from "../support/cli.js";

const WORKFLOW_IDS = ["64f1c0ffee00000000000001", "64f1c0ffee00000000000002", "64f1c0ffee00000000000003"];

const CONFIG = `version: 1
organization: Every Kind Inc
branding:
  color: "#0f62fe"
topics:
${[1, 2, 3, 4, 5].map((i) => `  - key: topic-${i}\n    name: Topic ${i}`).join("\n")}
notificationGroups:
${[1, 2, 3].map((i) => `  - key: group-${i}\n    name: Group ${i}`).join("\n")}
layouts:
${[1, 2, 3].map((i) => `  - identifier: layout-${i}\n    name: Layout ${i}\n    content: "<main>{{{body}}}</main>"`).join("\n")}
tenants:
${[1, 2, 3].map((i) => `  - identifier: tenant-${i}\n    name: Tenant ${i}\n    data: { seats: ${i} }`).join("\n")}
workflows:
${WORKFLOW_IDS.map(
  (id, i) => `  - key: workflow-${i}
    id: ${id}
    notificationGroup: group-${i + 1}
    steps:
      - name: email
        type: email
        template:
          subject: "Order {{orderId}} (${i})"
          content: "<p>Hello {{name}}</p>"
          layout: layout-${(i % 3) + 1}`,
).join("\n")}
overrides:
${[0, 1, 2]
  .flatMap((w) =>
    [1, 2, 3].map((t) => `  - workflow: workflow-${w}\n    tenant: tenant-${t}\n    active: ${t % 2 === 0}`),
  )
  .join("\n")}
`;

describe("desiredItemsInTurns", () => {
  it("builds, slice by slice, the items every kind builds at once, and caches them", async () => {
    const workspace = await createWorkspace({ "notiform.yaml": CONFIG });
    try {
      const { desired } = await loadConfig({ cwd: workspace.dir, vars: {} });
      let turns = 0;
      for (const kind of KINDS) {
        const module = registry[kind] as KindModule<Kind>;
        const whole = module.desiredItems(desired);
        const sliced = await desiredItemsInTurns(module, desired, async () => (turns += 1), 2);
        expect(sliced, kind).toEqual(whole);
        // The cache holds the sliced build: later callers (the planner) get the same items.
        expect(desiredItemsOf(module, desired), kind).toBe(sliced);
      }
      // Every list kind above has more than two entries: each was built in more than one slice.
      expect(turns).toBeGreaterThanOrEqual(6);
    } finally {
      await workspace.remove();
    }
  });
});
