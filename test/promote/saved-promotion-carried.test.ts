// A saved promotion's carried layouts (a real server nests a layout's pending change in a
// workflow's and lists it no more) are checked by content: no listed change moves when such a
// layout is edited again, so Development's layout now must be the one reviewed, or nothing is
// promoted. Values from the environment are compared masked, as they were saved.
import { describe, expect, it } from "vitest";
import type { Layout } from "../../src/kinds/layout/wire.js";
import type { CarriedLayout } from "../../src/promote/model.js";
import { carriedLayoutDigest } from "../../src/promote/production-diff.js";
import { checkCarriedFresh } from "../../src/promote/saved-promotion.js";

const BRAND: Layout = {
  _id: "6b048b903f565f01deca0001",
  identifier: "brand",
  name: "Brand",
  content: "<main>{{{body}}}</main><footer>Acme Inc, s3cr3t-token</footer>",
  variables: [{ name: "footer", type: "String", required: false, defaultValue: "" }],
};

const unmasked = <T>(value: T): T => value;
/** Masks the one value that came from the environment, as a run's masker does. */
const masking = <T>(value: T): T => JSON.parse(JSON.stringify(value).replaceAll("s3cr3t-token", "***")) as T;

function carried(layout: Layout, mask: <T>(value: T) => T): CarriedLayout {
  return {
    entityId: layout._id,
    key: layout.identifier,
    workflows: ["order-shipped", "welcome"],
    diff: [],
    digest: carriedLayoutDigest(layout, mask),
  };
}

describe("checkCarriedFresh", () => {
  it("accepts Development's layouts as reviewed, whatever else Development holds", () => {
    const other: Layout = { _id: "6b048b903f565f01deca0002", identifier: "plain", content: "{{{body}}}" };
    expect(() => checkCarriedFresh([carried(BRAND, unmasked)], [other, BRAND], unmasked)).not.toThrow();
  });

  it("refuses, naming the layout and its workflows, when one changed in any compared field", () => {
    const edits: Partial<Layout>[] = [
      { content: `${BRAND.content}<p>Berlin</p>` },
      { name: "Brand 2" },
      { description: "new" },
      { variables: [{ name: "footer", type: "String", required: true, defaultValue: "" }] },
      // Production's copy takes the identifier when the layout is promoted.
      { identifier: "brand-renamed" },
    ];
    for (const edit of edits)
      expect(() => checkCarriedFresh([carried(BRAND, unmasked)], [{ ...BRAND, ...edit }], unmasked)).toThrow(
        "the saved promotion is stale, nothing was promoted: layout brand, used by workflows order-shipped, welcome (no change of its own listed) changed in Development since",
      );
  });

  it("refuses when one is gone from Development", () => {
    expect(() => checkCarriedFresh([carried(BRAND, unmasked)], [], unmasked)).toThrow(
      "layout brand, used by workflows order-shipped, welcome (no change of its own listed) is gone from Development",
    );
  });

  it("compares masked, as saved: a layout whose only difference is a masked value passes", () => {
    const saved = carried(BRAND, masking);
    expect(() => checkCarriedFresh([saved], [BRAND], masking)).not.toThrow();
    expect(() => checkCarriedFresh([saved], [BRAND], unmasked)).toThrow(/changed in Development since/);
  });
});
