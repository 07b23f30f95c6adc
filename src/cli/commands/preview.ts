// `notiform preview`: every message rendered as its channel shows it, written as a static site;
// thin: parse flags, call the preview pipeline, say what was written, choose the exit code.
// The pipeline (and with it the renderer) loads only when this command runs.

import { relative } from "node:path";
import { defineCommand } from "../command.js";
import { API_OPTIONS, CONFIG_OPTIONS, VERBOSE_OPTIONS } from "../common.js";
import { EXIT } from "../exit-codes.js";
import { waitForStopSignal } from "../interrupts.js";
import { integerFlag } from "../numeric-flags.js";
import { runContext } from "../run-context.js";

export const DEFAULT_PREVIEW_PORT = 4400;
export const DEFAULT_PREVIEW_HOST = "127.0.0.1";

export const previewCommand = defineCommand({
  command: "preview",
  describe:
    "Render every message as its channel shows it, as a static site (offline; --changed: before and after)",
  builder: (yargs) =>
    yargs
      .options(CONFIG_OPTIONS)
      .options(API_OPTIONS)
      .options(VERBOSE_OPTIONS)
      .option("out", {
        type: "string",
        default: "notiform-preview",
        describe: "The site's folder (replaced whole)",
      })
      .option("workflow", {
        type: "string",
        array: true,
        default: [] as string[],
        describe: "Only this workflow (key or identifier); repeatable",
      })
      .option("changed", {
        type: "boolean",
        default: false,
        describe:
          "Only the steps the plan changes, live (before) beside the config (after); needs the API key",
      })
      .option("state", { type: "string", describe: "State file, for --changed (default: beside the config)" })
      .option("screenshots", {
        type: "boolean",
        default: false,
        describe:
          "Also PNGs of the emails (changed ones with --changed), with Chrome/Chromium (NOTIFORM_CHROME or on PATH)",
      })
      // No defaults on these three: yargs counts a default as given, and --port or --host
      // without --serve must be refused (`implies`), not silently ignored.
      .option("serve", {
        type: "boolean",
        describe: "Serve the site and rebuild it on every change",
      })
      .option("port", {
        type: "string",
        defaultDescription: String(DEFAULT_PREVIEW_PORT),
        describe: "Port for --serve (0: any free port)",
        coerce: integerFlag("port", 0, 65_535),
        implies: "serve",
      })
      .option("host", {
        type: "string",
        defaultDescription: DEFAULT_PREVIEW_HOST,
        describe: "Address for --serve (not loopback: warned)",
        implies: "serve",
      }),
  run: async (args, context) => {
    const pipeline = await import("../../pipeline/preview.js");
    const run = runContext(context, args);
    const previewArgs = { ...args, workflow: args.workflow.map(String) };
    // Before rendering: without a browser nothing is written.
    const browser = args.screenshots ? pipeline.browserFor(run) : undefined;
    const result = await pipeline.runPreview(previewArgs, run);
    const shown = relative(context.cwd, result.out) || ".";
    const steps = result.site.steps;
    const failed = steps.flatMap((step) =>
      step.examples.flatMap((example) =>
        example.after.ok
          ? []
          : [`  ${step.workflow} / ${step.step} (${example.name}): ${firstLine(example.after.error)}`],
      ),
    );
    const what = args.changed ? "changed message step" : "message step";
    context.terminal.err(
      `Wrote ${steps.length} ${what}${steps.length === 1 ? "" : "s"} to ${shown}/index.html\n`,
    );
    if (browser !== undefined) {
      const count = await pipeline.screenshotSite(browser, result);
      context.terminal.err(`Took ${count} screenshot${count === 1 ? "" : "s"} with ${browser}\n`);
    }
    if (failed.length > 0)
      context.terminal.err(
        `${failed.length === 1 ? "1 message does not render (the server would refuse it)" : `${failed.length} messages do not render (the server would refuse them)`}:\n${failed.join("\n")}\n`,
      );
    if (args.serve) {
      const server = await pipeline.servePreview(previewArgs, run, result, {
        host: args.host ?? DEFAULT_PREVIEW_HOST,
        port: args.port ?? DEFAULT_PREVIEW_PORT,
      });
      context.terminal.err(`Serving the preview on ${server.url} (rebuilt on every change; Ctrl-C stops)\n`);
      await waitForStopSignal();
      await server.close();
      context.terminal.err("preview server stopped\n");
      return EXIT.ok;
    }
    return failed.length > 0 ? EXIT.error : EXIT.ok;
  },
});

function firstLine(text: string): string {
  return text.split("\n")[0] ?? "";
}
