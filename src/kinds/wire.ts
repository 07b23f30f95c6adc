// Wire shapes several kinds share. Server-only fields a real server adds (`__v`, `id`,
// `createdAt`, ...) may be present on every wire type; code must not rely on them.
import type { Channel } from "../config/model.js";

export type WirePreferenceSettings = Record<Channel, boolean>;
