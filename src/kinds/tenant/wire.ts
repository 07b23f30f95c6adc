// Tenants on the wire (extensions, r3-q4-*): one environment's, never promoted.

/** A tenant of one environment (overrides take its `_id`, not its identifier). */
export interface Tenant {
  _id: string;
  identifier: string;
  name?: string;
  /** Free-form; numbers stay numbers. A PATCH that sends it replaces it whole. */
  data?: Record<string, unknown>;
  _environmentId?: string;
  _organizationId?: string;
}

/** GET /v1/tenants?page&limit, a flat page that says only whether more follow. */
export interface TenantPage {
  data: Tenant[];
  hasMore: boolean;
  page: number;
  pageSize: number;
}

/** POST /v1/tenants. */
export interface CreateTenantBody {
  identifier: string;
  name: string;
  data?: Record<string, unknown>;
}

/** PATCH /v1/tenants/{identifier}; `data`, when sent, replaces the stored data whole. */
export interface UpdateTenantBody {
  name?: string;
  data?: Record<string, unknown>;
}
