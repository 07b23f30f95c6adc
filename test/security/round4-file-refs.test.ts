// Hostile input, round 4 (issue 35), items 7 and 10: `{ file: }` references. Together they bring
// in at most 64 MiB of text (every reference counts, hard links and repeats included), and each
// reference is judged as it is written: an absolute path is refused whatever order it comes in,
// and an error quotes the path that reference wrote.
import { link, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { createWorkspace, runCli } from "../support/cli.js";

const layout = (identifier: string, file: string) =>
  `  - identifier: ${identifier}\n    name: ${identifier}\n    content: { file: ${JSON.stringify(file)} }\n`;

describe("a total budget for { file: } text (item 7)", () => {
  it("20 references to hard links of one 5 MB file: a config error naming the reference, not an internal error", async () => {
    const workspace = await createWorkspace();
    await writeFile(workspace.path("big.html"), `<main>{{{body}}}</main>${"x".repeat(5 * 1024 * 1024)}`);
    let config = "version: 1\nlayouts:\n";
    for (let i = 0; i < 20; i += 1) {
      await link(workspace.path("big.html"), workspace.path(`t${i}.html`));
      config += layout(`l${i}`, `t${i}.html`);
    }
    await workspace.write("notiform.yaml", config);
    const result = await runCli(["validate"], { cwd: workspace.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(/internal error|Invalid string length/);
    expect(result.stderr).toMatch(
      /notiform\.yaml:\d+:\d+ +error +file "t\d+\.html" takes the text of the config's \{ file: \} references past 64 MiB/,
    );
  });

  it("one file named many times counts each time", async () => {
    const workspace = await createWorkspace();
    await writeFile(workspace.path("big.html"), `<main>{{{body}}}</main>${"y".repeat(9 * 1024 * 1024)}`);
    let config = "version: 1\nlayouts:\n";
    for (let i = 0; i < 8; i += 1) config += layout(`l${i}`, "big.html");
    await workspace.write("notiform.yaml", config);
    const result = await runCli(["validate"], { cwd: workspace.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`file "big.html" takes the text`);
  });

  it("a config under the total still loads", async () => {
    const workspace = await createWorkspace();
    await writeFile(workspace.path("big.html"), `<main>{{{body}}}</main>${"z".repeat(1024 * 1024)}`);
    let config = "version: 1\nlayouts:\n";
    for (let i = 0; i < 10; i += 1) config += layout(`l${i}`, "big.html");
    await workspace.write("notiform.yaml", config);
    const result = await runCli(["validate"], { cwd: workspace.dir });
    expect(result.code, result.stderr).toBe(0);
  });
});

describe("{ file: } decisions are per reference as written (item 10)", () => {
  for (const order of ["relative first", "absolute first"]) {
    it(`${order}: the absolute path is refused, the relative one read, each error quoting its own path`, async () => {
      const workspace = await createWorkspace({ "a.html": "<main>{{{body}}}</main>" });
      const absolute = workspace.path("a.html");
      const entries = [layout("relative", "a.html"), layout("absolute", absolute)];
      if (order === "absolute first") entries.reverse();
      await workspace.write("notiform.yaml", `version: 1\nlayouts:\n${entries.join("")}`);
      const result = await runCli(["validate"], { cwd: workspace.dir });
      expect(result.code).toBe(1);
      const errors = result.stderr.split("\n").filter((line) => line.includes(" error "));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain(`file "${absolute}" is an absolute path`);
    });
  }
});
