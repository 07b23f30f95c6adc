// The resource kinds notiform manages, in the order apply runs their phases (groups before the
// workflows that join them, layouts before the workflows that use them, tenants and workflows before their overrides). The one list of kinds: each has
// its module in registry.ts, and every per-kind map is typed over `Kind`, so a kind missing a
// part fails to compile. Leaf module: imports nothing.
export const KINDS = [
  "notificationGroup",
  "topic",
  "tenant",
  "layout",
  "workflow",
  "override",
  "branding",
] as const;
export type Kind = (typeof KINDS)[number];
