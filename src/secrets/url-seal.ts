// The seal on the API URL a state file records (target.apiUrlSeal): a keyed digest of the URL
// under the API key. A run that takes its URL from the state file (the operator and the config
// name none) sends the key there only when the seal verifies under the key it holds: a pull
// request can edit target.apiUrl, but cannot make a seal that verifies without the key. Like every
// keyed digest (HMAC-SHA256 under a key derived from the API key), it reveals nothing of the key.
import { timingSafeEqual } from "node:crypto";
import type { KeyedDigest } from "./keyed-digest.js";

/** What the seal is the keyed digest of: its own text, so no other digest can stand in for it. */
const SEAL_TEXT = "notiform:api-url:";

/** The seal of `url`, given in the one form a target URL is recorded and compared in (normalizeUrl). */
export function sealApiUrl(url: string, keyed: KeyedDigest): string {
  return keyed(`${SEAL_TEXT}${url}`);
}

/** Whether `seal` is the seal of `url` under the key `keyed` is made with (false when absent). */
export function checkApiUrlSeal(url: string, seal: unknown, keyed: KeyedDigest): boolean {
  if (typeof seal !== "string") return false;
  const expected = Buffer.from(sealApiUrl(url, keyed));
  const found = Buffer.from(seal);
  // Constant time: how much of a forged seal matches says nothing.
  return found.length === expected.length && timingSafeEqual(found, expected);
}
