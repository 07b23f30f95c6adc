// `preview --serve`: the site over HTTP on 127.0.0.1 (port 0: any free port), rebuilt when a file
// of the config changes, each open page told to reload (server-sent events; /.notiform/version
// counts the builds); the pages as served may run only the one same-origin reload script; Ctrl-C
// (SIGINT) stops it cleanly. Every wait is bounded.
import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { exposureWarning } from "../../src/preview/serve-site.js";
import { BIN } from "../support/cli.js";
import { oneEmailWorkspace } from "../support/preview.js";

let child: ChildProcess | undefined;
afterEach(() => {
  if (child !== undefined && child.exitCode === null) child.kill("SIGKILL");
  child = undefined;
});

/** Polls `check` every 50 ms, at most `tries` times; fails with `what` if it never holds. */
async function until<T>(what: string, tries: number, check: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < tries; i += 1) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe("notiform preview --serve", () => {
  it("serves the site, rebuilds it on a change to a template file, tells open pages to reload, stops on Ctrl-C", async () => {
    const ws = await oneEmailWorkspace("<p>First {{orderId}}</p>");
    const proc = spawn(process.execPath, [BIN, "preview", "--serve", "--port", "0"], {
      cwd: ws.dir,
      env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", HOME: ws.dir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = proc;
    let stderr = "";
    proc.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((done) => proc.on("close", (code) => done(code)));
    const url = await until(
      "the server's address",
      400,
      async () => /Serving the preview on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stderr)?.[1],
    );

    const index = await (await fetch(`${url}index.html`)).text();
    expect(index).toContain("Order A-1");
    // As served, the pages may load the reload script from this server, and nothing else.
    expect(index).toContain(`script-src 'self'`);
    expect(index).toContain('<script src="/.notiform/reload.js"></script>');
    expect(await (await fetch(`${url}.notiform/reload.js`)).text()).toContain("EventSource");
    expect(await (await fetch(`${url}order-shipped/email.html`)).text()).toBe("<p>First A-1</p>");
    expect((await fetch(`${url}../notiform.yaml`)).status).toBe(404);
    expect((await fetch(`${url}.notiform-preview`)).status).toBe(404);
    expect(await (await fetch(`${url}.notiform/version`)).json()).toEqual({ version: 1 });

    // An open page listens for the reload.
    const events = await fetch(`${url}.notiform/events`);
    const reader = events.body?.getReader();
    if (reader === undefined) throw new Error("no event stream");

    await ws.write("email.html", "<p>Second {{orderId}}</p>");
    await until("the rebuild", 400, async () => {
      // A poll that meets a connection reset (seen once on a loaded CI machine) polls again, as a
      // browser retries; a server that stopped fails the wait, with what it printed.
      const answer = await fetch(`${url}.notiform/version`).catch(() => undefined);
      if (answer === undefined) return undefined;
      const { version } = (await answer.json()) as { version: number };
      return version >= 2 ? version : undefined;
    }).catch((error: Error) => {
      throw new Error(`${error.message}; the server printed:\n${stderr}`);
    });
    expect(await (await fetch(`${url}order-shipped/email.html`)).text()).toBe("<p>Second A-1</p>");
    let received = "";
    for (let i = 0; i < 20 && !received.includes("event: reload"); i += 1) {
      const { value, done } = await reader.read();
      if (done) break;
      received += new TextDecoder().decode(value);
    }
    expect(received).toContain("event: reload");
    await reader.cancel();

    proc.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(stderr).toContain("preview server stopped");
  });

  it("warns when told to listen beyond loopback (checked without listening there)", () => {
    expect(exposureWarning("127.0.0.1")).toBeUndefined();
    expect(exposureWarning("::1")).toBeUndefined();
    expect(exposureWarning("0.0.0.0")).toContain('warning: serving the preview on "0.0.0.0", not loopback');
  });
});
