// Finding out whether the server serves an extension, with reads that can never read a real
// record. Each endpoint group names, per extension, its read probe or "write" (src/kinds/
// endpoint-group.ts); this is the transport's half: what was learnt answers at once, a write
// extension is never probed (a probe would be a write, and `plan` never writes) and is taken as
// served (real servers serve them) until an answer shows it missing, and a read probe's answer
// teaches the capability: the all-zero id is a valid ObjectId no server hands out (it encodes
// time 0), so the route, if present, answers 404 (or 400) about the record; a missing route
// answers "Cannot <METHOD> ..." (or 405/501).

import { ApiError } from "./errors.js";
import type { Requester } from "./requester.js";
import type { Extension } from "./types.js";

export async function probeExtension(
  requester: Requester,
  extension: Extension,
  probe: (() => Promise<unknown>) | "write",
): Promise<boolean> {
  const known = requester.capabilities.get(extension);
  if (known !== "unknown") return known === "supported";
  if (probe === "write") return true;
  try {
    await probe();
  } catch (error) {
    // Anything but an answer from the server (a network failure, a bad key) says nothing.
    if (!(error instanceof ApiError)) throw error;
    if (error.code === "API_UNSUPPORTED") return false;
    if (requester.capabilities.get(extension) !== "supported") throw error;
  }
  return requester.capabilities.get(extension) === "supported";
}
