// Executing topic operations. A create whose response was lost, or that meets 409 (a racing or
// earlier attempt already made it), is resolved by reading the topic back by key — never by
// blindly posting again, which could make a second topic (the server has no unique index).
import type { RequestOptions } from "../../api/types.js";
import { NotiformError } from "../../errors.js";
import type { ExecuteContext, ExecuteResult } from "../kind.js";
import type { NotificationApi } from "../notification-api.js";
import type { PlanAction } from "../plan-action.js";
import { hasCode, mayHaveBeenApplied, statusOf } from "../write-outcomes.js";
import type { TopicOperation } from "./types.js";
import type { Topic } from "./wire.js";

export async function findTopic(
  client: NotificationApi,
  key: string,
  options: RequestOptions = {},
): Promise<Topic | undefined> {
  try {
    return await client.getTopic(key, options);
  } catch (error) {
    if (hasCode(error, "API_NOT_FOUND")) return undefined;
    throw error;
  }
}

export async function executeTopic(
  _action: PlanAction,
  op: TopicOperation,
  { client, signal }: ExecuteContext,
): Promise<ExecuteResult> {
  const options = signal ? { signal } : {};
  if (op.type === "topic.rename") {
    const topic = await client.renameTopic(op.key, { name: op.name }, options);
    return { serverId: topic._id, fields: { name: topic.name } };
  }
  try {
    const created = await client.createTopic({ key: op.key, name: op.name }, options);
    return { serverId: created._id };
  } catch (error) {
    const conflict = statusOf(error) === 409;
    if (!conflict && !mayHaveBeenApplied(error)) throw error;
    const existing = await findTopic(client, op.key);
    if (existing !== undefined) {
      return {
        serverId: existing._id,
        fields: { name: existing.name },
        note: conflict ? "already existed (409); read back" : "response lost; read back: created",
      };
    }
    if (conflict) {
      throw new NotiformError("API_ERROR", `topic ${op.key}: the server answered 409 but has no such topic`, {
        cause: error,
      });
    }
    // Read back found nothing: the lost request never took effect, so one more POST is safe.
    const created = await client.createTopic({ key: op.key, name: op.name }, options);
    return { serverId: created._id, note: "response lost; not created; sent again" };
  }
}
