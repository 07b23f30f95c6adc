// Endpoints 5-7: organizations. 5 and 6 are absent on the hosted build (404 "Cannot POST
// /v1/organizations", API_UNSUPPORTED); 7 is how notiform learns which organization a key
// reaches. PUT /v1/organizations/branding (extension) sets the branding; a logo that is not an
// image URL is the server's 400 (API_ERROR), checked there, not here. Answers may carry partner access tokens: returned to the caller, never logged here.
import { expectArray, expectShape, ORGANIZATION, unwrap } from "../../api/envelope.js";
import { checkName } from "../../api/request-checks.js";
import type { Requester } from "../../api/requester.js";
import type { Branding, NotificationApi, Organization } from "../../api/types.js";

export type OrganizationEndpoints = Pick<
  NotificationApi,
  "createOrganization" | "listOrganizations" | "getCurrentOrganization" | "updateOrganizationBranding"
>;

export function createOrganizationEndpoints(requester: Requester): OrganizationEndpoints {
  return {
    async createOrganization(body, options = {}): Promise<Organization> {
      checkName("organization name", body.name);
      return requester.read(
        { endpoint: "createOrganization", method: "POST", path: "/v1/organizations", body },
        options,
        ({ json, ctx }) => {
          return expectShape<Organization>(unwrap(json, ctx), ORGANIZATION, ctx, "data");
        },
      );
    },

    async listOrganizations(options = {}): Promise<Organization[]> {
      return requester.read(
        { endpoint: "listOrganizations", method: "GET", path: "/v1/organizations" },
        options,
        ({ json, ctx }) => {
          return expectArray<Organization>(unwrap(json, ctx), ORGANIZATION, ctx, "data");
        },
      );
    },

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

    async getCurrentOrganization(options = {}): Promise<Organization> {
      return requester.read(
        { endpoint: "getCurrentOrganization", method: "GET", path: "/v1/organizations/me" },
        options,
        ({ json, ctx }) => {
          return expectShape<Organization>(unwrap(json, ctx), ORGANIZATION, ctx, "data");
        },
      );
    },
  };
}
