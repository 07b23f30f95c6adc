// The emulator has no authentication on its admin routes and serves seeded demo keys: it is meant
// for loopback. Bound anywhere else, it says so before it listens.
import { isLoopbackHost } from "../api/base-url.js";

/** A warning for a listen address other machines can reach, or undefined for loopback. */
export function exposureWarning(host: string): string | undefined {
  if (isLoopbackHost(host)) return undefined;
  return (
    `warning: listening on ${JSON.stringify(host)}, not loopback: other machines can reach this emulator, ` +
    "its demo API keys and its unauthenticated admin routes (reset, faults, state). Use --host 127.0.0.1 unless you mean it.\n"
  );
}
