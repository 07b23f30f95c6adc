// The Production side of a promotion preview: promote runs with the Development key, and shows
// what Production will receive as a diff against Production when the config's Production
// environment (`--production-env`, default "production") has its key set. Connects with that
// environment's URL and key and checks the key really reaches Production; then reads only.
import { ConfigError } from "../errors.js";
import type { ApiClient } from "../kinds/client.js";
import { unlessUnsupported } from "../kinds/unsupported.js";
import { maskDeep } from "../mask.js";
import { COMPARED_KINDS, compareWithProduction, unlistedLayouts } from "../promote/compare-production.js";
import type { Promotion } from "../promote/model.js";
import type { RunContext } from "./context.js";
import { connect, loadDesired, type Session, type SessionArgs } from "./session.js";

type ProductionReader = { client: ApiClient } | { why: string };

/**
 * Each workflow and layout the promotion carries as a diff against Production, where the Production
 * environment's key is set; otherwise a warning says why the preview lists the changes' fields.
 */
export async function withProductionDiff(
  session: Session,
  promotion: Promotion,
  args: SessionArgs,
  context: RunContext,
  environmentName: string,
): Promise<Promotion> {
  if (!promotion.entries.some((entry) => COMPARED_KINDS.includes(entry.kind))) return promotion;
  const production = await connectProduction(args, context, environmentName, session.desired.apiKeyEnv);
  const mask = <T>(value: T) => maskDeep(value, context.masker);
  if ("why" in production) {
    const warning = `Production was not read (${production.why}): the workflows and layouts show the fields their changes set, not a diff against Production, and a layout change the server nests in a workflow's is not shown`;
    // Not shown, but kept: a saved promotion is still refused when such a layout moves.
    const carried = promotion.entries.some((entry) => entry.kind === "workflow")
      ? unlistedLayouts(promotion, (await unlessUnsupported(session.client.listAllLayouts())) ?? [], mask)
      : [];
    return {
      ...promotion,
      warnings: [...promotion.warnings, warning],
      ...(carried.length > 0 ? { carried } : {}),
    };
  }
  try {
    return await compareWithProduction(promotion, session.client, production.client, mask);
  } finally {
    await production.client.close();
  }
}

async function connectProduction(
  args: SessionArgs,
  context: RunContext,
  name: string,
  /** The variable this run's (Development's) key came from. */
  runKeyEnv: string,
): Promise<ProductionReader> {
  let loaded: Awaited<ReturnType<typeof loadDesired>>;
  try {
    loaded = await loadDesired({ ...args, env: name }, context);
  } catch (error) {
    if (error instanceof ConfigError && error.problems.some((p) => p.rule === "unknown-environment"))
      return { why: `the config defines no environment "${name}" (--production-env)` };
    throw error;
  }
  const { desired } = loaded;
  const key = context.env[desired.apiKeyEnv];
  if (key === undefined || key.trim() === "")
    return { why: `${desired.apiKeyEnv}, the ${name} environment's key, is not set` };
  const client = connect(args, desired, context);
  try {
    const environment = await unlessUnsupported(client.getCurrentEnvironment());
    if (environment?.name.toLowerCase() === "production") return { client };
    await client.close();
    const reaches = environment?.name ?? "an unnamed environment";
    // What a config exported once per environment with NOTIFORM_API_KEY comes to: both
    // environments read the one variable, so Production's side is read with Development's key.
    if (desired.apiKeyEnv === runKeyEnv)
      return {
        why: `the ${name} environment reads its key from ${runKeyEnv}, as this run does, and it reaches ${reaches}; give ${name} a variable of its own (apiKeyEnv: NOTIFORM_API_KEY_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}) and set it to the Production key`,
      };
    return { why: `the ${name} environment's key reaches ${reaches}, not Production` };
  } catch (error) {
    await client.close();
    throw error;
  }
}
