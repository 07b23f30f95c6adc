// A scripted HTTP server for client tests, on 127.0.0.1 port 0: each request is answered by
// the script (a real captured response from test/fixtures/real-responses, a status, a reset
// connection, a hang...) chosen from its request line and headers, and every request is
// recorded with its headers, body, and how many requests were in flight when it arrived.
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: unknown;
  /** Requests being handled when this one arrived (itself included). */
  inFlight: number;
}

export type Reply =
  | {
      status: number;
      body?: unknown;
      /** Sent as is instead of JSON.stringify(body). */
      raw?: string;
      headers?: Record<string, string>;
      /** Stream `raw` in pieces without a Content-Length. */
      chunked?: boolean;
    }
  /** Read the whole request, then drop the connection without answering. */
  | "reset-after-body"
  /** Drop the connection as soon as the request line and headers arrived, before the body. */
  | "reset-before-body"
  /** Never answer. */
  | "hang";

export type Script = (request: Recorded, index: number) => Reply;

const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "real-responses");

export interface Fixture {
  request: { method: string; path: string; body?: unknown };
  status: number;
  body: unknown;
}

export function fixture(name: string): { status: number; body: unknown } {
  const { status, body } = readFixture(name);
  return { status, body };
}

export function readFixture(name: string): Fixture {
  const parsed = JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), "utf8")) as {
    request: Fixture["request"];
    response: { status: number; body: unknown };
  };
  return { request: parsed.request, status: parsed.response.status, body: parsed.response.body };
}

export function fixtureNames(): string[] {
  return readdirSync(FIXTURES)
    .filter((file) => file.endsWith(".json"))
    .map((file) => file.slice(0, -".json".length))
    .sort();
}

/** The `data` of a captured enveloped body. */
export function dataOf<T = Record<string, unknown>>(name: string): T {
  return (fixture(name).body as { data: T }).data;
}

/** Answer the scripted replies in order; the last one repeats. */
export function inOrder(...replies: Reply[]): Script {
  return (_request, index) => replies[Math.min(index, replies.length - 1)] ?? { status: 500 };
}

export interface FakeServer {
  url: string;
  port: number;
  requests: Recorded[];
  readonly maxInFlight: number;
  close(): Promise<void>;
}

export async function startFakeServer(script: Script, port = 0): Promise<FakeServer> {
  const requests: Recorded[] = [];
  const state = { inFlight: 0, maxInFlight: 0 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    state.inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    const recorded: Recorded = {
      method: req.method ?? "GET",
      path: req.url ?? "/",
      headers: req.headers,
      body: undefined,
      inFlight: state.inFlight,
    };
    requests.push(recorded);
    // The script decides on the request line and headers; the body is recorded when it arrives.
    const reply = script(recorded, requests.length - 1);
    if (reply === "reset-before-body") {
      state.inFlight -= 1;
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      if (text !== "") recorded.body = JSON.parse(text);
      // Answer on a later tick so concurrent requests overlap and inFlight means something.
      setTimeout(() => answer(reply), 3);
    });
    function answer(reply: Exclude<Reply, "reset-before-body">): void {
      if (reply === "hang") return;
      state.inFlight -= 1;
      if (reply === "reset-after-body") {
        req.socket.destroy();
        return;
      }
      const text = reply.raw ?? JSON.stringify(reply.body ?? {});
      if (reply.chunked) {
        res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
        for (let at = 0; at < text.length; at += 65_536) res.write(text.slice(at, at + 65_536));
        res.end();
        return;
      }
      res.writeHead(reply.status, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(text),
        ...reply.headers,
      });
      res.end(text);
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    requests,
    get maxInFlight() {
      return state.maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
