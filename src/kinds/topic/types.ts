// A topic's types, declared into KindTypes (src/kinds/kinds.ts): its config entry, what a plan
// reads of it, the writes a plan can make, and its share of the typed client.
import type { TopicEndpoints } from "./api.js";
import type { Topic } from "./wire.js";

export interface TopicSpec {
  /** Identity; immutable on the server. Letters, digits, `-`, `_`, `.`, `:`. */
  key: string;
  name: string;
}

export type TopicOperation =
  | { type: "topic.create"; key: string; name: string }
  | { type: "topic.rename"; key: string; name: string };

declare module "../kinds.js" {
  interface KindTypes {
    topic: {
      spec: TopicSpec;
      /** By key. */
      live: Map<string, Topic>;
      operation: TopicOperation;
      endpoints: TopicEndpoints;
      extension: never;
    };
  }
}
