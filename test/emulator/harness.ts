// One emulator per test on port 0, and a small JSON caller that never throws on an error status
// (only on a dropped connection), so tests read status, headers and body side by side.
import { afterEach } from "vitest";
import { type EmulatorHandle, type EmulatorOptions, startEmulator } from "../../src/emulator/index.js";

export const SEED = "examples/emulator-seed.yaml";
export const W1 = "64f1c0ffee0000000000a001";
export const W2 = "64f1c0ffee0000000000a002";
export const W3 = "64f1c0ffee0000000000a003";
export const T1 = "650000000000000000000001";
export const T2 = "650000000000000000000002";
export const T3 = "650000000000000000000003";
export const BLUEPRINT = "64f1b1e0000000000000b001";
export const NOTIFICATION = "64f1e0000000000000000e01";

export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies by path
  body: any;
}

export type Call = (method: string, path: string, body?: unknown, key?: string | null) => Promise<Answer>;

let running: EmulatorHandle[] = [];
afterEach(async () => {
  await Promise.all(running.map((e) => e.close()));
  running = [];
});

/**
 * Start an emulator on the bundled seed (`bare`: on the seed option alone); `call` sends the
 * development key unless told otherwise (null: none).
 */
export async function start(
  options: EmulatorOptions & { bare?: boolean } = {},
): Promise<{ handle: EmulatorHandle; call: Call }> {
  const { bare = false, ...rest } = options;
  const handle = await startEmulator({ ...(bare ? {} : { seedFile: SEED }), port: 0, ...rest });
  running.push(handle);
  return { handle, call: caller(handle.url, handle.apiKey) };
}

export async function stop(handle: EmulatorHandle): Promise<void> {
  running = running.filter((e) => e !== handle);
  await handle.close();
}

export function caller(url: string, defaultKey: string): Call {
  return async (method, path, body, key = defaultKey) => {
    const headers: Record<string, string> = {};
    if (key !== null) headers.authorization = `ApiKey ${key}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text === "" ? undefined : JSON.parse(text),
    };
  };
}
