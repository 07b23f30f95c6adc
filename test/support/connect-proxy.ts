// A CONNECT proxy of the tests' own on 127.0.0.1 port 0: it records each tunnel asked for (and
// whether credentials came with it), answers 407 when it requires credentials that were not
// given, and tunnels only to 127.0.0.1 (anything else is answered 403: tests never leave the
// machine). A tunnel to a port where nothing listens is answered 502, as a real proxy does.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { connect, type Socket } from "node:net";

export interface ConnectProxy {
  url: string;
  port: number;
  /** host:port of every CONNECT received, in order. */
  connects: string[];
  /** The Proxy-Authorization header of every CONNECT (undefined when absent). */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

export async function startConnectProxy(options: { credentials?: string } = {}): Promise<ConnectProxy> {
  const connects: string[] = [];
  const authorizations: (string | undefined)[] = [];
  const sockets = new Set<Socket>();
  const expected =
    options.credentials === undefined
      ? undefined
      : `Basic ${Buffer.from(options.credentials).toString("base64")}`;
  // Plain requests (absolute-form, without a tunnel) are not what the client should send.
  const server = createServer((_req, res) => {
    res.writeHead(405, { connection: "close" });
    res.end();
  });
  server.on("connect", (req, socket: Socket, head: Buffer) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    const target = req.url ?? "";
    connects.push(target);
    authorizations.push(req.headers["proxy-authorization"]);
    if (expected !== undefined && req.headers["proxy-authorization"] !== expected) {
      socket.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n',
      );
      return;
    }
    const match = /^(127\.0\.0\.1|localhost):(\d+)$/.exec(target);
    if (!match) {
      socket.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    const upstream = connect(Number(match[2]), "127.0.0.1");
    sockets.add(upstream);
    let established = false;
    upstream.on("close", () => {
      sockets.delete(upstream);
      if (established) socket.destroy();
    });
    upstream.on("error", () => {
      if (!established) socket.end("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
    });
    upstream.on("connect", () => {
      established = true;
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    socket.on("close", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connects,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
