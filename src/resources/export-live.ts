// Live state -> config documents (`notiform export`), pure. Output is deterministic: sorted by
// identity, fixed key order, so exporting twice gives no diff. Defaults are left out (an
// override's true channels, an empty description), so the files stay short and, applied back,
// plan to nothing. Secrets never reach here: only names, flags and ids are exported.
import type { NotificationGroup, Topic, Workflow, WorkflowOverride } from "../api/types.js";
import { CHANNELS } from "../config/model.js";

export interface ExportInput {
  organization: string;
  topics: Topic[];
  overrides: WorkflowOverride[];
  /** undefined: the server cannot list workflows. */
  workflows: Workflow[] | undefined;
  /** undefined: the server cannot list notification groups. */
  notificationGroups: NotificationGroup[] | undefined;
}

export interface ExportDocuments {
  /** File name -> document (plain data, in key order). */
  files: Map<string, Record<string, unknown>>;
}

const SCHEMA_MODELINE =
  "# yaml-language-server: $schema=./node_modules/notiform/schemas/notiform.schema.json";
export const EXPORT_HEADER = `${SCHEMA_MODELINE}\n# Exported by notiform from the live state; edit freely, then \`notiform plan\`.\n`;

export function exportDocuments(input: ExportInput): ExportDocuments {
  const files = new Map<string, Record<string, unknown>>();
  const byId = (a: { _id: string }, b: { _id: string }) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);

  const groupKeys = new Map<string, string>();
  if (input.notificationGroups !== undefined && input.notificationGroups.length > 0) {
    const used = new Set<string>();
    const groups = [...input.notificationGroups].sort(byId).map((group) => {
      const key = uniqueKey(slug(group.name) || "group", used);
      groupKeys.set(group._id, key);
      return { key, name: group.name };
    });
    files.set("notification-groups.yaml", {
      notificationGroups: groups.sort((a, b) => compare(a.key, b.key)),
    });
  }

  const workflowKeys = new Map<string, string>();
  if (input.workflows !== undefined && input.workflows.length > 0) {
    const used = new Set<string>();
    const workflows = [...input.workflows].sort(byId).map((workflow) => {
      const key = uniqueKey(
        slug(workflow.triggers?.[0]?.identifier ?? "") || slug(workflow.name) || "workflow",
        used,
      );
      workflowKeys.set(workflow._id, key);
      return exportWorkflow(key, workflow, groupKeys);
    });
    files.set("workflows.yaml", {
      workflows: workflows.sort((a, b) => compare(String(a.key), String(b.key))),
    });
  }

  if (input.topics.length > 0) {
    const topics = [...input.topics]
      .sort((a, b) => compare(a.key, b.key))
      .map((t) => ({ key: t.key, name: t.name }));
    files.set("topics.yaml", { topics });
  }

  if (input.overrides.length > 0) {
    const overrides = input.overrides
      .map((o) => {
        const entry: Record<string, unknown> = {
          workflow: workflowKeys.get(o._workflowId) ?? o._workflowId,
          tenant: o._tenantId,
          active: o.active === true,
        };
        const off = Object.fromEntries(
          CHANNELS.filter((c) => o.preferenceSettings?.[c] === false).map((c) => [c, false]),
        );
        if (Object.keys(off).length > 0) entry.preferenceSettings = off;
        return entry;
      })
      .sort(
        (a, b) =>
          compare(String(a.workflow), String(b.workflow)) || compare(String(a.tenant), String(b.tenant)),
      );
    files.set("overrides.yaml", { overrides });
  }

  const root: Record<string, unknown> = { version: 1, organization: input.organization };
  const included = ["notification-groups.yaml", "workflows.yaml", "topics.yaml", "overrides.yaml"].filter(
    (f) => files.has(f),
  );
  if (included.length > 0) root.include = included;
  return { files: new Map([["notiform.yaml", root], ...files]) };
}

function exportWorkflow(
  key: string,
  workflow: Workflow,
  groupKeys: ReadonlyMap<string, string>,
): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    key,
    id: workflow._id,
    name: workflow.name,
    active: workflow.active,
  };
  if (workflow.description !== undefined && workflow.description !== "")
    entry.description = workflow.description;
  entry.critical = workflow.critical === true;
  if (workflow.tags !== undefined && workflow.tags.length > 0)
    entry.tags = [...new Set(workflow.tags)].sort();
  const group = groupKeys.get(workflow._notificationGroupId);
  if (group !== undefined) entry.notificationGroup = group;
  entry.preferenceSettings = Object.fromEntries(
    CHANNELS.map((c) => [c, workflow.preferenceSettings?.[c] ?? true]),
  );
  return entry;
}

/** A config key from a display name: lower case letters, digits and dashes. */
export function slug(text: string): string {
  return text
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
}

function uniqueKey(base: string, used: Set<string>): string {
  let key = base;
  for (let n = 2; used.has(key); n += 1) key = `${base}-${n}`;
  used.add(key);
  return key;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
