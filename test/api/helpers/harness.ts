// A client wired to a scripted fake server, with every sleep, log event and error captured, and
// an instant injected sleep (a clock that advances by what was slept), so retries and pacing
// run without waiting. closeAll() in afterEach closes every client and server made.
import type { ClientLogEvent, ClientOptions } from "../../../src/api/index.js";
import { type ApiClient, createClient } from "../../../src/kinds/client.js";
import { type FakeServer, inOrder, type Reply, type Script, startFakeServer } from "./fake-server.js";

export const KEY = "nf_test_key_SECRET_0123456789";
export const W = "6b02c10ed413275d06fb3248";
export const T = "6b02c579d413275d06fb4952";

export interface Harness {
  client: ApiClient;
  server: FakeServer;
  sleeps: number[];
  events: ClientLogEvent[];
  /** The injected clock: starts at 0 and advances by every sleep. */
  clock: { now: number };
}

const open: (() => Promise<void>)[] = [];

export async function closeAll(): Promise<void> {
  await Promise.all(open.splice(0).map((close) => close()));
}

export async function harness(
  script: Script | Reply[],
  options: Partial<ClientOptions> = {},
): Promise<Harness> {
  const server = await startFakeServer(Array.isArray(script) ? inOrder(...script) : script);
  const sleeps: number[] = [];
  const events: ClientLogEvent[] = [];
  const clock = { now: 0 };
  const client = createClient({
    baseUrl: server.url,
    apiKey: KEY,
    apiKeyEnv: "NOTIFORM_API_KEY",
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.now += ms;
    },
    now: () => clock.now,
    random: () => 0.5,
    log: (event) => events.push(event),
    ...options,
  });
  open.push(async () => {
    await client.close();
    await server.close();
  });
  return { client, server, sleeps, events, clock };
}

/** The rejection of a promise that must fail. */
export async function failure<E = Error & Record<string, unknown>>(promise: Promise<unknown>): Promise<E> {
  try {
    await promise;
  } catch (error) {
    return error as E;
  }
  throw new Error("expected a failure");
}
