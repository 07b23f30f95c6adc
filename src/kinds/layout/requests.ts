// The HTTP request each layout operation sends (the plan shows it; apply sends exactly it).
import { type PlannedRequest, pathSegment } from "../operations.js";
import type { LayoutOperation } from "./types.js";

export function layoutRequest(op: LayoutOperation): PlannedRequest {
  switch (op.type) {
    case "layout.create":
      return { method: "POST", path: "/v1/layouts", body: { ...op.body } };
    case "layout.update":
      return { method: "PATCH", path: `/v1/layouts/${pathSegment(op.layoutId)}`, body: { ...op.fields } };
    case "layout.setDefault": {
      const id =
        op.layoutFromAction !== undefined ? `<id of ${op.layoutFromAction}>` : pathSegment(op.layoutId);
      return { method: "POST", path: `/v1/layouts/${id}/default`, body: {} };
    }
  }
}
