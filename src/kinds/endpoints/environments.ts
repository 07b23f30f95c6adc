// The environment a key reaches (extension): GET /v1/environments/me names it (a spec-only server
// lacks it: API_UNSUPPORTED, and the environment is only what the config says).
import { expectShape, unwrap } from "../../api/envelope.js";
import type { Requester } from "../../api/requester.js";
import type { RequestOptions } from "../../api/types.js";
import type { EndpointGroup } from "../endpoint-group.js";
import type { Environment } from "./wire.js";

// The fields an environment must have for notiform to work with it.
const ENVIRONMENT = { _id: "string", name: "string" } as const;

export interface EnvironmentEndpoints {
  /** Extension: GET /v1/environments/me, which environment the key reaches. */
  getCurrentEnvironment(options?: RequestOptions): Promise<Environment>;
}

export const environmentApi: EndpointGroup<EnvironmentEndpoints, "getCurrentEnvironment"> = {
  create: (requester) => createEnvironmentEndpoints(requester),
  extensions: { getCurrentEnvironment: (api, options) => api.getCurrentEnvironment(options) },
};

function createEnvironmentEndpoints(requester: Requester): EnvironmentEndpoints {
  return {
    async getCurrentEnvironment(options = {}): Promise<Environment> {
      return requester.read(
        {
          endpoint: "getCurrentEnvironment",
          extension: "getCurrentEnvironment",
          method: "GET",
          path: "/v1/environments/me",
        },
        options,
        ({ json, ctx }) => expectShape<Environment>(unwrap(json, ctx), ENVIRONMENT, ctx, "data"),
      );
    },
  };
}
