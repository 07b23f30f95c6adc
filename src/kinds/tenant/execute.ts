// Executing tenant operations. A create that meets 409, or whose response was lost, is resolved by
// reading the tenant back by identifier: the server refuses a second tenant with the identifier,
// so a lost create is found again and never made twice.
import type { RequestOptions } from "../../api/types.js";
import type { JsonObject } from "../../canonical.js";
import { NotiformError } from "../../errors.js";
import type { ExecuteContext, ExecuteResult } from "../kind.js";
import type { NotificationApi } from "../notification-api.js";
import type { PlanAction } from "../plan-action.js";
import { hasCode, mayHaveBeenApplied, statusOf } from "../write-outcomes.js";
import type { TenantOperation } from "./types.js";
import type { Tenant } from "./wire.js";

export async function findTenant(
  client: NotificationApi,
  identifier: string,
  options: RequestOptions = {},
): Promise<Tenant | undefined> {
  try {
    return await client.getTenant(identifier, options);
  } catch (error) {
    if (hasCode(error, "API_NOT_FOUND")) return undefined;
    throw error;
  }
}

function resultOf(tenant: Tenant, note?: string): ExecuteResult {
  const fields: JsonObject = { name: tenant.name ?? tenant.identifier };
  if (tenant.data !== undefined) fields.data = tenant.data as JsonObject;
  return { serverId: tenant._id, fields, ...(note !== undefined ? { note } : {}) };
}

export async function executeTenant(
  _action: PlanAction,
  op: TenantOperation,
  { client, signal }: ExecuteContext,
): Promise<ExecuteResult> {
  const options = signal ? { signal } : {};
  if (op.type === "tenant.update") {
    const body = {
      ...(op.name !== undefined ? { name: op.name } : {}),
      ...(op.data !== undefined ? { data: op.data } : {}),
    };
    return resultOf(await client.updateTenant(op.identifier, body, options));
  }
  const body = {
    identifier: op.identifier,
    name: op.name,
    ...(op.data !== undefined ? { data: op.data } : {}),
  };
  try {
    return resultOf(await client.createTenant(body, options));
  } catch (error) {
    const conflict = statusOf(error) === 409;
    if (!conflict && !mayHaveBeenApplied(error)) throw error;
    const existing = await findTenant(client, op.identifier);
    if (existing !== undefined)
      return resultOf(
        existing,
        conflict ? "already existed (409); read back" : "response lost; read back: created",
      );
    if (conflict) {
      throw new NotiformError(
        "API_ERROR",
        `tenant ${op.identifier}: the server answered 409 but has no such tenant`,
        { cause: error },
      );
    }
    return resultOf(await client.createTenant(body, options), "response lost; not created; sent again");
  }
}
