// Keyed digests: how a value that came from the environment is compared without being kept.
// HMAC-SHA256 under a key derived (HKDF) from the API key: the state file and a saved plan can
// hold one, a reader without the key cannot test guesses against it (an unkeyed sha256 of a
// six-digit value falls in seconds), and the same key gives the same digest, so plans converge.
// A new API key makes earlier digests unreadable: those fields plan as unverified once.
import { createHmac, hkdfSync } from "node:crypto";
import { canonicalJson, type JsonValue } from "../canonical.js";

export const KEYED_PREFIX = "hmac-sha256:";

export type KeyedDigest = (text: string) => string;

export function keyedDigest(apiKey: string): KeyedDigest {
  const key = Buffer.from(hkdfSync("sha256", apiKey, "notiform", "keyed digest v1", 32));
  return (text) => `${KEYED_PREFIX}${createHmac("sha256", key).update(text).digest("hex")}`;
}

export function isKeyedDigest(value: unknown): value is string {
  return typeof value === "string" && value.startsWith(KEYED_PREFIX);
}

/**
 * What the state file keeps of a value: the value, or — when it holds any value that came from
 * the environment — its keyed digest.
 */
export type Protect = (value: JsonValue) => JsonValue;

export function protector(sensitive: readonly string[], keyed: KeyedDigest | undefined): Protect {
  const holds = secretHolder(sensitive);
  if (holds === undefined) return (value) => value;
  return (value) => {
    // Without a key (offline commands) nothing of the value is kept: the next plan re-sends it.
    if (!holds(value)) return value;
    return keyed === undefined ? "" : keyed(canonicalJson(value));
  };
}

/**
 * Whether a value holds any of the values that came from the environment: as they are, as JSON
 * escapes them inside a string, or escaped twice (a string that holds one JSON-escaped already,
 * such as a step's field name, `steps["<name as JSON>"].…`); undefined when none came from the
 * environment, so callers skip the test.
 */
export function secretHolder(sensitive: readonly string[]): ((value: JsonValue) => boolean) | undefined {
  const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
  const forms = [
    ...new Set(sensitive.filter((s) => s !== "").flatMap((s) => [s, escaped(s), escaped(escaped(s))])),
  ];
  if (forms.length === 0) return undefined;
  return (value) => {
    const text = canonicalJson(value);
    return forms.some((form) => text.includes(form));
  };
}

/** What a plan's keyCheck is the keyed digest of: the same text for every plan and key. */
export const KEY_CHECK_TEXT = "notiform:api-key-check";

/** No secrets to protect (tests of the pure core, offline commands). */
export const unprotected: Protect = (value) => value;
