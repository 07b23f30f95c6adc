// Executing layout operations, and the layouts' part of an export. A create answers with the id
// only; one that meets 409 or whose answer was lost is found again by identifier in the list (the
// server refuses a second layout with the identifier), never posted blindly twice.

import { createHash } from "node:crypto";
import { InternalError, NotiformError } from "../../errors.js";
import { isDeviceName } from "../export-keys.js";
import type { ExecuteContext, ExecuteResult, ExportSection } from "../kind.js";
import type { LiveByKind } from "../kinds.js";
import type { NotificationApi } from "../notification-api.js";
import type { PlanAction } from "../plan-action.js";
import { mayHaveBeenApplied, statusOf } from "../write-outcomes.js";
import { canonicalLayout } from "./canonical.js";
import type { LayoutOperation } from "./types.js";
import type { CreateLayoutBody, Layout } from "./wire.js";

async function findLayout(client: NotificationApi, identifier: string): Promise<Layout | undefined> {
  return (await client.listAllLayouts()).find((layout) => layout.identifier === identifier);
}

export async function executeLayout(
  _action: PlanAction,
  op: LayoutOperation,
  { client, signal, createdIds }: ExecuteContext,
): Promise<ExecuteResult> {
  const options = signal ? { signal } : {};
  if (op.type === "layout.setDefault" || op.type === "layout.update") {
    const layoutId = op.layoutFromAction === undefined ? op.layoutId : createdIds.get(op.layoutFromAction);
    if (layoutId === undefined) throw new InternalError(`${op.layoutFromAction} produced no layout id`);
    if (op.type === "layout.setDefault") await client.setDefaultLayout(layoutId, options);
    else await client.updateLayout(layoutId, op.fields as Partial<CreateLayoutBody>, options);
    return { serverId: layoutId };
  }
  let id: string;
  let note: string | undefined;
  try {
    id = (await client.createLayout(op.body as unknown as CreateLayoutBody, options))._id;
  } catch (error) {
    const conflict = statusOf(error) === 409;
    if (!conflict && !mayHaveBeenApplied(error)) throw error;
    const existing = await findLayout(client, op.identifier);
    if (existing === undefined) {
      if (conflict)
        throw new NotiformError(
          "API_ERROR",
          `layout ${op.identifier}: the server answered 409 but lists no such layout`,
          {
            cause: error,
          },
        );
      id = (await client.createLayout(op.body as unknown as CreateLayoutBody, options))._id;
      note = "response lost; not created; sent again";
    } else {
      id = existing._id;
      note = conflict ? "already existed (409); read back" : "response lost; read back: created";
    }
  }
  return { serverId: id, ...(note !== undefined ? { note } : {}) };
}

/**
 * A file name for each layout's content: its identifier, made safe for a path, and unique
 * whatever the disk's case sensitivity. `brand:eu` and `brand_eu` both make `brand_eu`, and
 * `Brand-US` and `brand-us` are one file on macOS or Windows: every layout of such a group, and
 * any whose name had to change, gets a short suffix from its identifier (the same on every
 * export, whichever other layouts exist), so no export loses a layout's content to another.
 */
function contentFiles(identifiers: readonly string[]): Map<string, string> {
  const safe = (identifier: string) => identifier.replace(/[^A-Za-z0-9_.-]/g, "_");
  const groups = new Map<string, number>();
  for (const identifier of identifiers) {
    const folded = safe(identifier).toLowerCase();
    groups.set(folded, (groups.get(folded) ?? 0) + 1);
  }
  const files = new Map<string, string>();
  for (const identifier of identifiers) {
    const name = safe(identifier);
    // A device name (con, aux...) is no file on Windows: it takes the digest too.
    const plain = name === identifier && groups.get(name.toLowerCase()) === 1 && !isDeviceName(name);
    files.set(identifier, `layouts/${plain ? name : `${name}-${shortDigest(identifier)}`}.html`);
  }
  return files;
}

function shortDigest(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 8);
}

export function exportLayouts(live: LiveByKind["layout"]): ExportSection {
  if (live === undefined) return { notExported: "the server does not list layouts (GET /v1/layouts)" };
  if (live.size === 0) return undefined;
  const sorted = [...live.values()].sort((a, b) =>
    a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0,
  );
  const textFiles = new Map<string, string>();
  const files = contentFiles(sorted.map((layout) => layout.identifier));
  const layouts = sorted.map((layout) => {
    const fields = canonicalLayout(layout);
    const file = files.get(layout.identifier) ?? "";
    textFiles.set(file, String(fields.content));
    return {
      identifier: layout.identifier,
      name: fields.name,
      ...(fields.description !== "" ? { description: fields.description } : {}),
      content: { file },
      contentType: fields.contentType,
      ...(Array.isArray(fields.variables) && fields.variables.length > 0
        ? { variables: fields.variables }
        : {}),
      isDefault: fields.isDefault,
    };
  });
  return { file: "layouts.yaml", value: layouts, textFiles };
}
