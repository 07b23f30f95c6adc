// The emulator's raw HTTP plumbing: read a body with a size limit, read a header, write a JSON
// answer. No rules of the API live here.
import type { IncomingMessage, ServerResponse } from "node:http";

export const JSON_TYPE = "application/json; charset=utf-8";

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The body as text; undefined when it is larger than `limit` (answered 413). The rest of an
 * oversized body is still read and dropped, so the connection stays usable for the answer.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > limit ? undefined : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendText(res, status, JSON.stringify(body), headers);
}

export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": JSON_TYPE, ...headers });
  res.end(text);
}
