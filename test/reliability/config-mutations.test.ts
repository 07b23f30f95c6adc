// Generative: random mutations of a valid config (deleted and duplicated lines, swapped value
// types, random bytes, truncation, broken indentation). Whatever the input, `notiform validate`
// must answer with exit 0 or 1 and a message, never a crash or a stack trace. Seeded: repeatable.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createWorkspace, runCli } from "../support/cli.js";

const VALID = `version: 1
organization: Acme Inc
topics:
  - key: order-updates
    name: Order updates
  - key: newsletter
    name: \${NEWSLETTER_NAME:-Newsletter}
notificationGroups:
  - key: billing
    name: Billing
workflows:
  - key: order-shipped
    id: 64f1c0ffee0000000000a001
    name: Order shipped
    active: true
    notificationGroup: billing
    preferenceSettings: { email: true, sms: false }
overrides:
  - workflow: order-shipped
    tenant: 650000000000000000000001
    active: false
    preferenceSettings: { email: true, sms: false, in_app: true, chat: false, push: false }
`;

const REPLACEMENTS = [
  "[1, 2]",
  "{ a: 1 }",
  "123",
  "true",
  "null",
  '""',
  "~",
  "&a",
  "*b",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: an interpolation reference, as a user would write it.
  "${UNSET_VAR}",
  "'",
];

type Mutation = (lines: string[]) => string[];

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.nat().map(
    (n): Mutation =>
      (lines) =>
        lines.filter((_, i) => i !== n % lines.length),
  ),
  fc.nat().map(
    (n): Mutation =>
      (lines) =>
        lines.flatMap((l, i) => (i === n % lines.length ? [l, l] : [l])),
  ),
  fc.tuple(fc.nat(), fc.constantFrom(...REPLACEMENTS)).map(
    ([n, value]): Mutation =>
      (lines) =>
        lines.map((l, i) =>
          i === n % lines.length && l.includes(":") ? `${l.slice(0, l.indexOf(":") + 1)} ${value}` : l,
        ),
  ),
  fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 8 })).map(
    ([n, bytes]): Mutation =>
      (lines) =>
        lines.map((l, i) => (i === n % lines.length ? l + Buffer.from(bytes).toString("latin1") : l)),
  ),
  fc.nat().map(
    (n): Mutation =>
      (lines) =>
        lines.slice(0, n % lines.length),
  ),
  fc.nat().map(
    (n): Mutation =>
      (lines) =>
        lines.map((l, i) => (i === n % lines.length ? ` ${l}` : l)),
  ),
);

describe("validate on randomly broken configs", () => {
  it("always exits 0 or 1 with a message and never a stack trace", async () => {
    const cases = fc.sample(fc.array(mutation, { minLength: 1, maxLength: 3 }), {
      numRuns: 24,
      seed: 20261122,
    });
    const workspace = await createWorkspace();
    for (const [index, mutations] of cases.entries()) {
      const text = mutations.reduce((lines, m) => m(lines), VALID.split("\n")).join("\n");
      await workspace.write("notiform.yaml", text);
      const result = await runCli(["validate"], { cwd: workspace.dir, env: {} });
      const context = `case ${index}:\n${text}\n--- stderr:\n${result.stderr}`;
      expect([0, 1], context).toContain(result.code);
      expect(result.stderr, context).not.toMatch(/\n\s+at |internal error/);
      if (result.code === 1) expect(result.stderr, context).toMatch(/notiform\.yaml(:\d+:\d+)?/);
      else expect(result.stdout, context).toMatch(/valid/);
    }
  });
});
