// PUT /v1/organizations/branding (extension): the organization's branding, shown afterwards by
// GET /v1/organizations/me. As a real server (captures r3-q5-*): any subset of the fields is
// accepted, and the PUT REPLACES the whole object (a field not sent is gone; an empty body leaves
// the organization with no branding key at all); colours must be hex, `logo` an image URL.
import type { Branding } from "../../kinds/branding/wire.js";
import { badRequest } from "../http-error.js";
import { type Handler, isObject, ok } from "./context.js";

const FIELDS = ["color", "fontColor", "contentBackground", "fontFamily", "logo", "direction"] as const;
/** A real server's IsImageUrl: the text after the last dot is exactly one of these (no query, lower case). */
const IMAGE_URL = /^https?:\/\/[^\s/]+\/\S*\.(jpg|jpeg|png|gif|svg)$/;
const COLOURS = ["color", "fontColor", "contentBackground"] as const;
const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

export const updateBranding: Handler = (ctx) => {
  const b = isObject(ctx.body) ? ctx.body : {};
  const problems: string[] = [];
  for (const field of FIELDS) {
    const value = b[field];
    if (value !== undefined && typeof value !== "string") problems.push(`${field} must be a string`);
  }
  for (const field of COLOURS) {
    const value = b[field];
    if (typeof value === "string" && !HEX.test(value)) problems.push(`${field} must be a hexadecimal color`);
  }
  if (typeof b.logo === "string" && !IMAGE_URL.test(b.logo)) {
    problems.push(
      "Logo must be a valid image URL with one of the following extensions: jpg, jpeg, png, gif, svg",
    );
    if (!/^https?:\/\/[^\s/]+/i.test(b.logo)) problems.push("logo must be a URL address");
  }
  if (problems.length > 0) throw badRequest(problems);
  const branding: Branding = {};
  for (const field of FIELDS) if (typeof b[field] === "string") branding[field] = b[field] as string;
  ctx.data.branding = branding;
  return ok(branding, 200, true);
};
