// The client's default idle limit, through the public client (whatever the transport beneath):
// servers close a keep-alive connection after about 5 s idle, and a write sent on it just as
// they do fails with ECONNRESET ("may have been applied"). So a client made with default
// settings closes a connection it left unused itself, before 5 s. The loopback server here never
// closes one (no keep-alive limit, no Keep-Alive hint) and records when each connection ends.
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../../src/kinds/client.js";
import { fixture } from "./helpers/fake-server.js";
import { KEY } from "./helpers/harness.js";

const ME = fixture("organizations-me-200");
/** Servers' keep-alive limit the client must stay under. */
const SERVER_KEEP_ALIVE_MS = 5_000;
/** How long the test waits for the close at most. */
const WAIT_MS = 6_000;

interface Connection {
  /** When the client's FIN arrived (the client ended it), performance.now(). */
  endedAt?: number;
  closed: Promise<void>;
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function recordingServer(): Promise<{ url: string; connections: Connection[] }> {
  const connections: Connection[] = [];
  const listening = createServer((_request, response) => {
    response.writeHead(ME.status, { "content-type": "application/json" });
    response.end(JSON.stringify(ME.body));
  });
  // 0: the server keeps idle connections for ever and sends no Keep-Alive hint to follow.
  listening.keepAliveTimeout = 0;
  listening.on("connection", (socket: Socket) => {
    const connection: Connection = {
      closed: new Promise((resolve) => socket.on("close", () => resolve())),
    };
    socket.on("end", () => {
      connection.endedAt = performance.now();
    });
    connections.push(connection);
  });
  await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
  server = listening;
  return { url: `http://127.0.0.1:${(listening.address() as AddressInfo).port}`, connections };
}

describe("a client with default settings", () => {
  it("closes a connection it left idle before a server's 5 s keep-alive limit", async () => {
    const { url, connections } = await recordingServer();
    const client = createClient({ baseUrl: url, apiKey: KEY });
    try {
      await client.getCurrentOrganization();
      const answeredAt = performance.now();
      expect(connections).toHaveLength(1);
      const [connection] = connections as [Connection];
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, WAIT_MS);
      });
      await Promise.race([connection.closed, gaveUp]);
      clearTimeout(timer);
      expect(connection.endedAt, "the client kept the idle connection open").toBeDefined();
      expect((connection.endedAt ?? Number.POSITIVE_INFINITY) - answeredAt).toBeLessThan(
        SERVER_KEEP_ALIVE_MS,
      );
    } finally {
      await client.close();
    }
  });
});
