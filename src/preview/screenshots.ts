// `preview --screenshots`: PNGs of emails at desktop and mobile widths, taken by a Chrome or
// Chromium already on the machine (NOTIFORM_CHROME, else the usual names on PATH); nothing is
// downloaded or bundled, and without a browser the command says so plainly. Each shot is of a
// small page holding the message in the same sandboxed, script-free frame the site uses, so a
// template's script does not run in the browser that takes it either.

import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import { NotiformError } from "../errors.js";
import { EMAIL_WIDTHS } from "./channel-views.js";
import { frameSource, messageFrame, page } from "./html.js";
import type { PreviewSite } from "./model.js";

/**
 * How notiform runs a browser: headless, nothing fetched or synced behind our back, no first-run
 * dialogs. Exported so the browser test drives Chromium the same way the shots do.
 */
export const HEADLESS_FLAGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

const BROWSER_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];
const HEIGHTS = { desktop: 900, mobile: 800 } as const;
/** One browser run may take this long before it is stopped. */
const SHOT_TIMEOUT_MS = 60_000;

/** The browser to use: NOTIFORM_CHROME, else the first of the usual names on PATH. */
export function findBrowser(env: Readonly<Record<string, string | undefined>>): string {
  const given = env.NOTIFORM_CHROME;
  if (given !== undefined && given !== "") {
    if (isExecutable(given)) return given;
    throw new NotiformError(
      "BROWSER_NOT_FOUND",
      `NOTIFORM_CHROME names ${given}, which is not an executable file`,
      {
        hint: "Point NOTIFORM_CHROME at a Chrome or Chromium binary, or unset it to look on PATH.",
      },
    );
  }
  for (const folder of (env.PATH ?? "").split(delimiter)) {
    if (folder === "") continue;
    for (const name of BROWSER_NAMES) {
      const path = join(folder, name);
      if (isExecutable(path)) return path;
    }
  }
  throw new NotiformError(
    "BROWSER_NOT_FOUND",
    `--screenshots needs Chrome or Chromium, and none was found (NOTIFORM_CHROME is not set; none of ${BROWSER_NAMES.join(", ")} is on PATH)`,
    {
      hint: "Install one (Debian/Ubuntu: apt-get install chromium) or set NOTIFORM_CHROME to its binary. notiform downloads no browser. Nothing was written: run without --screenshots for the site alone.",
    },
  );
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** One PNG to take: where it goes in the site, the message's HTML, the width. */
export interface Shot {
  path: string;
  html: string;
  width: number;
  height: number;
}

/** The emails to photograph: with --changed each changed email before and after, else every email. */
export function shotsOf(site: PreviewSite): Shot[] {
  const shots: Shot[] = [];
  for (const step of site.steps) {
    if (step.channel !== "email") continue;
    const example = step.examples[0];
    if (example === undefined) continue;
    const sides = [
      ["", example.after],
      ...(example.before !== undefined ? [[".before", example.before] as const] : []),
    ] as const;
    for (const [suffix, outcome] of sides) {
      if (!outcome.ok || outcome.message.html === undefined) continue;
      for (const size of ["desktop", "mobile"] as const)
        shots.push({
          path: `${step.base}${suffix}.${size}.png`,
          html: outcome.message.html,
          width: EMAIL_WIDTHS[size],
          height: HEIGHTS[size],
        });
    }
  }
  return shots;
}

/** Take the shots with `browser`; the PNGs by site path. */
export async function takeShots(browser: string, shots: readonly Shot[]): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  if (shots.length === 0) return out;
  const work = await mkdtemp(join(tmpdir(), "notiform-shots-"));
  try {
    for (const [index, shot] of shots.entries()) {
      const framePage = join(work, `shot-${index}.html`);
      const png = join(work, `shot-${index}.png`);
      await writeFile(framePage, shotPage(shot));
      await runBrowser(browser, [
        ...HEADLESS_FLAGS,
        "--hide-scrollbars",
        // Wait for the frame's content to load and paint before the shot (a loaded machine
        // otherwise catches an empty frame now and then).
        "--virtual-time-budget=5000",
        `--user-data-dir=${join(work, "profile")}`,
        `--screenshot=${png}`,
        `--window-size=${shot.width},${shot.height}`,
        pathToFileURL(framePage).href,
      ]);
      out.set(
        shot.path,
        await readFile(png).catch(() => {
          throw new NotiformError("SCREENSHOT_FAILED", `the browser wrote no screenshot for ${shot.path}`, {
            hint: `Check that ${browser} runs headless here (try it with --headless --screenshot by hand).`,
          });
        }),
      );
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return out;
}

/** A page holding only the message's frame, edge to edge. */
export function shotPage(shot: Shot): string {
  return page(
    shot.path,
    ".",
    messageFrame(frameSource(shot.html), shot.width, shot.height, shot.path),
  ).replace("<body ", '<body style="margin:0;padding:0;max-width:none;background:#fff" ');
}

function runBrowser(browser: string, args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    execFile(
      browser,
      args,
      { timeout: SHOT_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (error === null) return done();
        const last = stderr.trim().split("\n").slice(-3).join("\n");
        fail(
          new NotiformError(
            "SCREENSHOT_FAILED",
            `${browser} failed to take a screenshot: ${error.killed ? "timed out" : `exit ${error.code}`}${last ? `\n${last}` : ""}`,
            {
              hint: "Check that the browser runs headless on this machine (NOTIFORM_CHROME chooses another).",
            },
          ),
        );
      },
    );
  });
}
