// A fresh organization's layouts (r3-q3-00, r3-q1-01b): Development holds `novu-default-layout`,
// the default, and one pending DefaultLayout change for it; Production holds none until that
// change is promoted. Apart from layout-records.ts so the records never import the change log.
import { recordChange } from "./changes.js";
import { defaultLayout } from "./layout-records.js";
import type { EmulatorData } from "./store.js";

export function seedLayouts(data: EmulatorData, now: string): void {
  const development = data.environments.development;
  development.layouts = [defaultLayout(data, development, now)];
  for (const layout of development.layouts) recordChange(data, "development", "DefaultLayout", layout, now);
  data.environments.production.layouts = [];
}
