// `preview --serve`: the preview folder over HTTP on 127.0.0.1 (another address only when asked),
// rebuilt whenever a watched file changes (debounced), and each open page reloaded once the new
// site is written: pages served here load one tiny script (/.notiform/reload.js) that listens on
// server-sent events; /.notiform/version answers the site's build number. The written pages
// forbid scripts; only as served here does their policy let that one same-origin script run.
// Message frames stay sandboxed without scripts either way.

import { type FSWatcher, watch } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { extname, join, normalize, relative, sep } from "node:path";
import { isLoopbackHost } from "../api/base-url.js";
import { FRAME_CSP } from "./html.js";

export interface ServeOptions {
  /** The site's folder (absolute). */
  dir: string;
  host: string;
  port: number;
  /** Folders to watch: [path, recursive]. Changes under `dir` itself are ignored. */
  watch: readonly (readonly [string, boolean])[];
  /** Rebuilds the site; returns the folders to watch from now on (the config's files may change). */
  rebuild(): Promise<readonly (readonly [string, boolean])[] | undefined>;
  /** A line for the person running it. */
  note(text: string): void;
  /** How long to wait after a change for more before rebuilding (ms). */
  debounceMs?: number;
}

export interface SiteServer {
  url: string;
  /** The build number: 1 for the first site, +1 for each rebuild written. */
  version(): number;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".png": "image/png",
  ".js": "text/javascript; charset=utf-8",
};

/** A message served alone: a sandbox (an opaque origin, no scripts, forms or popups) and the frames' policy. */
const MESSAGE_POLICY = { "content-security-policy": `sandbox; ${FRAME_CSP}` };

const RELOAD_JS = `new EventSource("/.notiform/events").addEventListener("reload", () => location.reload());\n`;

export async function serveSite(options: ServeOptions): Promise<SiteServer> {
  let version = 1;
  const listeners = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
    if (path === "/.notiform/version")
      return send(response, 200, "application/json", `${JSON.stringify({ version })}\n`);
    if (path === "/.notiform/reload.js") return send(response, 200, TYPES[".js"] ?? "", RELOAD_JS);
    if (path === "/.notiform/events") {
      response.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-store",
        connection: "keep-alive",
      });
      response.write(`: version ${version}\n\n`);
      listeners.add(response);
      request.on("close", () => listeners.delete(response));
      return;
    }
    const file = normalize(join(options.dir, path.endsWith("/") ? `${path}index.html` : path));
    const inside = relative(options.dir, file);
    if (inside.startsWith("..") || inside.split(sep).some((part) => part.startsWith(".")))
      return send(response, 404, "text/plain", "not found\n");
    let body: Buffer;
    try {
      if (!(await stat(file)).isFile()) return send(response, 404, "text/plain", "not found\n");
      body = await readFile(file);
    } catch {
      return send(response, 404, "text/plain", "not found\n");
    }
    const type = TYPES[extname(file)] ?? "application/octet-stream";
    // A page of the site (not a message's own HTML file, which is served as it was written).
    if (file.endsWith(".preview.html") || inside === "index.html")
      return send(response, 200, type, servedPage(body.toString("utf8")));
    // A message's own HTML (`<step>.html`): its bytes as written, but sandboxed as its frames are.
    // Opened from this server it would otherwise run the template's scripts at the server's
    // origin, where they could read every page and example of the site.
    if (extname(file) === ".html") return send(response, 200, type, body, MESSAGE_POLICY);
    return send(response, 200, type, body);
  }
  function send(
    response: ServerResponse,
    status: number,
    type: string,
    body: string | Buffer,
    headers: Record<string, string> = {},
  ): void {
    response.writeHead(status, {
      "content-type": type,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      ...headers,
    });
    response.end(body);
  }

  let watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  const onChange = (folder: string) => (_event: string, name: string | Buffer | null) => {
    const changed = name === null ? folder : join(folder, name.toString());
    // The site's own writes (and its swap folders beside it) are not changes to the config.
    if (
      changed === options.dir ||
      changed.startsWith(`${options.dir}${sep}`) ||
      relative(join(options.dir, ".."), changed).startsWith(`.${basenameOf(options.dir)}.`)
    )
      return;
    clearTimeout(timer);
    timer = setTimeout(rebuild, options.debounceMs ?? 150);
  };
  const startWatching = (folders: readonly (readonly [string, boolean])[]) => {
    for (const w of watchers) w.close();
    watchers = folders.map(([folder, recursive]) => watch(folder, { recursive }, onChange(folder)));
  };
  const rebuild = () => {
    if (running !== undefined) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        const folders = await options.rebuild();
        version += 1;
        if (folders !== undefined) startWatching(folders);
        for (const listener of listeners) listener.write(`event: reload\ndata: ${version}\n\n`);
      } catch (error) {
        options.note(`preview: not rebuilt: ${(error as Error).message}\n`);
      } finally {
        running = undefined;
        if (again) {
          again = false;
          rebuild();
        }
      }
    })();
  };
  startWatching(options.watch);

  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(options.port, options.host, () => done());
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/`,
    version: () => version,
    close: async () => {
      clearTimeout(timer);
      for (const w of watchers) w.close();
      for (const listener of listeners) listener.end();
      await running;
      const closed = new Promise<void>((done) => server.close(() => done()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** A site page as served: its policy lets the one same-origin reload script run, and loads it. */
export function servedPage(html: string): string {
  return html
    .replace("script-src 'none'", "script-src 'self'")
    .replace("default-src 'none';", "default-src 'none'; connect-src 'self';")
    .replace("</body>", '<script src="/.notiform/reload.js"></script>\n</body>');
}

function basenameOf(path: string): string {
  return path.split(sep).pop() ?? "";
}

/** A warning for a listen address other machines can reach, or undefined for loopback. */
export function exposureWarning(host: string): string | undefined {
  if (isLoopbackHost(host)) return undefined;
  return `warning: serving the preview on ${JSON.stringify(host)}, not loopback: other machines can read every message it shows, with its example data. Use the default 127.0.0.1 unless you mean it.\n`;
}
