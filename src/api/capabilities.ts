// What the client has learnt about the observed extensions (endpoints real servers serve that
// the spec does not list). A missing route is remembered, so later calls fail fast with
// API_UNSUPPORTED and callers fall back without another request.

import { NotiformError } from "../errors.js";
import { ApiError } from "./errors.js";
import type { Capability, Extension } from "./types.js";

export class Capabilities {
  private readonly known = new Map<Extension, Capability>();

  get(extension: Extension): Capability {
    return this.known.get(extension) ?? "unknown";
  }

  /** Run an extension call, learning from its outcome. */
  async call<T>(extension: Extension, run: () => Promise<T>): Promise<T> {
    if (this.known.get(extension) === "unsupported") throw unsupported(extension);
    try {
      const result = await run();
      this.known.set(extension, "supported");
      return result;
    } catch (error) {
      if (error instanceof ApiError) {
        if (error.code === "API_UNSUPPORTED") this.known.set(extension, "unsupported");
        else if (error.code === "API_NOT_FOUND" || error.status === 400)
          this.known.set(extension, "supported");
      }
      throw error;
    }
  }

  set(extension: Extension, capability: Capability): void {
    this.known.set(extension, capability);
  }
}

function unsupported(extension: Extension): NotiformError {
  return new NotiformError(
    "API_UNSUPPORTED",
    `the server does not serve the ${extension} endpoint (remembered from an earlier answer)`,
  );
}

/** An id that cannot exist: probes use it so they can never read or change a real record. */
export const NEVER_ID = "000000000000000000000000";
