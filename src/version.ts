// The tool's version, read once from package.json so the CLI, the User-Agent and the
// emulator agree without a build step that stamps it.
import { readPackageJson } from "./package-files.js";

function readVersion(): string {
  const parsed = readPackageJson("package.json");
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
