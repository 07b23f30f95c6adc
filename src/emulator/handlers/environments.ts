// Environments (extension). GET /v1/environments/me names the environment a key reaches
// (Production's `_parentId` is Development's `_id`). Tenants are in ./tenants.ts.
import { type Handler, ok } from "./context.js";

/** Fixed stand-ins for the random 12-character identifiers of a real server's environments. */
const IDENTIFIERS = { development: "emu-dev-0001", production: "emu-prod-001" } as const;

export const currentEnvironment: Handler = (ctx) => {
  const development = ctx.data.environments.development;
  const production = ctx.environment === "production";
  const stamp = String(ctx.data.organization.createdAt ?? ctx.now);
  return ok({
    _id: ctx.store.environmentId,
    name: production ? "Production" : "Development",
    identifier: IDENTIFIERS[ctx.environment],
    _organizationId: ctx.data.organization._id,
    ...(production ? { _parentId: development.environmentId } : {}),
    widget: { notificationCenterEncryption: false },
    createdAt: stamp,
    updatedAt: stamp,
  });
};
