// The branding write: PUT /v1/organizations/branding (an extension). A logo that is not an image
// URL is the server's 400 (API_ERROR), checked there, not here. Branding is read with the
// organization (GET /v1/organizations/me, src/kinds/endpoints/organizations.ts).
import { expectShape, unwrap } from "../../api/envelope.js";
import type { RequestOptions } from "../../api/types.js";
import type { EndpointGroup } from "../endpoint-group.js";
import type { Branding } from "./wire.js";

export interface BrandingEndpoints {
  /** Extension: PUT /v1/organizations/branding (`logo` must be an image URL). */
  updateOrganizationBranding(branding: Branding, options?: RequestOptions): Promise<Branding>;
}

export type BrandingExtension = "updateOrganizationBranding";

export const brandingApi: EndpointGroup<BrandingEndpoints, BrandingExtension> = {
  extensions: { updateOrganizationBranding: "write" },
  create: (requester) => ({
    async updateOrganizationBranding(branding, options = {}): Promise<Branding> {
      return requester.read(
        {
          endpoint: "updateOrganizationBranding",
          extension: "updateOrganizationBranding",
          method: "PUT",
          path: "/v1/organizations/branding",
          body: branding,
        },
        options,
        ({ json, ctx }) => {
          return expectShape<Branding>(unwrap(json, ctx), {}, ctx, "data");
        },
      );
    },
  }),
};
