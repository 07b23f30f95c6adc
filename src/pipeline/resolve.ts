// The resolve stage: say what became of a create that an interrupted apply left in flight (an
// "uncertain" action in the plan). With an id the resource exists and is bound to it; without,
// it does not, and the next apply may create it. Offline: it only edits the state file, under
// the apply lock, atomically.
import { resolve as resolvePath } from "node:path";
import { StateRecorder } from "../apply/state-recorder.js";
import { NotiformError } from "../errors.js";
import { describeKind, KINDS, registry } from "../kinds/registry.js";
import { keyedDigest, protector } from "../secrets/keyed-digest.js";
import { withStateLock } from "../state/lock.js";
import { ownRecord } from "../state/model.js";
import { defaultStatePath, readState } from "../state/state-store.js";
import type { RunContext } from "./context.js";
import { type ConfigArgs, loadDesired } from "./session.js";

export interface ResolveArgs extends ConfigArgs {
  /** KIND/KEY, as the plan names it. */
  resource: string;
  /** It was created: the server id to bind it to (else: it was not created). */
  id?: string | undefined;
  state?: string | undefined;
}

/** Resolves with what was recorded, for the person running it. */
export async function resolveInterruptedCreate(args: ResolveArgs, context: RunContext): Promise<string> {
  const { desired } = await loadDesired(args, context);
  const statePath =
    args.state !== undefined
      ? resolvePath(context.cwd, args.state)
      : defaultStatePath(desired.rootFile, desired.environment);
  const [kind, ...rest] = args.resource.split("/");
  const key = rest.join("/");
  if (!KINDS.includes(kind as (typeof KINDS)[number]) || key === "") {
    throw new NotiformError("USAGE", `${args.resource}: expected KIND/KEY, as the plan names it`, {
      hint: `KIND is one of ${KINDS.join(", ")}.`,
    });
  }
  return withStateLock(statePath, { command: "notiform resolve" }, async () => {
    const state = await readState(statePath, undefined);
    const intent = ownRecord(state.intents ?? {}, args.resource);
    if (intent === undefined) {
      throw new NotiformError(
        "USAGE",
        `${args.resource}: the state file records no interrupted create of it`,
        {
          hint: "Only resources the plan shows as uncertain need resolving.",
        },
      );
    }
    // Offline: with the key at hand a secret-bearing name is kept as its keyed digest; without
    // it, nothing of it is kept (the next plan renames, harmlessly, to the configured name).
    const apiKey = context.env[desired.apiKeyEnv];
    const keyed = apiKey === undefined || apiKey === "" ? undefined : keyedDigest(apiKey);
    const recorder = new StateRecorder(state, statePath, protector(desired.sensitive, keyed));
    if (args.id !== undefined && !/^[0-9a-fA-F]{24}$/.test(args.id)) {
      throw new NotiformError(
        "USAGE",
        `--id ${JSON.stringify(args.id)} is not a server id (24 hex characters)`,
        {
          hint: "Give the id the plan names, or the one the dashboard shows.",
        },
      );
    }
    const workflow =
      args.id !== undefined && intent.kind === "workflow"
        ? desired.resources.workflow.find((w) => w.spec.key === key)?.spec
        : undefined;
    if (args.id !== undefined && workflow?.identifier !== undefined) {
      // Found by its identifier, which the server took from the name: the next plan adopts the
      // workflow of this id and sets the config's identifier on it (workflow/resolve.ts).
      await recorder.recordEnvironment(undefined, { workflows: { [workflow.identifier]: args.id } });
    } else if (args.id !== undefined) {
      const binding = registry[intent.kind].stateBinding?.(key, args.id, desired);
      if (binding === undefined) {
        throw new NotiformError(
          "USAGE",
          `${args.resource}: a ${describeKind(intent.kind)} is found on the server by its identity; there is no id to bind`,
          { hint: "Use --not-created, or re-run plan: it finds the resource if it exists." },
        );
      }
      await recorder.record(binding);
    }
    await recorder.clearIntent(args.resource);
    if (args.id !== undefined && workflow?.identifier !== undefined)
      return `Recorded ${args.resource} as server id ${args.id}; the next plan adopts it and sets its trigger identifier to ${workflow.identifier}.\n`;
    return args.id !== undefined
      ? `Recorded ${args.resource} as server id ${args.id}; the next plan treats it as existing.\n`
      : `Recorded that ${args.resource} was not created (interrupted ${intent.startedAt}); the next apply creates it.\n`;
  });
}
