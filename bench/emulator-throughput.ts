// Emulator throughput: simple authenticated GETs per second on loopback, 16 connections, 3 s.
import { Pool } from "undici";
import { startEmulator } from "../src/emulator/index.js";
import { seedFor } from "./fixtures.js";

export interface ThroughputResult {
  requests: number;
  seconds: number;
  perSecond: number;
}

export async function benchEmulatorThroughput(durationMs = 3_000): Promise<ThroughputResult> {
  const emulator = await startEmulator({ seed: seedFor({ workflows: 1, tenants: 1 }), port: 0 });
  const pool = new Pool(emulator.url, { connections: 16, pipelining: 1 });
  const headers = { authorization: `ApiKey ${emulator.apiKey}` };
  let requests = 0;
  const deadline = performance.now() + durationMs;
  const started = performance.now();
  const worker = async () => {
    while (performance.now() < deadline) {
      const response = await pool.request({ method: "GET", path: "/v1/organizations/me", headers });
      await response.body.text();
      requests += 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: 16 }, worker));
    const seconds = (performance.now() - started) / 1000;
    return { requests, seconds, perSecond: requests / seconds };
  } finally {
    await pool.close();
    await emulator.close();
  }
}
