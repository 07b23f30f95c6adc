// The preview in a real headless Chromium (Debian's `chromium`; CI installs it, .ci/run): the
// page renders, `--screenshots` writes PNGs of each email at desktop and mobile width that are
// not blank, and a template's <script> and onerror= handler never ran, neither in the shots nor
// in the framed HTML on its own. Without a browser, --screenshots says so and writes nothing.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { framedHtml } from "../../src/preview/html.js";
import { HEADLESS_FLAGS } from "../../src/preview/screenshots.js";
import { countPixels, decodePng } from "../helpers/png.js";
import { runCli } from "../support/cli.js";
import { oneEmailWorkspace } from "../support/preview.js";

const CHROMIUM = spawnSync("sh", ["-c", "command -v chromium"], { encoding: "utf8" }).stdout.trim();

// Blue when rendered; the script and the handler would paint the page red and retitle it.
const EMAIL = `<!doctype html>
<html><head><title>untouched</title></head><body style="margin:0;background:#ffffff">
<div style="background:#0000ff;width:300px;height:300px">{{orderId}}</div>
<script>document.body.style.background = "#ff0000"; document.title = "script ran";</script>
<img src="data:," onerror="document.body.style.background='#ff0000'; document.title='onerror ran'">
</body></html>
`;

const isRed = ([r, g, b]: [number, number, number]) => r > 200 && g < 60 && b < 60;
const isBlue = ([r, g, b]: [number, number, number]) => b > 200 && r < 60 && g < 60;

describe("the preview in headless Chromium", () => {
  it("needs Chromium: this test fails, not skips, without it", () => {
    expect(
      CHROMIUM,
      "install Chromium to run the browser tests: apt-get install -y chromium (.ci/run does)",
    ).not.toBe("");
  });

  it("takes desktop and mobile screenshots that show the email, with its script blocked", async () => {
    const ws = await oneEmailWorkspace(EMAIL);
    const result = await runCli(["preview", "--screenshots"], {
      cwd: ws.dir,
      env: { NOTIFORM_CHROME: CHROMIUM },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`Took 2 screenshots with ${CHROMIUM}`);
    for (const [size, width] of [
      ["desktop", 800],
      ["mobile", 375],
    ] as const) {
      const image = decodePng(readFileSync(join(ws.dir, `notiform-preview/order-shipped/email.${size}.png`)));
      expect(image.width).toBe(width);
      // Not blank: the email's blue block is there. The script did not run: nothing is red.
      const counts = { blue: countPixels(image, isBlue), red: countPixels(image, isRed) };
      expect(counts.blue, `${size}: ${JSON.stringify(counts)}`).toBeGreaterThan(100);
      expect(counts.red, `${size}: ${JSON.stringify(counts)}`).toBe(0);
    }
  });

  it("renders the step page, and the framed HTML alone keeps its script from running", async () => {
    const ws = await oneEmailWorkspace(EMAIL);
    expect((await runCli(["preview"], { cwd: ws.dir })).code).toBe(0);
    const dump = (file: string) =>
      execFileSync(
        CHROMIUM,
        [
          ...HEADLESS_FLAGS,
          `--user-data-dir=${join(ws.dir, ".chromium")}`,
          "--dump-dom",
          pathToFileURL(file).href,
        ],
        { encoding: "utf8", timeout: 60_000, stdio: ["ignore", "pipe", "ignore"] },
      );
    const page = dump(join(ws.dir, "notiform-preview/order-shipped/email.preview.html"));
    expect(page).toContain("desktop, 800 px");
    expect(page).toContain("<iframe");

    // The same HTML with its policy, opened as a page of its own: the policy alone blocks both.
    const dir = await mkdtemp(join(tmpdir(), "notiform-framed-"));
    const framed = join(dir, "framed.html");
    writeFileSync(framed, framedHtml(EMAIL.replace("{{orderId}}", "A-1")));
    const dom = dump(framed);
    expect(dom).toContain("<title>untouched</title>");
    expect(dom).not.toContain("ran</title>");
    expect(dom).not.toContain("rgb(255, 0, 0)");
    // And without the policy, the same page would have run it: the check can fail.
    const bare = join(dir, "bare.html");
    writeFileSync(bare, EMAIL.replace("{{orderId}}", "A-1"));
    expect(dump(bare)).toContain("ran</title>");
  });

  it("without a browser, says so plainly and writes nothing", async () => {
    const ws = await oneEmailWorkspace(EMAIL);
    const result = await runCli(["preview", "--screenshots"], { cwd: ws.dir, env: { PATH: "/nonexistent" } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("--screenshots needs Chrome or Chromium, and none was found");
    // The hint says what happened: nothing was written (it said the site was).
    expect(result.stderr).toContain("Nothing was written: run without --screenshots for the site alone.");
    expect(existsSync(join(ws.dir, "notiform-preview"))).toBe(false);
    const wrong = await runCli(["preview", "--screenshots"], {
      cwd: ws.dir,
      env: { NOTIFORM_CHROME: "/nonexistent/chrome" },
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(
      "NOTIFORM_CHROME names /nonexistent/chrome, which is not an executable file",
    );
  });
});
