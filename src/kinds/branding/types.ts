// Branding's types, declared into KindTypes (src/kinds/kinds.ts): its config entry, what a plan
// reads of it, the writes a plan can make, and its share of the typed client.
import type { JsonObject } from "../../canonical.js";
import type { BrandingEndpoints, BrandingExtension } from "./api.js";
import type { Branding } from "./wire.js";

/** Organization branding: only the fields present are managed. */
export interface BrandingSpec {
  color?: string;
  fontColor?: string;
  contentBackground?: string;
  fontFamily?: string;
  /** An image URL (jpg, jpeg, png, gif, svg), as real servers require. */
  logo?: string;
  direction?: "ltr" | "rtl";
}

export type BrandingOperation = { type: "branding.update"; branding: JsonObject };

/** What a plan reads of branding. */
export interface BrandingLive {
  /** The organization's branding as GET /v1/organizations/me shows it. */
  current: Branding;
  /** undefined: the server can write branding; else why not. */
  notWritable?: string;
}

declare module "../kinds.js" {
  interface KindTypes {
    branding: {
      spec: BrandingSpec;
      live: BrandingLive;
      operation: BrandingOperation;
      endpoints: BrandingEndpoints;
      extension: BrandingExtension;
    };
  }
}
