// Offline validate + plan of 50,000 resources: runs bench/offline-child in its own process.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { benchDir } from "./cli.js";

export interface OfflineResult {
  resources: number;
  loadValidateMs: number;
  totalMs: number;
  cpuMs: number;
  peakRssMb: number;
  actions: number;
  unchanged: number;
}

export async function benchOffline(): Promise<OfflineResult> {
  const dir = await benchDir("offline");
  const child = fileURLToPath(new URL("./offline-child.js", import.meta.url));
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, dir], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    proc.stdout.setEncoding("utf8").on("data", (c: string) => {
      out += c;
    });
    proc.on("error", reject);
    proc.on("close", (code) => {
      if (code !== 0) reject(new Error(`offline benchmark exited ${code}`));
      else resolve(JSON.parse(out) as OfflineResult);
    });
  });
}
