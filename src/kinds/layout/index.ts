// Layouts: the e-mail frame a step's content is wrapped in. Identity is the identifier (the same
// in every environment). Authored in Development (POST, PATCH, the set-default route) and brought
// to Production by promotion: with another environment's key a missing or different layout
// "arrives by promotion" and nothing is sent. Managed fields are those the config gives; the
// layout list holds every field, so a plan reads no layout by id. Never deleted.

import type { JsonObject, JsonValue } from "../../canonical.js";
import type { DesiredState } from "../../config/model.js";
import { NotiformError } from "../../errors.js";
import { indexBy } from "../duplicates.js";
import {
  type DesiredItem,
  isDevelopmentOnlyBlocked,
  type KindModule,
  type LiveItem,
  type LiveLookup,
  type PlanContext,
} from "../kind.js";
import { ApiLiveItem } from "../live-item.js";
import type { NotificationApi } from "../notification-api.js";
import { unlessUnsupported } from "../unsupported.js";
import { layoutApi } from "./api.js";
import { canonicalLayout } from "./canonical.js";
import { checkLayouts } from "./checks.js";
import { createKeepsVariables } from "./derived-variables.js";
import { executeLayout, exportLayouts } from "./execute.js";
import { layoutPromotion } from "./promotion.js";
import { layoutRequest } from "./requests.js";
import type { LayoutOperation } from "./types.js";
import type { Layout } from "./wire.js";

export const ARRIVES_BY_PROMOTION =
  "layouts are authored in Development: this arrives by promotion (notiform promote)";

const KEEPS_DESCRIPTION =
  "the server keeps a layout's description when sent an empty one: it cannot be cleared over the API";
const STAYS_DEFAULT =
  "a layout stops being the default only when another becomes it: mark the new default `isDefault: true`";

const FIELDS = ["name", "description", "content", "contentType", "variables", "isDefault"] as const;

function liveLayoutItem(layout: Layout): LiveItem {
  const fields = canonicalLayout(layout);
  return new ApiLiveItem(layout._id, fields, () => ({ identifier: layout.identifier, ...fields }));
}

/**
 * The environment's layouts by identifier -> id, or undefined where the server does not list
 * layouts: what a step's `template.layout` resolves through.
 */
export async function layoutIdsByIdentifier(
  client: NotificationApi,
  signal?: AbortSignal,
): Promise<Map<string, string> | undefined> {
  const layouts = await unlessUnsupported(client.listAllLayouts(signal ? { signal } : {}));
  return layouts === undefined ? undefined : new Map(layouts.map((l) => [l.identifier, l._id]));
}

export const layoutKind: KindModule<"layout"> = {
  kind: "layout",
  section: { name: "layouts", shape: "list", identityFields: ["identifier"] },
  label: { one: "layout", many: "layouts" },
  textFileFields: [["content"]],
  // Rendered around an email's body: the server supplies body, subject, preheader, branding, blocks.
  templateFields: [{ path: ["content"], supplied: ["body", "subject", "preheader", "branding", "blocks"] }],
  identity: (spec) => spec.identifier,
  api: layoutApi,
  requestOf: layoutRequest,
  // The server refuses a second layout with the identifier (409): a lost create is found again by it.
  creates: [],
  checkReferences: checkLayouts,
  promotion: layoutPromotion,

  desiredItems(desired: DesiredState): DesiredItem[] {
    return desired.resources.layout.map(({ spec, source }) => {
      const fields: JsonObject = {};
      for (const field of FIELDS) {
        const value = spec[field];
        if (value === undefined) continue;
        fields[field] =
          field === "variables"
            ? (spec.variables ?? []).map((v) => ({
                name: v.name,
                type: v.type ?? "String",
                required: v.required === true,
                defaultValue: (v.defaultValue ?? "") as JsonValue,
              }))
            : (value as JsonValue);
      }
      return { key: spec.identifier, fields, source, dependsOn: [], ids: {} };
    });
  },

  lookupLive(item: DesiredItem, context: PlanContext): LiveLookup {
    const live = context.live.kinds.layout;
    if (live === undefined)
      return { status: "unknown", reason: "the server does not list layouts (GET /v1/layouts)" };
    const layout = live.get(item.key);
    return layout ? { status: "found", item: liveLayoutItem(layout) } : { status: "absent" };
  },

  operationsFor(op, item, live, changes, context) {
    if (isDevelopmentOnlyBlocked(context.live.environment)) return { notApplicable: ARRIVES_BY_PROMOTION };
    if (op === "unverified") return { notApplicable: "the server does not list layouts (GET /v1/layouts)" };
    const { isDefault, ...fields } = item.fields;
    if (op === "create" || live === undefined) {
      // A server refuses a create without content (CreateLayoutRequestDto: IsDefined), so the
      // plan does, as a workflow without a name: the apply would stop there half-way.
      if (fields.content === undefined)
        throw new NotiformError(
          "CONFIG_INVALID",
          `layout ${item.key}: not on the server, and it has no content to create it with`,
          {
            pos: item.source.pos,
            hint: "Give it `content:` (with {{{body}}}) for notiform to create it, or create it on the server.",
          },
        );
      // The set-default route after the create, on the id the create answers (as the plan shows).
      const action = `layout/${item.key}`;
      return {
        operations: [
          {
            type: "layout.create",
            identifier: item.key,
            body: { identifier: item.key, name: item.key, ...fields },
          },
          // The server derives a new layout's variables from its content; PATCH keeps them as sent.
          ...(fields.variables !== undefined &&
          !createKeepsVariables(String(fields.content ?? ""), fields.variables as JsonValue[])
            ? [
                {
                  type: "layout.update" as const,
                  identifier: item.key,
                  layoutId: "",
                  fields: { variables: fields.variables },
                  layoutFromAction: action,
                },
              ]
            : []),
          ...(isDefault === true
            ? [
                {
                  type: "layout.setDefault" as const,
                  identifier: item.key,
                  layoutId: "",
                  layoutFromAction: action,
                },
              ]
            : []),
        ],
      };
    }
    const layoutId = live.serverId ?? "";
    // What the server cannot do: un-mark the default unless another becomes it (that layout's
    // set-default moves it), or clear a description (PATCH ignores an empty one).
    const cannot: { field: string; what: string; why: string }[] = [];
    const changed: JsonObject = {};
    let setDefault = false;
    for (const change of changes) {
      if (change.field === "isDefault") {
        if (isDefault === true) setDefault = true;
        else if (
          !context.desired.resources.layout.some((l) => l.spec.isDefault && l.spec.identifier !== item.key)
        )
          cannot.push({ field: "isDefault", what: "isDefault false", why: STAYS_DEFAULT });
      } else if (change.field === "description" && fields.description === "")
        cannot.push({ field: "description", what: 'description ""', why: KEEPS_DESCRIPTION });
      else changed[change.field] = fields[change.field] ?? null;
    }
    const operations: LayoutOperation[] = [
      ...(Object.keys(changed).length > 0
        ? [{ type: "layout.update" as const, identifier: item.key, layoutId, fields: changed }]
        : []),
      ...(setDefault ? [{ type: "layout.setDefault" as const, identifier: item.key, layoutId }] : []),
    ];
    if (cannot.length > 0 && operations.length === 0)
      return { notApplicable: cannot.map((c) => c.why).join("; ") };
    for (const { field, what, why } of cannot)
      context.warnings.push({
        code: "layout-not-applied",
        message: `layout ${item.key}: ${what} is not applied (${why})`,
        source: item.source.fields[field] ?? item.source.pos,
      });
    return { operations };
  },

  unmanaged(context, managedKeys) {
    const out = [];
    for (const layout of context.live.kinds.layout?.values() ?? []) {
      if (!managedKeys.has(layout.identifier))
        out.push({ kind: "layout" as const, key: layout.identifier, name: layout.name ?? layout.identifier });
    }
    return out;
  },

  async readLive(client, scope) {
    if (!scope.everything && scope.desired.resources.layout.length === 0) return { live: new Map() };
    const ahead = scope.readAhead?.layout as Promise<Layout[]> | undefined;
    const layouts = await unlessUnsupported(
      ahead ?? client.listAllLayouts(scope.signal ? { signal: scope.signal } : {}),
    );
    if (layouts === undefined) return { live: undefined };
    const { byIdentity, duplicates } = indexBy(layouts, (layout) => layout.identifier);
    return { live: byIdentity, duplicates };
  },

  // While the config loads, once it holds a layout: the whole list, which readLive reads anyway.
  readAhead: (client) => client.listAllLayouts(),
  execute: executeLayout,

  exportSection: exportLayouts,
};
