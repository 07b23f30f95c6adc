// Resolving portable identifiers (a workflow's trigger identifier, a tenant's identifier) to the
// server ids of the environment the key reaches: ids differ per environment, identifiers do not.
// Shared by the workflow and override kinds' resolve step: look each identifier up on the server
// where it can (one GET each), fall back to the state file's record where it cannot, and report
// every entry that cannot be resolved at once, at its position.
import { isNotiformError, type Position, type Problem } from "../errors.js";

/** An identifier's lookup: its id, "missing" (the server says no such thing), or "unsupported". */
export type Lookup = { id: string } | "missing" | "unsupported";

/** One GET per identifier (in parallel, within the client's limits); 404s and absent routes as answers. */
export async function lookUpEach(
  identifiers: readonly string[],
  get: (identifier: string) => Promise<{ _id: string }>,
): Promise<Map<string, Lookup>> {
  const unique = [...new Set(identifiers)];
  const out = new Map<string, Lookup>();
  const first = unique[0];
  if (first === undefined) return out;
  // The first answer tells whether the route exists: no need to ask it again for every entry.
  const probe = await lookUp(first, get);
  out.set(first, probe);
  if (probe === "unsupported") {
    for (const identifier of unique) out.set(identifier, "unsupported");
    return out;
  }
  const rest = await Promise.all(unique.slice(1).map((identifier) => lookUp(identifier, get)));
  unique.slice(1).forEach((identifier, index) => {
    out.set(identifier, rest[index] ?? "missing");
  });
  return out;
}

async function lookUp(identifier: string, get: (identifier: string) => Promise<{ _id: string }>) {
  try {
    return { id: (await get(identifier))._id } as Lookup;
  } catch (error) {
    if (isNotiformError(error) && error.code === "API_NOT_FOUND") return "missing" as const;
    if (isNotiformError(error) && error.code === "API_UNSUPPORTED") return "unsupported" as const;
    throw error;
  }
}

export function resolveProblem(message: string, pos: Position): Problem {
  return { severity: "error", rule: "unresolved-identifier", message, pos };
}
