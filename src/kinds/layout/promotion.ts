// A layout's part in promotion: its changes are Layout records, and a fresh organization's
// default layout a DefaultLayout record (r3-q1-01b). The config manages the layouts it names:
// those it declares and those its workflows' steps name (`template.layout`, e.g. an export's
// `novu-default-layout`). Their pending changes are promoted, before the workflows: a workflow
// promoted while its layout is not in Production points at no layout there (r3-q2-03), and
// would plan as a change forever.
import type { DesiredState } from "../../config/model.js";
import { isNotiformError } from "../../errors.js";
import type { NotificationApi } from "../notification-api.js";
import type { KindPromotion, PromotionHandle } from "../promotion.js";

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
};
