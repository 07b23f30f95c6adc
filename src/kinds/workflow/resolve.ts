// The workflow kind's resolve step: an entry that names its workflow by trigger identifier gets
// this environment's id — from the list extension (one read for all), else one GET
// /v1/workflows/{identifier} each, else (a spec-only server) the state file's record of an
// earlier resolution. An entry with a name that the server does not have stays without an id:
// it is planned as a create (Development) or as arriving by promotion (other environments).
// What none of them can resolve is an error at the entry, all in one run.

import type { Desired, DesiredState } from "../../config/model.js";
import type { Problem } from "../../errors.js";
import { ownRecord } from "../../state/model.js";
import type { ResolveContext, ResolveResult } from "../kind.js";
import type { NotificationApi } from "../notification-api.js";
import { type Lookup, lookUpEach, resolveProblem } from "../resolve-identifiers.js";
import { unlessUnsupported } from "../unsupported.js";
import type { WorkflowSpec } from "./types.js";
import type { Workflow } from "./wire.js";

export async function resolveWorkflows(
  client: NotificationApi,
  desired: DesiredState,
  { state, signal, environment }: ResolveContext,
): Promise<ResolveResult<"workflow">> {
  const entries = desired.resources.workflow;
  const identifiers = entries.flatMap(({ spec }) =>
    spec.id === undefined && spec.identifier !== undefined ? [spec.identifier] : [],
  );
  if (identifiers.length === 0) return { entries, problems: [] };
  const { lookups, listed } = await lookUpAll(client, identifiers, signal);
  const recorded = state.identifiers?.workflows ?? {};
  // Workflows the config names already: never adopted for another entry.
  const bound = new Set<string>();
  for (const { spec } of entries) {
    if (spec.id !== undefined) bound.add(spec.id);
    const found = spec.identifier === undefined ? undefined : lookups.get(spec.identifier);
    if (found !== undefined && typeof found === "object") bound.add(found.id);
  }
  const problems: Problem[] = [];
  const ids: Record<string, string> = Object.create(null);
  const resolved = entries.map((entry): Desired<WorkflowSpec> => {
    const { spec, source } = entry;
    if (spec.id !== undefined || spec.identifier === undefined) return entry;
    const pos = source.fields.identifier ?? source.pos;
    const lookup = lookups.get(spec.identifier) ?? "missing";
    const adopted = lookup === "missing" ? adoption(spec, listed, state, bound) : undefined;
    if (adopted !== undefined) {
      ids[spec.identifier] = adopted;
      return { spec: { ...spec, id: adopted, adopted: true }, source };
    }
    if (lookup === "missing") {
      // With a name it is created (Development); in another environment it arrives by promotion.
      if (spec.name !== undefined || (environment !== undefined && environment.name !== "Development"))
        return entry;
      problems.push(
        resolveProblem(
          `workflow "${spec.key}": no workflow with trigger identifier "${spec.identifier}" in this environment (give it a name: to have notiform create it)`,
          pos,
        ),
      );
      return entry;
    }
    const id = lookup === "unsupported" ? ownRecord(recorded, spec.identifier) : lookup.id;
    if (id === undefined) {
      problems.push(
        resolveProblem(
          `workflow "${spec.key}": the server cannot look up workflows by identifier and the state file has no record of "${spec.identifier}": add its id (id: <24 hex>) to this entry in this environment's overlay`,
          pos,
        ),
      );
      return entry;
    }
    ids[spec.identifier] = id;
    return { spec: { ...spec, id }, source };
  });
  return { entries: resolved, record: { section: "workflows", ids }, problems };
}

/**
 * The workflow this entry was bound to, whose trigger identifier is no longer the config's: the
 * id the state file records for the identifier, where the server still lists it and no other
 * entry names it. Two ways there: `notiform resolve workflow/KEY --id ID` after a create whose
 * answer was lost (the server took the identifier from the name, so the config's finds nothing),
 * or an identifier changed in the dashboard. Never guessed by name: a workflow of the same name
 * may be someone else's, and adopting it would replace its content.
 */
function adoption(
  spec: WorkflowSpec,
  listed: readonly Workflow[] | undefined,
  state: ResolveContext["state"],
  bound: ReadonlySet<string>,
): string | undefined {
  if (listed === undefined || spec.identifier === undefined) return undefined;
  const named = ownRecord(state.identifiers?.workflows ?? {}, spec.identifier);
  if (named === undefined || bound.has(named)) return undefined;
  return listed.some((w) => w._id === named) ? named : undefined;
}

/** identifier -> lookup: the list where served (one read, kept for adoption), else a GET each. */
async function lookUpAll(
  client: NotificationApi,
  identifiers: readonly string[],
  signal: AbortSignal | undefined,
): Promise<{ lookups: Map<string, Lookup>; listed: readonly Workflow[] | undefined }> {
  const request = signal ? { signal } : {};
  const listed = await unlessUnsupported(client.listAllWorkflows(request));
  if (listed === undefined)
    return {
      lookups: await lookUpEach(identifiers, (identifier) => client.getWorkflow(identifier, request)),
      listed: undefined,
    };
  const byIdentifier = new Map<string, string>();
  for (const workflow of listed) {
    const identifier = workflow.triggers?.[0]?.identifier;
    if (identifier !== undefined && !byIdentifier.has(identifier)) byIdentifier.set(identifier, workflow._id);
  }
  const lookups = new Map<string, Lookup>(
    identifiers.map((identifier) => {
      const id = byIdentifier.get(identifier);
      return [identifier, id === undefined ? "missing" : { id }];
    }),
  );
  return { lookups, listed };
}
