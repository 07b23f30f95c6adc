// Hostile input, round 4 (issue 35), item 11: text from the server. Invisible characters
// (zero-width space and joiners, word joiner, BOM, soft hyphen, tag characters, bidi controls)
// reached the terminal and markdown raw; in `promote --output markdown` server names became live
// links, strikethrough and @mentions. Now they are shown visibly, and names sit in code spans.
import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { htmlText, markdownCode, markdownText, terminalText, visibleText } from "../../src/sanitize.js";
import { createWorkspace, runCli, SEED, WORKFLOW_SHIPPED } from "../support/cli.js";

const INVISIBLE: [string, string][] = [
  ["\u200b", "\\u200b"],
  ["\u200c", "\\u200c"],
  ["\u200d", "\\u200d"],
  ["\u2060", "\\u2060"],
  ["\ufeff", "\\ufeff"],
  ["\u00ad", "\\u00ad"],
  ["\u{e0041}", "\\udb40\\udc41"],
  ["\u{e007f}", "\\udb40\\udc7f"],
  ["\u202e", "\\u202e"],
  ["\u2066", "\\u2066"],
];

describe("invisible characters are made visible (item 11)", () => {
  it.each(INVISIBLE)("%j shows as %s in the terminal, in markdown and in HTML", (raw, shown) => {
    expect(visibleText(`a${raw}b`)).toBe(`a${shown}b`);
    expect(terminalText(`a${raw}b\n`, false)).toBe(`a${shown}b\n`);
    expect(markdownCode(`a${raw}b`)).toBe(`\`a${shown}b\``);
    expect(htmlText(`a${raw}b`)).toBe(`a${shown}b`);
    expect(markdownText(`a${raw}b`)).toBe(`a${shown.replace(/\\/g, "\\\\")}b`);
  });

  it("the visible form of a tag character decodes, as JSON, to the character", () => {
    expect(JSON.parse(`"${visibleText("\u{e0041}")}"`)).toBe("\u{e0041}");
  });

  it("markdown text makes no autolink, email link, mention or strikethrough", () => {
    expect(markdownText("https://evil.example ~~x~~ a@b.co")).toBe(
      "https\\:\\/\\/evil\\.example \\~\\~x\\~\\~ a\\@b\\.co",
    );
  });
});

const NAME =
  "Order\u200b shipped @octocat ~~gone~~ https://evil.example/x [click](https://evil.example) <b>bold</b>";

/** The text outside code spans and fenced blocks, which GitHub renders as markup. */
function outsideCode(markdown: string): string {
  return markdown.replace(/(`+)[\s\S]*?\1/g, "");
}

let emulator: EmulatorHandle | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe("promote --output markdown keeps server names inert (item 11)", () => {
  it("a workflow named with a mention, a link, strikethrough, HTML and U+200B", async () => {
    emulator = await startEmulator({ seedFile: SEED, port: 0 });
    const handle = emulator;
    const workspace = await createWorkspace({
      "notiform.yaml": `version: 1\norganization: Acme Inc\nenvironments:\n  development:\n    apiKeyEnv: NOTIFORM_API_KEY_DEVELOPMENT\n  production:\n    apiKeyEnv: NOTIFORM_API_KEY_PRODUCTION\nworkflows:\n  - key: order-shipped\n    id: ${WORKFLOW_SHIPPED}\n    name: ${JSON.stringify(NAME)}\n`,
    });
    const env = {
      NOTIFORM_API_KEY_DEVELOPMENT: handle.apiKey,
      NOTIFORM_API_KEY_PRODUCTION: handle.productionApiKey ?? "",
    };
    const cli = (args: string[]) => runCli([...args, "--api-url", handle.url], { cwd: workspace.dir, env });
    const applied = await cli(["apply", "--env", "development", "--auto-approve"]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout + applied.stderr).not.toContain("\u200b");
    expect(applied.stdout).toContain("Order\\u200b shipped");

    const preview = await cli(["promote", "--env", "development", "--output", "markdown"]);
    expect(preview.code, preview.stderr).toBe(2);
    expect(preview.stdout).not.toContain("\u200b");
    expect(preview.stdout).toContain("Order\\u200b shipped");
    const rendered = outsideCode(preview.stdout);
    for (const markup of ["@octocat", "https://", "~~", "[click]", "<b>"])
      expect(rendered).not.toContain(markup);
    expect(preview.stdout).toContain("@octocat");

    const text = await cli(["promote", "--env", "development"]);
    expect(text.stdout + text.stderr).not.toContain("\u200b");
  });
});
