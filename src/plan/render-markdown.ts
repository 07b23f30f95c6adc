// The pull-request comment: a summary table first, then the changes grouped by kind in
// collapsible sections, kept under a size budget (GitHub caps comments at 65,536 characters)
// with a note saying what was cut. Values from the server or the environment are escaped
// (src/sanitize.ts): text never turns into HTML or markup, code spans show values exactly.
import { markdownCode, markdownText } from "../sanitize.js";
import { KINDS, type Plan, type PlanAction } from "./model.js";
import { describeKind, OP_SYMBOL, summaryLine, unlistedNote } from "./render-common.js";
import { formatChange } from "./render-text.js";

export const MARKDOWN_BUDGET = 60_000;

export function renderPlanMarkdown(plan: Plan, budget: number = MARKDOWN_BUDGET): string {
  const s = plan.summary;
  const env =
    plan.target.environment === null ? "" : ` · environment ${markdownText(plan.target.environment)}`;
  const head: string[] = [
    "<!-- notiform-plan -->",
    `### notiform plan · ${markdownText(plan.target.organization)}${env}`,
    "",
    summaryLine(plan),
    "",
    "| to create | to update | unverified | not applicable | unchanged | unmanaged |",
    "|---:|---:|---:|---:|---:|---:|",
    `| ${s.create} | ${s.update} | ${s.unverified} | ${s.notApplicable} | ${s.unchanged} | ${s.unmanaged} |`,
    "",
  ];
  const unlisted = unlistedNote(plan);
  if (unlisted !== undefined) head.push(`_${unlisted}_`, "");
  let out = head.join("\n");
  let shown = 0;
  let truncated = false;
  for (const kind of KINDS) {
    const actions = plan.actions.filter((action) => action.kind === kind);
    if (actions.length === 0) continue;
    const open = `<details><summary><b>${describeKind(kind)}</b>: ${actions.length} change${actions.length === 1 ? "" : "s"}</summary>\n\n| | key | changes |\n|---|---|---|\n`;
    const close = "\n</details>\n\n";
    if (out.length + open.length + close.length > budget - 200) {
      truncated = true;
      break;
    }
    out += open;
    for (const action of actions) {
      const row = renderRow(action);
      if (out.length + row.length + close.length > budget - 200) {
        truncated = true;
        break;
      }
      out += row;
      shown += 1;
    }
    out += close;
    if (truncated) break;
  }
  if (truncated) {
    out += `_Truncated: ${plan.actions.length - shown} of ${plan.actions.length} changes not shown to stay under ${budget} characters. Run \`notiform plan\` for the full plan._\n`;
  }
  if (plan.warnings.length > 0 && out.length < budget - 2_000) {
    out += "\n**Warnings**\n\n";
    for (const warning of plan.warnings.slice(0, 20)) out += `- ${markdownText(warning.message)}\n`;
  }
  return out;
}

function renderRow(action: PlanAction): string {
  const changes = action.changes.map((change) => markdownCode(formatChange(change))).join("<br>");
  const note =
    action.reason === undefined ? "" : `<br>_${markdownText(action.op)}: ${markdownText(action.reason)}_`;
  return `| ${OP_SYMBOL[action.op]} ${action.op} | ${markdownCode(action.key)} | ${changes}${note} |\n`;
}
