// A scripted HTTP server for client tests: each request is answered by the next scripted reply
// (a real captured response from test/fixtures/real-responses, a status, a reset connection...),
// and every request is recorded with its headers and body.
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: unknown;
}

export type Reply =
  | { status: number; body?: unknown; raw?: string; headers?: Record<string, string> }
  | "reset-before-answer"
  | "hang";

export type Script = (request: Recorded, index: number) => Reply;

export function fixture(name: string): { status: number; body: unknown } {
  const text = readFileSync(
    join(import.meta.dirname, "..", "fixtures", "real-responses", `${name}.json`),
    "utf8",
  );
  const parsed = JSON.parse(text) as { response: { status: number; body: unknown } };
  return { status: parsed.response.status, body: parsed.response.body };
}

export interface FakeServer {
  url: string;
  requests: Recorded[];
  maxInFlight: number;
  close(): Promise<void>;
}

export async function startFakeServer(script: Script): Promise<FakeServer> {
  const requests: Recorded[] = [];
  let inFlight = 0;
  const state = { maxInFlight: 0 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      inFlight += 1;
      state.maxInFlight = Math.max(state.maxInFlight, inFlight);
      const text = Buffer.concat(chunks).toString("utf8");
      const recorded: Recorded = {
        method: req.method ?? "GET",
        path: req.url ?? "/",
        headers: req.headers,
        body: text === "" ? undefined : JSON.parse(text),
      };
      requests.push(recorded);
      const reply = script(recorded, requests.length - 1);
      // Answer on a later tick so concurrent requests overlap and maxInFlight means something.
      setTimeout(() => {
        inFlight -= 1;
        if (reply === "hang") return;
        if (reply === "reset-before-answer") {
          req.socket.destroy();
          return;
        }
        res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
        res.end(reply.raw ?? JSON.stringify(reply.body ?? {}));
      }, 5);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
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
