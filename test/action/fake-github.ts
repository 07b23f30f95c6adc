// A fake of the few GitHub REST routes the Action uses (issue comments), on 127.0.0.1 only.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string };
}

/** What GitHub names the workflow's GITHUB_TOKEN when it comments (it cannot read GET /user). */
export const ACTIONS_BOT = "github-actions[bot]";

export interface FakeGitHub {
  url: string;
  comments: FakeComment[];
  requests: { method: string; path: string; authorization: string | undefined; body: string }[];
  /** Answer every write with this status instead (e.g. 403 for a read-only token). */
  refuseWrites: number | undefined;
  /** Tokens that belong to a user (a personal access token): GET /user answers their login. */
  users: Record<string, string>;
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text;
}

export async function startFakeGitHub(repository: string, issue: number): Promise<FakeGitHub> {
  let nextId = 1000;
  const fake: FakeGitHub = {
    url: "",
    comments: [],
    requests: [],
    refuseWrites: undefined,
    users: {},
    close: () => new Promise((done) => server.close(() => done())),
  };
  const server: Server = createServer(async (request, response) => {
    const body = await bodyOf(request);
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    fake.requests.push({
      method: request.method ?? "",
      path: url.pathname,
      authorization: request.headers.authorization,
      body,
    });
    const send = (status: number, value: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(value));
    };
    const list = `/repos/${repository}/issues/${issue}/comments`;
    const token = (request.headers.authorization ?? "").replace(/^Bearer /, "");
    const login = fake.users[token] ?? ACTIONS_BOT;
    if (request.method === "GET" && url.pathname === "/user")
      return fake.users[token] !== undefined
        ? send(200, { login })
        : send(403, { message: "Resource not accessible by integration" });
    if (request.method !== "GET" && fake.refuseWrites !== undefined) return send(fake.refuseWrites, {});
    if (request.method === "GET" && url.pathname === list) {
      const page = Number(url.searchParams.get("page") ?? "1");
      const perPage = Number(url.searchParams.get("per_page") ?? "30");
      return send(200, fake.comments.slice((page - 1) * perPage, page * perPage));
    }
    if (request.method === "POST" && url.pathname === list) {
      const comment = { id: nextId++, body: JSON.parse(body).body, user: { login } };
      fake.comments.push(comment);
      return send(201, comment);
    }
    const edit = new RegExp(`^/repos/${repository}/issues/comments/(\\d+)$`).exec(url.pathname);
    const comment = fake.comments.find((c) => c.id === Number(edit?.[1]));
    if (request.method === "PATCH" && comment) {
      if (comment.user.login !== login)
        return send(403, { message: "Must have admin rights to Repository." });
      comment.body = JSON.parse(body).body;
      return send(200, comment);
    }
    return send(404, { message: "Not Found" });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
