// Promotion of one Development layout into Production (r3-q3-22, -23, -30, -31): the first time a
// new Production layout with `_parentId` = the Development id, afterwards an update of that copy.
// A layout deleted in Development removes its Production copy; one created and deleted before its
// first promotion is still created there, as on a real server. The default moves with it.
import { layoutsOf, makeDefault } from "./layout-records.js";
import { CREATOR_ID, type EmulatorData, type Layout, nextId } from "./store.js";

export function promoteLayout(data: EmulatorData, layoutId: string, now: string): Layout | undefined {
  const source = data.environments.development.layouts?.find((l) => l._id === layoutId);
  if (source === undefined) return undefined;
  const production = data.environments.production;
  const layouts = layoutsOf(data, production, now);
  const existing = layouts.find((l) => l._parentId === source._id && !l.deleted);
  if (existing !== undefined && source.deleted) {
    existing.deleted = true;
    existing.updatedAt = now;
    return existing;
  }
  const copied = {
    name: source.name,
    identifier: source.identifier,
    description: source.description,
    variables: source.variables.map((v) => ({ ...v, _id: nextId(data) })),
    content: source.content,
    contentType: source.contentType,
  };
  const target: Layout =
    existing ??
    ({
      ...copied,
      _id: nextId(data),
      _environmentId: production.environmentId,
      _organizationId: data.organization._id,
      _creatorId: CREATOR_ID,
      _parentId: source._id,
      isDefault: false,
      channel: "email",
      deleted: false,
      createdAt: now,
      updatedAt: now,
    } satisfies Layout);
  Object.assign(target, copied, { updatedAt: now });
  if (existing === undefined) layouts.push(target);
  if (source.isDefault && !source.deleted) makeDefault(layouts, target, now);
  return target;
}
