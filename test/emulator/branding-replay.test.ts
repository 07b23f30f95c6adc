// The emulator's branding against the real server's captures (fixtures r3-q5-*, observed
// behaviour "Branding"): a fresh organization's GET /v1/organizations/me has no `branding` key;
// PUT /v1/organizations/branding takes any subset of the fields and REPLACES the whole object
// (fields not sent are gone; an empty body leaves no branding at all); bad colours and logos are
// 400 with the real messages; either environment's key writes it. Each sequence is replayed in
// order on a fresh emulator (flavor "real"), comparing the branding exactly.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";

const DIR = join(import.meta.dirname, "..", "fixtures", "real-responses", "branding");

interface Capture {
  request: {
    method: string;
    path: string;
    key?: "development" | "production";
    organization?: string;
    body?: unknown;
  };
  response: { status: number; body: { data?: Record<string, unknown>; message?: string[] } };
}

const captures = readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((file) => ({ file, capture: JSON.parse(readFileSync(join(DIR, file), "utf8")) as Capture }));

/** The first organization's captures (01-03), and the second, freshly registered one's (04-14). */
const first = captures.filter((c) => c.capture.request.organization === undefined && c.file < "r3-q5-04");
const second = captures.filter((c) => !first.includes(c));

let emulator: EmulatorHandle | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function replay(sequence: typeof captures): Promise<void> {
  emulator = await startEmulator({ seedFile: "examples/emulator-seed.yaml", port: 0, flavor: "real" });
  for (const { file, capture } of sequence) {
    const { request, response } = capture;
    const key = request.key === "production" ? emulator.productionApiKey : emulator.apiKey;
    const answer = await fetch(`${emulator.url}${request.path}`, {
      method: request.method,
      headers: {
        authorization: `ApiKey ${key ?? ""}`,
        ...(request.body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    });
    const body = (await answer.json()) as Capture["response"]["body"];
    expect(answer.status, file).toBe(response.status);
    if (response.status >= 400) {
      expect(body.message, file).toEqual(response.body.message);
    } else if (request.method === "PUT") {
      expect(body.data, file).toEqual(response.body.data);
    } else {
      // Exactly the real branding, and no `branding` key at all where the real server has none.
      expect(body.data !== undefined && "branding" in body.data, file).toBe(
        response.body.data !== undefined && "branding" in response.body.data,
      );
      expect(body.data?.branding, file).toEqual(response.body.data?.branding);
    }
  }
}

describe("emulated branding, replayed against the real server's captures", () => {
  it("covers the captured cases", () => {
    expect(first.length).toBe(3);
    expect(second.length).toBe(11);
  });

  it("a fresh organization: no branding, then {color} alone is accepted and shown", () => replay(first));

  it("a subset PUT replaces the whole object; an empty one removes it; bad values are refused", () =>
    replay(second));
});
