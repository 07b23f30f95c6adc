// Topics (endpoints 1-4), with the real server's rules where the spec is silent: pageSize at
// most 10, `key` an exact match, 409 for an existing key, 404 "Topic not found for id ...".
// Where the real server answers 500 (a key with a space, an empty name) the emulator answers
// 400 with a validation message: it documents the rule instead of imitating the crash.
import { badRequest, HttpError, notFound } from "../http-error.js";
import { nextId } from "../store.js";
import { type Handler, isObject, ok, requireName } from "./context.js";

const KEY = /^[A-Za-z0-9_.:@+/-]+$/;

function intParam(value: string | null, name: string, fallback: number): number {
  if (value === null || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n)) throw badRequest([`${name} must be an integer number`]);
  if (n < 0) throw badRequest([`${name} must not be less than 0`]);
  return n;
}

export const listTopics: Handler = ({ store, query, index }) => {
  const page = intParam(query.get("page"), "page", 0);
  const pageSize = intParam(query.get("pageSize"), "pageSize", 10);
  if (pageSize > 10) throw badRequest("Page size can not be larger then 10");
  const key = query.get("key");
  let topics = store.topics;
  if (key !== null) {
    const one = index.topic(key);
    topics = one ? [one] : [];
  }
  const data = topics.slice(page * pageSize, page * pageSize + pageSize);
  return { status: 200, body: { data, page, pageSize, totalCount: topics.length } };
};

export const getTopic: Handler = ({ index, params, store }) => {
  const topic = index.topic(params.key ?? "");
  if (!topic) throw topicNotFound(params.key ?? "", store.environmentId);
  return ok(topic);
};

export const createTopic: Handler = ({ data, store, index, body }) => {
  const problems: string[] = [];
  const b = isObject(body) ? body : {};
  if (b.key === undefined || b.key === null) problems.push("key should not be null or undefined");
  if (typeof b.key !== "string") problems.push("key must be a string");
  else if (!KEY.test(b.key))
    problems.push('key must contain only letters, digits, "-", "_", ".", ":", "@", "+" and "/"');
  if (typeof b.name !== "string") problems.push("name must be a string");
  else if (b.name.trim() === "") problems.push("name should not be empty");
  if (problems.length > 0) throw badRequest(problems);
  const key = b.key as string;
  if (index.topic(key)) {
    throw new HttpError(
      409,
      `Topic exists with key ${key} in the environment ${store.environmentId} of the organization ${data.organization._id}`,
    );
  }
  const topic = {
    _id: nextId(data),
    _organizationId: data.organization._id,
    _environmentId: store.environmentId,
    key,
    name: b.name as string,
    subscribers: [],
  };
  index.addTopic(topic);
  // Real servers answer only {_id, key} (spec G4 leaves it open).
  return ok({ _id: topic._id, key: topic.key }, 201, true);
};

export const renameTopic: Handler = ({ index, params, body, store }) => {
  const topic = index.topic(params.key ?? "");
  if (!topic) throw topicNotFound(params.key ?? "", store.environmentId);
  topic.name = requireName(body);
  return ok(topic, 200, true);
};

function topicNotFound(key: string, environmentId: string): HttpError {
  return notFound(`Topic not found for id ${key} in the environment ${environmentId}`);
}
