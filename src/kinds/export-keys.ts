// Config keys for exported resources: made from names, lower case, unique within a kind.

/** A config key from a display name: lower case letters, digits and dashes. */
export function slug(text: string): string {
  return text
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
}

export function uniqueKey(base: string, used: Set<string>): string {
  let key = base;
  for (let n = 2; used.has(key); n += 1) key = `${base}-${n}`;
  used.add(key);
  return key;
}

/**
 * Names Windows keeps for devices, whatever follows their first dot (`con.html`, `aux/`): a file or
 * folder so named cannot be checked out or unpacked there (an export is committed, a preview is a
 * CI artifact, and either may be opened on any machine).
 */
export const DEVICE_NAMES: readonly string[] = [
  "con",
  "prn",
  "aux",
  "nul",
  ...[..."0123456789"].flatMap((n) => [`com${n}`, `lpt${n}`]),
];

/** Whether `name` (a file or folder name) is one Windows keeps for a device, in any case. */
export function isDeviceName(name: string): boolean {
  return DEVICE_NAMES.includes((name.split(".")[0] ?? "").toLowerCase());
}
