// A private certificate authority made for one test with openssl (on every Debian/Ubuntu CI
// machine), a certificate it signs for 127.0.0.1, and an HTTPS front for a plain HTTP server on
// loopback (the emulator): TLS is ended here and the bytes passed on, so the emulator serves
// HTTPS without knowing it.
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:tls";

export interface PrivateCa {
  dir: string;
  /** The authority's certificate (PEM): what NODE_EXTRA_CA_CERTS names. */
  caFile: string;
  key: string;
  cert: string;
  remove(): Promise<void>;
}

export async function makePrivateCa(): Promise<PrivateCa> {
  const dir = await mkdtemp(join(tmpdir(), "notiform-ca-"));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  openssl(
    "req",
    "-x509",
    ...ec,
    "-keyout",
    at("ca.key"),
    "-out",
    at("ca.pem"),
    "-days",
    "2",
    "-subj",
    "/CN=notiform test CA",
  );
  openssl("req", ...ec, "-keyout", at("server.key"), "-out", at("server.csr"), "-subj", "/CN=127.0.0.1");
  await writeFile(
    at("server.ext"),
    "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
  );
  openssl(
    "x509",
    "-req",
    "-in",
    at("server.csr"),
    "-CA",
    at("ca.pem"),
    "-CAkey",
    at("ca.key"),
    "-CAcreateserial",
    "-out",
    at("server.pem"),
    "-days",
    "2",
    "-extfile",
    at("server.ext"),
  );
  return {
    dir,
    caFile: at("ca.pem"),
    key: await readFile(at("server.key"), "utf8"),
    cert: await readFile(at("server.pem"), "utf8"),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

export interface HttpsFront {
  /** https://127.0.0.1:PORT */
  url: string;
  close(): Promise<void>;
}

/** HTTPS on 127.0.0.1 port 0, with `ca`'s certificate, passing the bytes to `targetPort`. */
export async function startHttpsFront(ca: PrivateCa, targetPort: number): Promise<HttpsFront> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
  };
  const server = createServer({ key: ca.key, cert: ca.cert }, (socket) => {
    track(socket);
    const upstream = connect(targetPort, "127.0.0.1");
    track(upstream);
    socket.pipe(upstream).pipe(socket);
    socket.on("close", () => upstream.destroy());
    upstream.on("close", () => socket.destroy());
  });
  // A handshake the client refuses (an untrusted certificate) is an error here: expected.
  server.on("tlsClientError", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
