// What the client has learnt about the observed extensions (endpoints real servers serve that
// the spec does not list). Any answer from the route teaches "supported"; a missing route
// ("Cannot <METHOD> ...", 405, 501) teaches "unsupported", remembered with the answer that
// taught it, so later calls fail fast with API_UNSUPPORTED without a request.

import { ApiError } from "./errors.js";
import type { Capability, Extension } from "./types.js";

export interface Learnt {
  status: number;
  serverMessage: string;
}

export class Capabilities {
  private readonly known = new Map<Extension, Capability>();
  private readonly missing = new Map<Extension, Learnt>();

  get(extension: Extension): Capability {
    return this.known.get(extension) ?? "unknown";
  }

  /** The answer that showed the extension missing, when it is known to be. */
  missingAnswer(extension: Extension): Learnt | undefined {
    return this.known.get(extension) === "unsupported" ? this.missing.get(extension) : undefined;
  }

  supported(extension: Extension): void {
    this.known.set(extension, "supported");
  }

  /** Learn from a failed call: a missing route, or a route that answered about the record. */
  learnFrom(extension: Extension, error: unknown): void {
    if (!(error instanceof ApiError)) return;
    if (error.code === "API_UNSUPPORTED") {
      this.known.set(extension, "unsupported");
      this.missing.set(extension, { status: error.status, serverMessage: error.serverMessage });
    } else if (error.status < 500 && error.code !== "API_AUTH" && error.status !== 429) {
      // 400/404/409/401-dev-only: the route exists and judged our request or record.
      this.known.set(extension, "supported");
    }
  }
}

/** An id that cannot exist: probes use it so they can never read or change a real record. */
export const NEVER_ID = "000000000000000000000000";
