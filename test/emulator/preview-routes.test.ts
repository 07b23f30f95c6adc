// The emulator's preview routes (POST /v1/content-templates/preview/*) over HTTP, against the
// real server's captures (r4-*): the captured requests are replayed in their order on one fresh
// emulator (the layouts r4-39..r4-42 create and the branding r4-51 sets are the emulator's own,
// their ids put in place of the captures' placeholders), and every preview answer must match:
// the status, a 201's data exactly, an error's statusCode, path, message and error (timestamps
// and error ids are the moment's). The API key is accepted here, unlike on a real server.
import { describe, expect, it } from "vitest";
import { type Capture, readCaptures } from "../render/captures.js";
import { start } from "./harness.js";

const captures = readCaptures();
const PREVIEW = "/v1/content-templates/preview/";

/** The captures' placeholders with this emulator's values, in a request or an answer. */
function replaced(value: unknown, ids: Map<string, string>): unknown {
  const text = JSON.stringify(value ?? null).replace(
    /<(environmentId|layoutId|organizationId|userId|notificationGroupId|id)(:[^>"]+)?>/g,
    (placeholder) => {
      const id = ids.get(placeholder);
      if (id === undefined) throw new Error(`no value for ${placeholder}`);
      return id;
    },
  );
  return JSON.parse(text);
}

/** The parts of an error body that do not depend on the moment. */
function stable(body: Record<string, unknown>): Record<string, unknown> {
  const { timestamp: _timestamp, errorId: _errorId, ...rest } = body;
  return rest;
}

describe("the emulator's preview routes replay the real server's captures", () => {
  it("answers every r4 preview request as the real server did, in the captured order", async () => {
    const { handle, call } = await start({ flavor: "real" });
    const me = await call("GET", "/v1/environments/me");
    const ids = new Map<string, string>([["<environmentId:development>", me.body.data._id]]);
    const replayed: string[] = [];
    for (const capture of captures) {
      const { method, path } = capture.request;
      const isPreview = path.startsWith(PREVIEW);
      const isSetup = (method === "POST" && path === "/v1/layouts") || path === "/v1/organizations/branding";
      if (!isPreview && !isSetup) continue;
      const answer = await call(method, path, replaced(capture.request.body, ids) ?? undefined);
      expect({ file: capture.file, status: answer.status }).toEqual({
        file: capture.file,
        status: capture.response.status,
      });
      if (method === "POST" && path === "/v1/layouts") {
        const placeholder = (capture.response.body.data as { _id: string })._id;
        ids.set(placeholder, answer.body.data._id);
        continue;
      }
      if (!isPreview) continue;
      const expected = replaced(capture.response.body, ids) as Record<string, unknown>;
      if (capture.response.status === 201) expect(answer.body).toEqual(expected);
      else expect(stable(answer.body)).toEqual(stable(expected));
      if (capture.response.status === 500) expect(answer.body.errorId).toEqual(expect.any(String));
      replayed.push(capture.file);
    }
    expect(replayed.length).toBe(captures.filter((c: Capture) => c.request.path.startsWith(PREVIEW)).length);
    expect(handle.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
  });

  it("is not served by a spec-only emulator", async () => {
    const { call } = await start({ strictSpec: true });
    const answer = await call("POST", `${PREVIEW}sms`, { content: "x", payload: {} });
    expect(answer.status).toBe(404);
    expect(answer.body.message).toBe(`Cannot POST ${PREVIEW}sms`);
  });

  it("needs an API key like every other route", async () => {
    const { call } = await start();
    const answer = await call("POST", `${PREVIEW}sms`, { content: "x", payload: {} }, null);
    expect(answer.status).toBe(401);
  });
});
