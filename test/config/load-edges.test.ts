// The loader's edges: what interpolation turns into booleans and what it remembers as sensitive,
// includes reached twice or in a cycle, byte order marks, comment-only files, "did you mean",
// and a 5 MB file (loaded here for correctness; its speed is measured by hand, not asserted).
import { writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { closest, didYouMean } from "../../src/config/did-you-mean.js";
import { ConfigError } from "../../src/errors.js";
import { loadConfig } from "../../src/loader/index.js";
import { createWorkspace } from "../support/cli.js";

async function problemsOf(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).problems.map((p) => `${p.pos.file}:${p.pos.line}:${p.pos.col}  ${p.message}`);
}

const W1 = "64f1c0ffee0000000000a001";

describe("interpolation", () => {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: ${...} is the config's interpolation syntax, on purpose.
  it("turns a whole ${VAR} into a boolean only in true/false fields, and keeps text elsewhere", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": `version: 1\ntopics:\n  - key: a\n    name: \${FLAG}\nworkflows:\n  - key: w\n    id: ${W1}\n    critical: \${FLAG}\n    preferenceSettings:\n      sms: \${OFF:-false}\n`,
    });
    const { desired } = await loadConfig({ cwd: ws.dir, vars: { FLAG: "true" } });
    expect(desired.resources.topic[0]?.spec.name).toBe("true");
    expect(desired.resources.workflow[0]?.spec).toMatchObject({
      critical: true,
      preferenceSettings: { sms: false },
    });
  });

  it("remembers every value taken from the environment, but not defaults and not true/false", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": `version: 1\norganization: \${ORG}\ntopics:\n  - key: a\n    name: "\${FIRST} and \${SECOND:-unused} and \${THIRD:-Default Name} cost $\${PRICE}"\n`,
    });
    const { desired } = await loadConfig({
      cwd: ws.dir,
      vars: { ORG: "Org From Env", FIRST: "First Value", SECOND: "Second Value", FLAG: "true" },
    });
    expect(desired.resources.topic[0]?.spec.name).toBe(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: ${...} is the config's interpolation syntax, on purpose.
      "First Value and Second Value and Default Name cost ${PRICE}",
    );
    expect(desired.sensitive).toEqual(["First Value", "Org From Env", "Second Value"]);
  });

  it("names every unset variable, each at its own value", async () => {
    const ws = await createWorkspace({
      "notiform.yaml":
        // biome-ignore lint/suspicious/noTemplateCurlyInString: ${...} is the config's interpolation syntax, on purpose.
        "version: 1\ntopics:\n  - key: a\n    name: ${ONE}\n  - key: b\n    name: x ${TWO} y\n",
    });
    expect(await problemsOf(loadConfig({ cwd: ws.dir, vars: {} }))).toEqual([
      // biome-ignore lint/suspicious/noTemplateCurlyInString: ${...} is the config's interpolation syntax, on purpose.
      "notiform.yaml:4:11  environment variable ONE is not set and has no default (write ${ONE:-default} to give one)",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: ${...} is the config's interpolation syntax, on purpose.
      "notiform.yaml:6:11  environment variable TWO is not set and has no default (write ${TWO:-default} to give one)",
    ]);
  });

  it("keeps values from the environment on the error, so a failed load can still be masked", async () => {
    const ws = await createWorkspace({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: ${...} is the config's interpolation syntax, on purpose.
      "notiform.yaml": "version: 1\ntopics:\n  - key: ${KEY}\n    name: N\n",
    });
    const error = await loadConfig({ cwd: ws.dir, vars: { KEY: "secret key value" } }).catch(
      (e: unknown) => e,
    );
    expect((error as ConfigError).sensitive).toEqual(["secret key value"]);
  });
});

describe("includes", () => {
  it("loads a file reached by two routes once, without calling it a cycle", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": "version: 1\ninclude: [a.yaml, b.yaml]\n",
      "a.yaml": "include: shared.yaml\n",
      "b.yaml": "include: shared.yaml\n",
      "shared.yaml": "topics:\n  - key: s\n    name: S\n",
    });
    const { desired, warnings } = await loadConfig({ cwd: ws.dir, vars: {} });
    expect(desired.resources.topic.map((t) => t.spec.key)).toEqual(["s"]);
    expect(desired.files).toHaveLength(4);
    expect(warnings).toEqual([]);
  });

  it("calls an environment include that matches the root file a cycle", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": "version: 1\nenvironments:\n  dev:\n    include: ['*.yaml']\n",
      "dev.yaml": "topics:\n  - key: d\n    name: D\n",
    });
    expect(await problemsOf(loadConfig({ cwd: ws.dir, vars: {}, env: "dev" }))).toEqual([
      "notiform.yaml:4:15  include cycle: notiform.yaml includes itself",
    ]);
  });

  it("reports a problem in an included file even when the root file has its own", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": "version: 1\ninclude: more.yaml\nunknown: 1\n",
      "more.yaml": "topics:\n  - key: a\n",
    });
    expect(await problemsOf(loadConfig({ cwd: ws.dir, vars: {} }))).toEqual([
      'more.yaml:2:5  topics[0]: missing required field "name"',
      'notiform.yaml:3:1  unknown property "unknown" in the file',
    ]);
  });

  it("refuses a non-UTF-8 included file at its first bad byte", async () => {
    const ws = await createWorkspace({ "notiform.yaml": "version: 1\ninclude: latin1.yaml\n" });
    await writeFile(
      ws.path("latin1.yaml"),
      Buffer.from("topics:\n  - key: a\n    name: Gr\xfc\xdfe\n", "latin1"),
    );
    expect(await problemsOf(loadConfig({ cwd: ws.dir, vars: {} }))).toEqual([
      "latin1.yaml:3:13  latin1.yaml is not valid UTF-8 text: save it as UTF-8",
    ]);
  });
});

describe("files", () => {
  it("accepts a UTF-8 byte order mark", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": "\uFEFFversion: 1\ntopics:\n  - key: a\n    name: Ä\n",
    });
    const { desired } = await loadConfig({ cwd: ws.dir, vars: {} });
    expect(desired.resources.topic[0]?.source.fields.name).toEqual({
      file: "notiform.yaml",
      line: 4,
      col: 11,
    });
  });

  it("treats a root file of only comments as empty, and asks for the version", async () => {
    const ws = await createWorkspace({ "notiform.yaml": "# nothing yet\n" });
    expect(await problemsOf(loadConfig({ cwd: ws.dir, vars: {} }))).toEqual([
      'notiform.yaml:1:1  notiform.yaml is empty: the root file needs at least "version: 1"',
    ]);
  });

  it("asks for the version when the root file has sections but no version", async () => {
    const ws = await createWorkspace({ "notiform.yaml": "# topics only\ntopics: []\n" });
    expect(await problemsOf(loadConfig({ cwd: ws.dir, vars: {} }))).toEqual([
      'notiform.yaml:2:1  the root file needs the config format version: add "version: 1"',
    ]);
  });

  it("loads a 5 MB file with every resource and position", async () => {
    const count = 64_000;
    const lines = ["version: 1", "topics:"];
    for (let i = 0; i < count; i += 1)
      lines.push(`  - key: topic-${i}`, `    name: Topic number ${i} of the big file`);
    lines.push("workflows:");
    for (let i = 0; i < count / 4; i += 1) {
      lines.push(`  - key: wf-${i}`, `    id: 64f1${i.toString(16).padStart(20, "0")}`, "    active: true");
    }
    const text = `${lines.join("\n")}\n`;
    expect(text.length).toBeGreaterThan(5_000_000);
    const ws = await createWorkspace({ "notiform.yaml": text });
    const { desired } = await loadConfig({ cwd: ws.dir, vars: {} });
    expect(desired.resources.topic).toHaveLength(count);
    expect(desired.resources.workflow).toHaveLength(count / 4);
    expect(desired.resources.topic[count - 1]?.source.pos).toEqual({
      file: "notiform.yaml",
      line: 2 * count + 1,
      col: 5,
    });
  });
});

describe("did you mean", () => {
  it("suggests the closest candidate within a small edit distance, ignoring case", () => {
    expect(closest("nmae", ["key", "name"])).toBe("name");
    expect(closest("NotificationGroup", ["notificationGroup", "name"])).toBe("notificationGroup");
    expect(didYouMean("inapp", ["email", "in_app"])).toBe(' (did you mean "in_app"?)');
  });

  it("says nothing when no candidate is close, or the word is a candidate", () => {
    expect(didYouMean("completely-different", ["name", "key"])).toBe("");
    expect(didYouMean("name", ["name"])).toBe("");
  });
});
