// Layouts on the wire (extensions, r3-q3-*): authored in Development, promoted to Production.

/** A layout as the list shows it: the list holds every field, so a plan needs no per-layout read. */
export interface Layout {
  _id: string;
  identifier: string;
  name?: string;
  description?: string;
  content?: string;
  contentType?: string;
  variables?: LayoutVariable[];
  isDefault?: boolean;
  _parentId?: string;
  deleted?: boolean;
}

/** A layout variable as read back (a real server fills `defaultValue: ""` when none was sent). */
export interface LayoutVariable {
  name: string;
  type?: string;
  required?: boolean;
  defaultValue?: unknown;
  _id?: string;
}

/** POST /v1/layouts (answers `{_id}` only). */
export interface CreateLayoutBody {
  name: string;
  identifier: string;
  description?: string;
  content: string;
  contentType?: string;
  variables?: { name: string; type?: string; required?: boolean; defaultValue?: unknown }[];
  isDefault?: boolean;
}

/** PATCH /v1/layouts/{id}: the fields sent change (`variables` replaced whole). */
export type UpdateLayoutBody = Partial<CreateLayoutBody>;

export interface CreatedLayout {
  _id: string;
}

/** GET /v1/layouts?page&pageSize. */
export interface LayoutPage {
  data: Layout[];
  totalCount: number;
  page: number;
  pageSize: number;
}
