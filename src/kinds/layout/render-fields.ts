// The layout fields an email renders with: a change of one changes every email that names the
// layout, though no field of those steps (the plan's comment and `preview --changed` show them).
export const LAYOUT_RENDER_FIELDS: ReadonlySet<string> = new Set(["content", "contentType", "variables"]);
