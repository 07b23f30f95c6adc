// The URL a state file records (target.apiUrl), as a run without an operator or config URL uses
// it: only when its seal (url-seal.ts) verifies under the run's API key. The state file is
// committed, so a pull request can edit it: an unsealed URL is refused before any request.
import { readFileSync } from "node:fs";
import { NotiformError } from "../errors.js";
import { visibleText } from "../sanitize.js";
import { keyedDigest } from "../secrets/keyed-digest.js";
import { checkApiUrlSeal } from "../secrets/url-seal.js";
import { normalizeUrl } from "../state/state-store.js";

/** The hosted US API: where a run goes when nothing names another URL. */
export const DEFAULT_API_URL = "https://api.novu.co";

/**
 * The URL the state file records, when its seal verifies under `apiKey`; the hosted default when
 * it records none (or is unreadable: readState reports that). The file is what a pull request can
 * edit, so an unsealed URL (edited, written by another key, or by a notiform from before the
 * seal) is refused before any request: the key never goes where the file alone says. A file
 * recording the hosted default needs no seal: the key goes there without it.
 */
export function checkedRecordedUrl(statePath: string, apiKey: string | undefined): string {
  const recorded = recordedTarget(statePath);
  if (recorded === undefined) return DEFAULT_API_URL;
  const url = normalizeUrl(recorded.apiUrl);
  if (url === DEFAULT_API_URL) return url;
  if (apiKey !== undefined && apiKey !== "" && checkApiUrlSeal(url, recorded.seal, keyedDigest(apiKey)))
    return url;
  const why =
    recorded.seal === undefined
      ? "without a seal (written before notiform sealed it, or edited)"
      : "with a seal that does not verify under this run's API key (edited, or written with another key)";
  throw new NotiformError(
    "API_URL_UNSEALED",
    `the state file ${statePath} records the API URL ${visibleText(url)} ${why}: refusing to send the API key there`,
    {
      hint: "Set NOTIFORM_API_URL (or pass --api-url) to your server's URL: the state file is what a pull request can edit, so its URL is used alone only when sealed under your key. The next apply or export seals it. Nothing was sent.",
    },
  );
}

/**
 * The API URL a state file records (target.apiUrl) and its seal, or undefined when there is no
 * readable one: only a default here; reading the state file for real (readState) reports what
 * is wrong with it.
 */
function recordedTarget(statePath: string): { apiUrl: string; seal: unknown } | undefined {
  let text: string;
  try {
    text = readFileSync(statePath, "utf8");
  } catch {
    return undefined;
  }
  try {
    const target = (JSON.parse(text) as { target?: { apiUrl?: unknown; apiUrlSeal?: unknown } } | null)
      ?.target;
    const url = target?.apiUrl;
    return typeof url === "string" && url !== "" ? { apiUrl: url, seal: target?.apiUrlSeal } : undefined;
  } catch {
    return undefined;
  }
}
