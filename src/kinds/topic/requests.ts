// The HTTP request each topic operation sends (the plan shows it; apply sends exactly it).
import { type PlannedRequest, pathSegment } from "../operations.js";
import type { TopicOperation } from "./types.js";

export function topicRequest(op: TopicOperation): PlannedRequest {
  switch (op.type) {
    case "topic.create":
      return { method: "POST", path: "/v1/topics", body: { key: op.key, name: op.name } };
    case "topic.rename":
      return { method: "PATCH", path: `/v1/topics/${pathSegment(op.key)}`, body: { name: op.name } };
  }
}
