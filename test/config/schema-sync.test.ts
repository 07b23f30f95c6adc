// The published schema and the TypeScript model must describe the same resources: the property
// names of each resource in schemas/notiform.schema.json equal the keys of its Spec type (the
// lists below are typed, so a field added to a type but not listed fails to compile).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CHANNELS,
  type NotificationGroupSpec,
  type OverrideSpec,
  type TopicSpec,
  type WorkflowSpec,
} from "../../src/config/model.js";

const schema = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "..", "schemas", "notiform.schema.json"), "utf8"),
);

type AllKeys<T> = { [K in keyof Required<T>]: true };
const topic: AllKeys<TopicSpec> = { key: true, name: true };
const group: AllKeys<NotificationGroupSpec> = { key: true, name: true };
const workflow: AllKeys<WorkflowSpec> = {
  key: true,
  identifier: true,
  id: true,
  name: true,
  active: true,
  description: true,
  tags: true,
  critical: true,
  preferenceSettings: true,
  notificationGroup: true,
  data: true,
};
const override: AllKeys<OverrideSpec> = {
  workflow: true,
  tenant: true,
  tenantId: true,
  active: true,
  preferenceSettings: true,
};

describe("schemas/notiform.schema.json", () => {
  it.each([
    ["topic", topic],
    ["notificationGroup", group],
    ["workflow", workflow],
    ["override", override],
  ])("%s has exactly the fields of its type", (name, keys) => {
    expect(Object.keys(schema.$defs[name].properties).sort()).toEqual(Object.keys(keys).sort());
  });

  it("names the five channels of the model", () => {
    expect(Object.keys(schema.$defs.preferenceSettings.properties)).toEqual([...CHANNELS]);
  });

  it("describes every property, so editors can show help", () => {
    const missing: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (node === null || typeof node !== "object") return;
      const record = node as Record<string, unknown>;
      if (record.properties && typeof record.properties === "object") {
        for (const [key, value] of Object.entries(
          record.properties as Record<string, Record<string, unknown>>,
        )) {
          if (typeof value.description !== "string" && typeof value.$ref !== "string")
            missing.push(`${path}.${key}`);
          walk(value, `${path}.${key}`);
        }
      }
      for (const [key, value] of Object.entries(record))
        if (key !== "properties") walk(value, `${path}/${key}`);
    };
    walk(schema, "");
    expect(missing).toEqual([]);
  });
});
