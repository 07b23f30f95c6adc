// `{ file: PATH }` for long text (issue 24): the text of a file relative to the YAML file that
// names it replaces the reference at a declared field; a missing file, one outside the config's
// folder (by "..", an absolute path or a symbolic link) or one that is not UTF-8 is a problem at
// the reference's `file:` value, naming the field; references elsewhere are left to the schema.
import { realpathSync } from "node:fs";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { newTextBudget, resolveTextFileRefs, type TextFieldPath } from "../../src/config/text-file-ref.js";
import { readYamlFile } from "../../src/config/yaml-file.js";
import type { Problem } from "../../src/errors.js";
import { createWorkspace } from "../support/cli.js";

const FIELDS: TextFieldPath[] = [["workflows", "*", "steps", "*", "template", "content"]];

async function resolveIn(files: Record<string, string>, yamlName: string, project?: "none") {
  const ws = await createWorkspace(files);
  const root = realpathSync(join(ws.dir, "project"));
  const problems: Problem[] = [];
  const file = await readYamlFile(join(root, yamlName), root, problems);
  const data = file.doc?.toJS() as Record<string, unknown>;
  await resolveTextFileRefs(
    { file, project: project === "none" ? undefined : root, cwd: root, budget: newTextBudget() },
    data,
    FIELDS,
    problems,
  );
  const steps = (data.workflows as { steps: { template: { content: unknown } }[] }[])[0]?.steps ?? [];
  return {
    ws,
    contents: steps.map((s) => s.template.content),
    problems: problems.map((p) => ({
      where: `${p.pos.file}:${p.pos.line}:${p.pos.col}`,
      field: p.field,
      message: p.message,
    })),
  };
}

const WORKFLOW = (content: string) => `workflows:
  - identifier: order-shipped
    steps:
      - name: inline
        template:
          content: "<p>inline</p>"
      - name: from-file
        template:
          content: ${content}
`;

describe("{ file: PATH } text references", () => {
  it("puts the text of a file relative to the YAML file naming it in place of the reference", async () => {
    const { contents, problems } = await resolveIn(
      {
        "project/notiform.yaml": "version: 1\n",
        "project/flows/order.yaml": WORKFLOW("{ file: ../templates/order.html }"),
        // biome-ignore lint/suspicious/noTemplateCurlyInString: file text holds ${...} on purpose
        "project/templates/order.html": "<h1>{{orderId}} ${notInterpolated}</h1>\n",
      },
      "flows/order.yaml",
    );
    expect(problems).toEqual([]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: file text holds ${...} on purpose
    expect(contents).toEqual(["<p>inline</p>", "<h1>{{orderId}} ${notInterpolated}</h1>\n"]);
  });

  it("leaves a reference at a field no kind declares to the schema", async () => {
    const ws = await createWorkspace({ "project/a.yaml": "workflows:\n  - description: { file: x.txt }\n" });
    const root = realpathSync(join(ws.dir, "project"));
    const problems: Problem[] = [];
    const file = await readYamlFile(join(root, "a.yaml"), root, problems);
    const data = file.doc?.toJS() as Record<string, unknown>;
    await resolveTextFileRefs(
      { file, project: root, cwd: root, budget: newTextBudget() },
      data,
      FIELDS,
      problems,
    );
    expect(problems).toEqual([]);
    expect(data).toEqual({ workflows: [{ description: { file: "x.txt" } }] });
  });

  it("reports a missing file at the reference's file: value, with the field", async () => {
    const { problems } = await resolveIn(
      { "project/notiform.yaml": WORKFLOW("{ file: templates/missing.html }") },
      "notiform.yaml",
    );
    expect(problems).toEqual([
      {
        where: "notiform.yaml:9:28",
        field: "workflows[0].steps[1].template.content",
        message: expect.stringMatching(/file "templates\/missing\.html" does not exist/),
      },
    ]);
  });

  it("refuses a file outside the config's folder by .., by an absolute path and by a symbolic link", async () => {
    for (const [ref, extra] of [
      ["{ file: ../secret.txt }", {}],
      ["{ file: /etc/hostname }", {}],
      ["{ file: link.txt }", { link: true }],
    ] as const) {
      const ws = await createWorkspace({ "secret.txt": "s3cret", "project/notiform.yaml": WORKFLOW(ref) });
      if ("link" in extra) await symlink(join(ws.dir, "secret.txt"), join(ws.dir, "project", "link.txt"));
      const root = realpathSync(join(ws.dir, "project"));
      const problems: Problem[] = [];
      const file = await readYamlFile(join(root, "notiform.yaml"), root, problems);
      const data = file.doc?.toJS() as Record<string, unknown>;
      await resolveTextFileRefs(
        { file, project: root, cwd: root, budget: newTextBudget() },
        data,
        FIELDS,
        problems,
      );
      expect(problems.map((p) => `${p.pos.line}:${p.pos.col} ${p.message}`)).toEqual([
        expect.stringMatching(/^9:28 file ".*" (leads outside|is an absolute path).*config's folder/),
      ]);
      expect(JSON.stringify(data)).not.toContain("s3cret");
    }
  });

  it("allows a file outside when includes outside are allowed", async () => {
    const { contents, problems } = await resolveIn(
      { "shared/t.txt": "shared text", "project/notiform.yaml": WORKFLOW("{ file: ../shared/t.txt }") },
      "notiform.yaml",
      "none",
    );
    expect(problems).toEqual([]);
    expect(contents[1]).toBe("shared text");
  });

  it("refuses a directory and a file that is not UTF-8", async () => {
    const ws = await createWorkspace({ "project/notiform.yaml": WORKFLOW("{ file: t.bin }") });
    await writeFile(join(ws.dir, "project", "t.bin"), Buffer.from([0x3c, 0xff, 0xfe, 0x3e]));
    await mkdir(join(ws.dir, "project", "dir"));
    const root = realpathSync(join(ws.dir, "project"));
    for (const [yaml, expected] of [
      [WORKFLOW("{ file: t.bin }"), /file "t\.bin" is not valid UTF-8/],
      [WORKFLOW("{ file: dir }"), /file "dir" is a directory/],
    ] as const) {
      await writeFile(join(root, "notiform.yaml"), yaml);
      const problems: Problem[] = [];
      const file = await readYamlFile(join(root, "notiform.yaml"), root, problems);
      const data = file.doc?.toJS() as Record<string, unknown>;
      await resolveTextFileRefs(
        { file, project: root, cwd: root, budget: newTextBudget() },
        data,
        FIELDS,
        problems,
      );
      expect(problems.map((p) => p.message)).toEqual([expect.stringMatching(expected)]);
    }
  });
});
