// Endpoints 5-7: organizations. 5 and 6 are absent on the hosted build (404 "Cannot POST
// /v1/organizations", API_UNSUPPORTED); 7 is how notiform learns which organization a key
// reaches (and reads its branding; the branding write is the branding kind's). Answers may
// carry partner access tokens: returned to the caller, never logged here.
import { expectArray, expectShape, unwrap } from "../../api/envelope.js";
import { checkName } from "../../api/request-checks.js";
import type { Requester } from "../../api/requester.js";
import type { RequestOptions } from "../../api/types.js";
import type { EndpointGroup } from "../endpoint-group.js";
import type { CreateOrganizationBody, Organization } from "./wire.js";

// The fields an organization must have for notiform to work with it.
const ORGANIZATION = { name: "string" } as const;

export interface OrganizationEndpoints {
  /** 5 POST /v1/organizations */
  createOrganization(body: CreateOrganizationBody, options?: RequestOptions): Promise<Organization>;
  /** 6 GET /v1/organizations */
  listOrganizations(options?: RequestOptions): Promise<Organization[]>;
  /** 7 GET /v1/organizations/me */
  getCurrentOrganization(options?: RequestOptions): Promise<Organization>;
}

export const organizationApi: EndpointGroup<OrganizationEndpoints, never> = {
  create: (requester) => createOrganizationEndpoints(requester),
  extensions: {},
};

function createOrganizationEndpoints(requester: Requester): OrganizationEndpoints {
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
