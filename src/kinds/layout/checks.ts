// The layout section's checks after the schema: content must hold `{{{body}}}` (where the step's
// content goes; `{{body}}` does not count, as on a real server), and one layout at most is the
// default.
import type { Resources } from "../../config/model.js";
import { where } from "../../config/where.js";
import type { Problem } from "../../errors.js";

export function checkLayouts(resources: Resources, problems: Problem[]): void {
  let firstDefault: string | undefined;
  for (const { spec, source } of resources.layout) {
    if (typeof spec.content === "string" && !spec.content.includes("{{{body}}}")) {
      problems.push({
        severity: "error",
        rule: "layout-body",
        message: `layout "${spec.identifier}": content must contain {{{body}}} (where a step's content goes; {{body}} does not count)`,
        pos: source.fields.content ?? source.pos,
      });
    }
    if (spec.isDefault !== true) continue;
    const pos = source.fields.isDefault ?? source.pos;
    if (firstDefault === undefined) firstDefault = where(pos);
    else
      problems.push({
        severity: "error",
        rule: "layout-default",
        message: `layout "${spec.identifier}": two layouts are marked isDefault: true (the other at ${firstDefault}); an environment has one default layout`,
        pos,
      });
  }
}
