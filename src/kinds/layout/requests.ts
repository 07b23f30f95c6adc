// The HTTP request each layout operation sends (the plan shows it; apply sends exactly it).
import { type PlannedRequest, pathSegment } from "../operations.js";
import type { LayoutOperation } from "./types.js";

export function layoutRequest(op: LayoutOperation): PlannedRequest {
  switch (op.type) {
    case "layout.create":
      return { method: "POST", path: "/v1/layouts", body: { ...op.body } };
    case "layout.update":
      return { method: "PATCH", path: `/v1/layouts/${idOf(op)}`, body: { ...op.fields } };
    case "layout.setDefault":
      return { method: "POST", path: `/v1/layouts/${idOf(op)}/default`, body: {} };
  }
}

function idOf(op: { layoutId: string; layoutFromAction?: string }): string {
  return op.layoutFromAction !== undefined ? `<id of ${op.layoutFromAction}>` : pathSegment(op.layoutId);
}
