// The bundle users run (dist/bundle, built by the suite's global set-up), chunk by chunk: for the
// tests that check what a command loads and when.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const BUNDLE = join(import.meta.dirname, "../../dist/bundle");

/** Every chunk's file name, and its text. */
export function bundleChunks(): { chunks: string[]; text: ReadonlyMap<string, string> } {
  const chunks = readdirSync(BUNDLE).filter((file) => file.endsWith(".js"));
  return { chunks, text: new Map(chunks.map((file) => [file, readFileSync(join(BUNDLE, file), "utf8")])) };
}
