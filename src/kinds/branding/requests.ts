// The HTTP request the branding operation sends (the plan shows it; apply sends exactly it).
import type { PlannedRequest } from "../operations.js";
import type { BrandingOperation } from "./types.js";

export function brandingRequest(op: BrandingOperation): PlannedRequest {
  return { method: "PUT", path: "/v1/organizations/branding", body: { ...op.branding } };
}
