// The look at a file's text before it is parsed (scanSectionCounts) is a lower bound: the reads
// it starts must never be more than the parse would start. For every text the YAML library
// parses without error, each count it gives is at most the length of that section's list, and
// for the block lists configs are written in it is exactly that length.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isMap, isScalar, isSeq, parseDocument, stringify } from "yaml";
import { STEPS_COUNT, scanSectionCounts } from "../../src/config/section-scan.js";
import { yamlFilesUnder } from "../helpers/yaml-files.js";

const ROOT = join(import.meta.dirname, "..", "..");

/** Top-level section -> list length, from the library's parse (undefined: not a valid document). */
function parsedCounts(text: string): Map<string, number> | undefined {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) return undefined;
  const counts = new Map<string, number>();
  if (!isMap(doc.contents)) return counts;
  for (const pair of doc.contents.items) {
    if (isScalar(pair.key) && isSeq(pair.value)) counts.set(String(pair.key.value), pair.value.items.length);
    const managed =
      isScalar(pair.key) && pair.key.value === "workflows" && isSeq(pair.value)
        ? pair.value.items.filter((item) => isMap(item) && item.has("steps")).length
        : 0;
    if (managed > 0) counts.set(STEPS_COUNT, managed);
  }
  return counts;
}

function expectLowerBound(text: string): void {
  const parsed = parsedCounts(text);
  if (parsed === undefined) return;
  for (const [section, count] of scanSectionCounts(text)) {
    expect(count, `${section} in:\n${text}`).toBeLessThanOrEqual(parsed.get(section) ?? 0);
  }
}

describe("scanSectionCounts", () => {
  it("counts the workflows whose content the config manages (a steps: field of their own)", () => {
    const text = [
      "workflows:",
      "  - identifier: a",
      "    steps:",
      "      - name: s",
      "        steps: not-this-one",
      "  - steps: []",
      "    identifier: b",
      "  - identifier: c",
      "    data:",
      "      steps: 1",
    ].join("\n");
    expect(scanSectionCounts(text).get(STEPS_COUNT)).toBe(2);
    expect(parsedCounts(text)?.get(STEPS_COUNT)).toBe(2);
  });

  it("counts the entries of block lists, at any indentation, and skips comments and blank lines", () => {
    const text = [
      "---",
      "version: 1",
      "topics:",
      "  # the first",
      "  - key: a",
      "    name: A",
      "",
      "  - key: b",
      "    tags:",
      "      - nested, not an entry of topics",
      "workflows:",
      "- key: w",
      "  id: x",
      "-",
      "  key: v",
      "overrides: # none yet",
      "",
    ].join("\n");
    expect(scanSectionCounts(text)).toEqual(
      new Map([
        ["topics", 2],
        ["workflows", 2],
      ]),
    );
    expect(parsedCounts(text)).toEqual(
      new Map([
        ["topics", 2],
        ["workflows", 2],
      ]),
    );
  });

  it("does not count what only looks like an entry: block scalars, flow lists, anchors, mappings", () => {
    const text = [
      "topics:",
      "  - key: a",
      "    description: |",
      "      - a line of text",
      "      - another",
      "workflows: [{ key: a }, { key: b }]",
      "overrides: &all",
      "  - workflow: a",
      "    tenant: t",
      "branding:",
      "  - not a list section",
      "notificationGroups:",
      "  general:",
      "    - x",
    ].join("\n");
    // branding's value is a list here (the schema refuses it later): counted, as the parse would.
    expect(scanSectionCounts(text)).toEqual(
      new Map([
        ["topics", 1],
        ["branding", 1],
      ]),
    );
    expectLowerBound(text);
  });

  it("stops at a tab in the indentation, a second document or the end marker", () => {
    expect(scanSectionCounts("topics:\n  - key: a\n\t- key: b\n  - key: c\n")).toEqual(
      new Map([["topics", 1]]),
    );
    expect(scanSectionCounts("topics:\n  - key: a\n---\ntopics:\n  - key: b\n")).toEqual(
      new Map([["topics", 1]]),
    );
    expect(scanSectionCounts("topics:\n  - key: a\n...\n")).toEqual(new Map([["topics", 1]]));
    expect(scanSectionCounts("topics:\r\n  - key: a\r\n  - key: b\r\n")).toEqual(new Map([["topics", 2]]));
  });

  it("is exact for every list section of the repository's YAML files, and never over", () => {
    const files = [
      ...yamlFilesUnder(join(ROOT, "examples")),
      ...yamlFilesUnder(join(ROOT, "test", "fixtures")),
    ];
    expect(files.length).toBeGreaterThan(20);
    let exact = 0;
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      expectLowerBound(text);
      const parsed = parsedCounts(text);
      const scanned = scanSectionCounts(text);
      for (const [section, count] of parsed ?? [])
        if (scanned.get(section) === count && count > 0) exact += 1;
    }
    expect(exact).toBeGreaterThan(10);
  });

  it("is a lower bound on generated documents, and exact on the library's own block lists", () => {
    const scalar = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.integer(),
      fc.boolean(),
      fc.constantFrom("- x", "|\n- y", "a: b", "#", "key: |", "  - z"),
    );
    const entry = fc.oneof(
      scalar,
      fc.dictionary(
        fc.constantFrom("key", "name", "description", "tags"),
        fc.oneof(scalar, fc.array(scalar)),
        {
          maxKeys: 3,
        },
      ),
    );
    const sections = fc.dictionary(
      fc.constantFrom("topics", "workflows", "overrides", "notificationGroups", "version"),
      fc.oneof(fc.array(entry, { maxLength: 6 }), scalar),
      { maxKeys: 5 },
    );
    fc.assert(
      fc.property(sections, fc.boolean(), fc.constantFrom(0, 2, 4), (value, flow, indent) => {
        const text = stringify(value, {
          indentSeq: indent > 0,
          indent: Math.max(2, indent),
          flowCollectionPadding: flow,
        });
        expectLowerBound(text);
        const parsed = parsedCounts(text) ?? new Map();
        const scanned = scanSectionCounts(text);
        for (const [section, count] of parsed) {
          // The library writes an empty list as [], which is not a block list: nothing to count.
          if (count > 0) expect(scanned.get(section), `${section} in:\n${text}`).toBe(count);
        }
      }),
      { numRuns: 300 },
    );
  });
});
