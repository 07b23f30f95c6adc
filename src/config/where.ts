// "file:line:col": how a problem names another place in the config.
import type { Position } from "../errors.js";

export function where(pos: Position): string {
  return `${pos.file}:${pos.line}:${pos.col}`;
}
