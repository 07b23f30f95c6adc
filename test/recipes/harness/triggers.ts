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

interface EventFilter {
  branches?: string[];
  paths?: string[];
  "paths-ignore"?: string[];
}

/**
 * Whether a workflow's `on:` starts it for `event` (push: to `branch`; pull_request: into
 * `branch`) changing `changed` files.
 */
export function eventTriggers(on: unknown, event: string, branch: string, changed: string[]): boolean {
  if (on === event || (Array.isArray(on) && on.includes(event))) return true;
  if (on === null || typeof on !== "object" || !(event in on)) return false;
  const filter = ((on as Record<string, EventFilter | null>)[event] ?? {}) as EventFilter;
  if (filter.branches && !filter.branches.some((b) => patternToRegExp(b).test(branch))) return false;
  if (filter.paths) return changed.some((file) => pathSelected(file, filter.paths ?? []));
  if (filter["paths-ignore"])
    return changed.some((file) => !filter["paths-ignore"]?.some((p) => patternToRegExp(p).test(file)));
  return true;
}
