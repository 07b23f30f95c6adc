// A promotion's view of secrets the config stops naming (src/plan/held-secrets.ts): Production
// received, by earlier promotions, what Development was applied with. Once the config no longer
// takes a value from the environment, nothing masks it, yet Production still holds it and the
// promotion's diff shows it as the old side, and Development's side too where Development still
// holds it (an entity the config stopped managing, or one not applied since); a pending change
// is listed by its Development name, which may be one. The Development state file's heldSecrets
// and secretValues say which: those values and names are withheld until an apply of the whole
// config releases them. Pure.

import { canonicalJson } from "../canonical.js";
import { parseStepField, stepField } from "../kinds/workflow/steps-canonical.js";
import { holdsSecretValue, WITHHELD } from "../plan/held-secrets.js";
import type { FieldChange } from "../plan/model.js";
import type { KeyedDigest } from "../secrets/keyed-digest.js";
import { ownRecord, type StateFile } from "../state/model.js";
import type { PromotedField, Promotion, PromotionEntry } from "./model.js";

export function withholdPromotionSecrets(
  promotion: Promotion,
  state: Pick<StateFile, "heldSecrets" | "secretValues">,
  keyed: KeyedDigest,
): Promotion {
  const heldSecrets = state.heldSecrets ?? {};
  const names = new Set(state.secretValues ?? []);
  if (Object.keys(heldSecrets).length === 0 && names.size === 0) return promotion;
  // A text the state names, anywhere in a value (a name, a side, a field's value).
  const holdsText = (value: unknown) => names.size > 0 && holdsSecretValue(value, names, keyed);
  const heldOf = (id: string | undefined) =>
    new Set(id === undefined ? [] : (ownRecord(heldSecrets, id) ?? []));
  // A field as kept: itself, or (a name holding a secret) its keyed digest, which is found
  // whether or not the config still names that secret.
  const isHeld = (held: ReadonlySet<string>, field: string) =>
    held.has(field) || held.has(keyed(canonicalJson(field)));
  const withheldDiff = (held: ReadonlySet<string>, diff: FieldChange[] | undefined) => {
    if (diff === undefined || (held.size === 0 && names.size === 0)) return diff;
    // Both sides: Production's, and Development's, which still holds the secret where the
    // config stopped managing the entity (or has not been applied since it stopped naming it).
    // A step named by a secret is shown as steps["********"], whatever its fields.
    return diff.map((change) => {
      const step = parseStepField(change.field);
      const secretStep = step !== undefined && holdsText(step.step);
      const whole = secretStep || isHeld(held, change.field);
      // Or a side holding such a text elsewhere (a workflow's group, by a name that held one).
      const side = (value: unknown) => whole || holdsText(value);
      const [old, next] = [change.old !== undefined && side(change.old), side(change.new)];
      if (!whole && !old && !next) return change;
      return {
        ...change,
        ...(secretStep ? { field: stepField(WITHHELD, step.field) } : {}),
        ...(old ? { old: WITHHELD } : {}),
        ...(next ? { new: WITHHELD } : {}),
      };
    });
  };
  // A change's own fields are coarser than the plan's (preferenceSettings, not .sms): a field
  // is withheld when it or a field inside it is held.
  const heldField = (held: ReadonlySet<string>, field: string) =>
    isHeld(held, field) ||
    [...held].some((name) => name.startsWith(`${field}.`) || name.startsWith(`${field}[`));
  const entry = (each: PromotionEntry): PromotionEntry => {
    // A managed entity by its config key; another by its identifier, as its config entry had it.
    const key = each.key ?? each.identifier;
    const held = heldOf(key === undefined ? undefined : `${each.kind}/${key}`);
    const diff = withheldDiff(held, each.diff);
    // A text the state names is withheld by its digest too (a group has no key or identifier).
    const withheld = (f: PromotedField) =>
      f.value !== undefined && (heldField(held, f.field) || holdsText(f.value));
    const fields = each.fields.map((f) => (withheld(f) ? { ...f, value: WITHHELD } : f));
    const name = holdsText(each.name) ? WITHHELD : each.name;
    return { ...each, name, fields, ...(diff !== undefined ? { diff } : {}) };
  };
  return {
    ...promotion,
    entries: promotion.entries.map(entry),
    unmanaged: promotion.unmanaged.map(entry),
    ...(promotion.carried !== undefined
      ? {
          carried: promotion.carried.map((layout) => {
            const diff = withheldDiff(heldOf(`layout/${layout.key}`), layout.diff);
            return { ...layout, ...(diff !== undefined ? { diff } : {}) };
          }),
        }
      : {}),
  };
}
