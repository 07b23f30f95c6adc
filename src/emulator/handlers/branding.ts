// PUT /v1/organizations/branding (extension): the organization's branding, shown afterwards by
// GET /v1/organizations/me. `logo` must be an image URL like a real server checks it.
import type { Branding } from "../../kinds/branding/wire.js";
import { badRequest } from "../http-error.js";
import { type Handler, isObject, ok } from "./context.js";

const FIELDS = ["color", "fontColor", "contentBackground", "fontFamily", "logo", "direction"] as const;
const IMAGE_URL = /^https?:\/\/[^\s/]+\/\S*\.(jpg|jpeg|png|gif|svg)(\?\S*)?$/i;

export const updateBranding: Handler = (ctx) => {
  const b = isObject(ctx.body) ? ctx.body : {};
  const problems: string[] = [];
  for (const field of FIELDS) {
    const value = b[field];
    if (field === "direction" && value === undefined) continue;
    if (typeof value !== "string") problems.push(`${field} must be a string`);
  }
  if (typeof b.logo === "string" && !IMAGE_URL.test(b.logo)) {
    problems.push(
      "Logo must be a valid image URL with one of the following extensions: jpg, jpeg, png, gif, svg",
      "logo must be a URL address",
    );
  }
  if (problems.length > 0) throw badRequest(problems);
  const branding: Branding = {};
  for (const field of FIELDS) if (typeof b[field] === "string") branding[field] = b[field] as string;
  ctx.data.branding = branding;
  return ok(branding, 200, true);
};
