// The r4 captures (real server 2.0.0, test/fixtures/real-responses/render/r4-*.json) read for replay:
// every file, its request and answer, and the records the earlier captures created, so a
// placeholder such as `<layoutId:r4-simple>` can be replaced by that layout. Order matters: r4-51
// set the organization's branding, and every later case ran with it.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Branding, LayoutTemplate } from "../../src/render/index.js";

export const FIXTURES = join(import.meta.dirname, "../fixtures/real-responses/render");

export interface Capture {
  file: string;
  number: number;
  request: { method: string; path: string; key: string; body?: Record<string, unknown> };
  response: { status: number; body: Record<string, unknown> };
}

export function readCaptures(): Capture[] {
  return readdirSync(FIXTURES)
    .filter((file) => /^r4-\d\d-.*\.json$/.test(file))
    .sort()
    .map((file) => {
      const parsed = JSON.parse(readFileSync(join(FIXTURES, file), "utf8")) as Omit<
        Capture,
        "file" | "number"
      >;
      return { file, number: Number(file.slice(3, 5)), ...parsed };
    });
}

/** The layouts the captures created (r4-39..r4-42), by their placeholder id. */
export function capturedLayouts(captures: Capture[]): Map<string, LayoutTemplate & { identifier: string }> {
  const layouts = new Map<string, LayoutTemplate & { identifier: string }>();
  for (const capture of captures) {
    if (capture.request.method !== "POST" || capture.request.path !== "/v1/layouts") continue;
    const body = capture.request.body as {
      identifier: string;
      content: string;
      variables?: LayoutTemplate["variables"];
    };
    const id = (capture.response.body.data as { _id: string })._id;
    layouts.set(id, {
      identifier: body.identifier,
      content: body.content,
      ...(body.variables ? { variables: body.variables } : {}),
    });
  }
  return layouts;
}

/** The branding set by r4-51 (PUT /v1/organizations/branding), for the captures after it. */
export function capturedBranding(captures: Capture[]): { after: number; branding: Branding } {
  const put = captures.find(
    (c) => c.request.method === "PUT" && c.request.path === "/v1/organizations/branding",
  );
  if (put === undefined) throw new Error("no branding capture");
  const body = put.request.body as { color: string; logo: string };
  return { after: put.number, branding: { color: body.color, logo: body.logo } };
}
