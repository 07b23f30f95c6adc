// The tool's version, read once from package.json so the CLI, the User-Agent and the
// emulator agree without a build step that stamps it.
import { readFileSync } from "node:fs";

function readVersion(): string {
  const url = new URL("../package.json", import.meta.url);
  const parsed: unknown = JSON.parse(readFileSync(url, "utf8"));
  if (
    typeof parsed === "object" &&
    parsed !== null &&
    "version" in parsed &&
    typeof parsed.version === "string"
  ) {
    return parsed.version;
  }
  return "0.0.0";
}

export const VERSION: string = readVersion();
