// Executing topic actions. A create whose response was lost, or that meets 409 (a racing or
// earlier attempt already made it), is resolved by reading the topic back by key — never by
// blindly posting again, which could make a second topic (the server has no unique index).
import type { Topic } from "../api/types.js";
import { NotiformError } from "../errors.js";
import type { ExecuteResult, ResourceExecutor } from "./kind.js";
import { hasCode, mayHaveBeenApplied, statusOf } from "./write-outcomes.js";

async function findTopic(
  client: import("../api/types.js").NotificationApi,
  key: string,
): Promise<Topic | undefined> {
  try {
    return await client.getTopic(key);
  } catch (error) {
    if (hasCode(error, "API_NOT_FOUND")) return undefined;
    throw error;
  }
}

export const topicExecutor: ResourceExecutor = {
  async execute(action, request, { client, signal }): Promise<ExecuteResult> {
    const options = signal ? { signal } : {};
    const name = String(request.body.name);
    if (request.method === "PATCH") {
      const topic = await client.renameTopic(action.key, { name }, options);
      return { serverId: topic._id, fields: { name: topic.name } };
    }
    try {
      const created = await client.createTopic({ key: action.key, name }, options);
      return { serverId: created._id };
    } catch (error) {
      const conflict = statusOf(error) === 409;
      if (!conflict && !mayHaveBeenApplied(error)) throw error;
      const existing = await findTopic(client, action.key);
      if (existing !== undefined) {
        return {
          serverId: existing._id,
          fields: { name: existing.name },
          note: conflict ? "already existed (409); read back" : "response lost; read back: created",
        };
      }
      if (conflict) {
        throw new NotiformError(
          "API_ERROR",
          `topic ${action.key}: the server answered 409 but has no such topic`,
          {
            cause: error,
          },
        );
      }
      // Read back found nothing: the lost request never took effect, so one more POST is safe.
      const created = await client.createTopic({ key: action.key, name }, options);
      return { serverId: created._id, note: "response lost; not created; sent again" };
    }
  },

  async reread(action, snapshot, { client }) {
    const topic = await findTopic(client, action.key);
    if (topic !== undefined) snapshot.topics.set(topic.key, topic);
  },
};
