// A layout's part in promotion: its changes are Layout records, and a fresh organization's
// default layout a DefaultLayout record (r3-q1-01b). The config manages the layouts it names:
// those it declares and those its workflows' steps name (`template.layout`, e.g. an export's
// `novu-default-layout`). Their pending changes are promoted, before the workflows: a workflow
// promoted while its layout is not in Production points at no layout there (r3-q2-03), and
// would plan as a change forever. The change of a layout that a workflow started using is nested
// under the workflow's change by a real server: not listed, it is promoted with it (r3-q3-22).
import type { DesiredState } from "../../config/model.js";
import { isNotiformError } from "../../errors.js";
import type { ChangeOp } from "../endpoints/wire.js";
import type { NotificationApi } from "../notification-api.js";
import {
  type KindPromotion,
  type PromotedDetails,
  type PromotedField,
  type PromotionHandle,
  promotedField,
  removes,
  topField,
} from "../promotion.js";

/** Layout fields shown as Production will receive them; ids and dates are not. */
const LAYOUT_FIELDS = new Set(["name", "description", "content", "contentType", "isDefault", "deleted"]);

/**
 * What a Layout change gives Production, for a preview that could not read Production: its
 * fields, and `variables` once when a variable changed (a real server also records each
 * variable's regenerated `_id`, which says nothing).
 */
function describeLayoutOps(ops: readonly ChangeOp[]): PromotedDetails {
  const fields: PromotedField[] = [];
  let variables = false;
  // The identifier the operations set (a layout's first recording), for a layout the config
  // does not name: what the state file knows it by (its held secrets).
  let identifier: string | undefined;
  for (const op of ops) {
    const field = topField(op);
    if (LAYOUT_FIELDS.has(field) && op.path.length === 1) fields.push(promotedField(field, op));
    else if (field === "variables" && !["_id", "id"].includes(String(op.path.at(-1)))) variables = true;
    else if (field === "identifier" && op.path.length === 1 && typeof op.val === "string" && !removes(op))
      identifier = op.val;
  }
  if (variables) fields.push({ field: "variables", op: "set", value: "(changed)" });
  fields.sort((a, b) => a.field.localeCompare(b.field));
  return { fields, ...(identifier !== undefined ? { identifier } : {}) };
}

async function namedLayouts(desired: DesiredState, _state: unknown, client: NotificationApi) {
  const declared = new Set(desired.resources.layout.map((l) => l.spec.identifier));
  for (const { spec } of desired.resources.workflow)
    for (const step of spec.steps ?? [])
      if (step.template?.layout !== undefined) declared.add(step.template.layout);
  const handles = new Map<string, PromotionHandle>();
  if (declared.size === 0) return { handles, warnings: [] };
  try {
    const all = await client.listAllLayouts();
    for (const layout of all)
      if (declared.has(layout.identifier)) handles.set(layout._id, { key: layout.identifier });
  } catch (error) {
    if (!(isNotiformError(error) && error.code === "API_UNSUPPORTED")) throw error;
  }
  return { handles, warnings: [] };
}

export const layoutPromotion: KindPromotion = {
  changeTypes: ["Layout", "DefaultLayout"],
  managed: namedLayouts,
  describe: describeLayoutOps,
};
