// A hostile server for secret-hygiene tests: a loopback HTTP server in front of the emulator that
// passes every request through, except those a rule claims, which it answers itself (an HTML
// error page, a JSON body echoing what it likes). Rules see the request, so they can echo the
// Authorization header or the body back, as misbehaving servers and proxies do.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface HostileRequest {
  method: string;
  path: string;
  authorization: string;
  body: string;
}

export interface HostileRule {
  method: string;
  /** The path starts with this (query included). */
  path: string;
  /** How many requests it answers before passing them through again (default: all). */
  times?: number;
  reply: (request: HostileRequest) => { status: number; contentType: string; body: string };
}

export interface HostileProxy {
  url: string;
  rules: HostileRule[];
  /** Requests the rules answered. */
  answered: HostileRequest[];
  close(): Promise<void>;
}

export async function startHostileProxy(upstream: string): Promise<HostileProxy> {
  const rules: HostileRule[] = [];
  const answered: HostileRequest[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const request: HostileRequest = {
        method: req.method ?? "GET",
        path: req.url ?? "/",
        authorization: String(req.headers.authorization ?? ""),
        body: await readBody(req),
      };
      const index = rules.findIndex((r) => r.method === request.method && request.path.startsWith(r.path));
      const rule = rules[index];
      if (rule !== undefined) {
        if (rule.times !== undefined) {
          rule.times -= 1;
          if (rule.times <= 0) rules.splice(index, 1);
        }
        answered.push(request);
        const reply = rule.reply(request);
        res.writeHead(reply.status, { "content-type": reply.contentType });
        res.end(reply.body);
        return;
      }
      const headers: Record<string, string> = {
        authorization: request.authorization,
        accept: "application/json",
      };
      if (request.body !== "") headers["content-type"] = "application/json";
      const response = await fetch(`${upstream}${request.path}`, {
        method: request.method,
        headers,
        ...(request.body !== "" ? { body: request.body } : {}),
      });
      const text = await response.text();
      res.writeHead(response.status, {
        "content-type": response.headers.get("content-type") ?? "application/json",
      });
      res.end(text);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    rules,
    answered,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = "";
  req.setEncoding("utf8");
  for await (const chunk of req) body += chunk;
  return body;
}
