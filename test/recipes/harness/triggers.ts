// Whether a push starts a workflow, as GitHub decides it: `on.push.branches` names the branch and,
// with `paths`, at least one changed file matches the patterns (evaluated in order, a `!` pattern
// excluding what earlier ones included). In patterns `*` matches within a path segment and `**`
// across segments.

function patternToRegExp(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i] ?? "";
    if (c === "*" && pattern[i + 1] === "*") {
      source += ".*";
      i += 1;
    } else if (c === "*") {
      source += "[^/]*";
    } else if (c === "?") {
      source += "[^/]";
    } else {
      source += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
  }
  return new RegExp(`^${source}$`);
}

/** Whether `file` is selected by GitHub's ordered include/exclude `patterns`. */
export function pathSelected(file: string, patterns: string[]): boolean {
  let selected = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith("!");
    if (patternToRegExp(negated ? pattern.slice(1) : pattern).test(file)) selected = !negated;
  }
  return selected;
}

interface PushFilter {
  branches?: string[];
  paths?: string[];
  "paths-ignore"?: string[];
}

/** Whether a workflow's `on:` starts it for a push of `changed` files to `branch`. */
export function pushTriggers(on: unknown, branch: string, changed: string[]): boolean {
  if (on === "push" || (Array.isArray(on) && on.includes("push"))) return true;
  if (on === null || typeof on !== "object" || !("push" in on)) return false;
  const filter = ((on as { push: PushFilter | null }).push ?? {}) as PushFilter;
  if (filter.branches && !filter.branches.some((b) => patternToRegExp(b).test(branch))) return false;
  if (filter.paths) return changed.some((file) => pathSelected(file, filter.paths ?? []));
  if (filter["paths-ignore"])
    return changed.some((file) => !filter["paths-ignore"]?.some((p) => patternToRegExp(p).test(file)));
  return true;
}
