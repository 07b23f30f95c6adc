// A share of the typed client: a kind's (or a shared resource's) endpoint methods, built over
// the transport's Requester, and how to find out whether the server serves each extension
// among them. src/kinds/client.ts joins every group into one NotificationApi.
import type { PageProgress } from "../api/log-events.js";
import type { Requester } from "../api/requester.js";
import type { RequestOptions } from "../api/types.js";

/** Real servers refuse override, workflow, tenant and change pages above 100. */
export const LIST_LIMIT = 100;

/** The bounds whole-list reads keep. */
export interface ListBounds {
  maxPages: number;
  /** Pages of one list asked for at once (PageLimits.lanes). */
  lanes?: number;
  onPage?: (progress: PageProgress) => void;
}

/**
 * A read probe finds out with reads only whether the server serves an extension: a GET of an
 * id that cannot exist (NEVER_ID) or of one page. "write": never probed (a probe would be a
 * write, and `plan` never writes); taken as served until an answer shows the route missing.
 */
export type Probe<E> = ((api: E, options: RequestOptions) => Promise<unknown>) | "write";

export interface EndpointGroup<E, X extends string> {
  create(requester: Requester, bounds: ListBounds): E;
  /** Each extension among the endpoints (spec endpoints are not listed). */
  extensions: { readonly [name in X]: Probe<E> };
}
