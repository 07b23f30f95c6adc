// Preview examples in the config (issue 34): `preview:` on a workflow, one example or a list of
// named ones, any of them (or a payload, or a subscriber) as `{ file: PATH }` of JSON or YAML read
// with the same confinement as `{ file: }` texts; a file that does not parse or holds no mapping is
// an error at the reference; the examples are not part of the config's digest (editing them
// changes no plan).
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/errors.js";
import { previewExamplesOf } from "../../src/kinds/workflow/preview-examples.js";
import { loadConfig } from "../../src/loader/index.js";
import { createWorkspace } from "../support/cli.js";

const workflow = (preview: string) => `version: 1
workflows:
  - identifier: order-shipped
    preview:
${preview}
    steps:
      - name: email
        type: email
        template: { subject: "Order {{orderId}}", content: "<p>{{orderId}}</p>" }
`;

async function examplesOf(files: Record<string, string>) {
  const ws = await createWorkspace(files);
  const { desired } = await loadConfig({ cwd: ws.dir, vars: {} });
  const spec = desired.resources.workflow[0]?.spec;
  if (spec === undefined) throw new Error("no workflow");
  return { examples: previewExamplesOf(spec), desired };
}

async function problemsOf(files: Record<string, string>, configPath: string): Promise<string[]> {
  const ws = await createWorkspace(files);
  try {
    await loadConfig({ cwd: ws.dir, vars: {}, configPath });
  } catch (error) {
    if (error instanceof ConfigError)
      return error.problems
        .filter((p) => p.severity === "error")
        .map((p) => `${p.pos.file}:${p.pos.line}:${p.pos.col} ${p.message}`);
    throw error;
  }
  return [];
}

describe("preview examples in the config", () => {
  it("reads one inline example, named example-1, with its payload and subscriber", async () => {
    const { examples } = await examplesOf({
      "notiform.yaml": workflow(
        "      payload: { orderId: A-1042, items: [{ name: Lamp }] }\n      subscriber: { firstName: Ada }",
      ),
    });
    expect(examples).toEqual([
      {
        name: "example-1",
        payload: { orderId: "A-1042", items: [{ name: "Lamp" }] },
        subscriber: { firstName: "Ada" },
      },
    ]);
  });

  it("reads a list of named examples, each from a file or its payload from JSON and YAML files", async () => {
    const { examples } = await examplesOf({
      "notiform.yaml": workflow(
        "      - name: big order\n        payload: { file: previews/big.json }\n        subscriber: { file: previews/ada.yaml }\n      - file: previews/whole.yaml",
      ),
      "previews/big.json": '{"orderId": "B-7", "items": [{"name": "Sofa"}, {"name": "Rug"}]}',
      "previews/ada.yaml": "firstName: Ada\nemail: ada@example.com\n",
      "previews/whole.yaml": "name: small\npayload:\n  orderId: S-1\n",
    });
    expect(examples).toEqual([
      {
        name: "big order",
        payload: { orderId: "B-7", items: [{ name: "Sofa" }, { name: "Rug" }] },
        subscriber: { firstName: "Ada", email: "ada@example.com" },
      },
      { name: "small", payload: { orderId: "S-1" }, subscriber: undefined },
    ]);
  });

  it("refuses a file outside the config's folder, a file that does not parse, one holding no mapping and one holding __proto__, at the reference", async () => {
    const problems = await problemsOf(
      {
        "project/notiform.yaml": workflow(
          "      - payload: { file: ../secret.json }\n      - payload: { file: broken.json }\n      - payload: { file: list.yaml }\n      - payload: { file: proto.json }",
        ),
        "secret.json": '{"token": "x"}',
        "project/broken.json": '{"orderId": ',
        "project/list.yaml": "- a\n- b\n",
        // JSON.parse and the YAML library make it an own key; a later copy would make it a prototype.
        "project/proto.json": '{\n  "name": "p",\n  "__proto__": {"polluted": 1}\n}',
      },
      "project/notiform.yaml",
    );
    expect(problems).toEqual([
      expect.stringMatching(
        /^project\/notiform.yaml:5:26 file "..\/secret.json" leads outside the config's folder/,
      ),
      expect.stringMatching(
        /^project\/notiform.yaml:6:26 file "broken.json" is not valid JSON or YAML \(line 1\)/,
      ),
      'project/notiform.yaml:7:26 file "list.yaml" must hold a mapping (a JSON object), not a list',
      'project/notiform.yaml:8:26 file "proto.json" holds the key __proto__ (line 3), which is not allowed (it would be read as an object\'s prototype, not as data)',
    ]);
  });

  it("checks what a file example holds, past the schema: payload a mapping, names unique", async () => {
    const problems = await problemsOf(
      {
        "notiform.yaml": workflow("      - file: a.yaml\n      - file: b.yaml"),
        "a.yaml": "name: same\npayload: 5\n",
        "b.yaml": "name: same\nextra: 1\n",
      },
      "notiform.yaml",
    );
    expect(problems).toEqual([
      'notiform.yaml:5:7 workflow "order-shipped": preview example 1 payload must be a mapping',
      'notiform.yaml:5:7 workflow "order-shipped": preview example 2 has an unknown field "extra" (allowed: name, payload, subscriber)',
      'notiform.yaml:5:7 workflow "order-shipped": preview example 2 name "same" is used twice',
    ]);
  });

  it("leaves the examples out of the config's digest: editing them changes no plan", async () => {
    const one = await examplesOf({ "notiform.yaml": workflow("      payload: { orderId: A-1 }") });
    const two = await examplesOf({ "notiform.yaml": workflow("      payload: { orderId: B-2 }") });
    expect(one.examples[0]?.payload).not.toEqual(two.examples[0]?.payload);
    expect(one.desired.digest).toBe(two.desired.digest);
  });
});
