// When a layout create needs a PATCH of its variables: a real server derives a new layout's
// variables from its content (names in order, duplicates kept, `body` aside), the sent ones only
// giving defaultValue and required. Predicted for plain mustaches only; anything else is patched.
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../src/canonical.js";
import { createKeepsVariables } from "../../src/kinds/layout/derived-variables.js";

const v = (name: string, defaultValue: JsonValue = "", required = false, type = "String") => ({
  name,
  type,
  required,
  defaultValue,
});

describe("createKeepsVariables", () => {
  it("keeps the config's list when it is the content's names, in order, as Strings", () => {
    expect(createKeepsVariables("<p>{{{body}}}</p><p>{{footer}}</p>", [v("footer", "Acme")])).toBe(true);
    expect(createKeepsVariables("{{ a.b }} {{{body}}} {{c}}", [v("a.b"), v("c", "", true)])).toBe(true);
    expect(createKeepsVariables("{{{body}}}", [])).toBe(true);
  });

  it("does not when the server's list would differ", () => {
    // A name the content uses that the config does not list (branding.logo), or uses twice.
    expect(createKeepsVariables("{{{body}}}{{branding.logo}}{{footer}}", [v("footer")])).toBe(false);
    expect(createKeepsVariables("{{{body}}}{{footer}}{{footer}}", [v("footer")])).toBe(false);
    // A name the content does not use; another order; another type; none listed while used.
    expect(createKeepsVariables("{{{body}}}{{footer}}", [v("footer"), v("unused")])).toBe(false);
    expect(createKeepsVariables("{{{body}}}{{a}}{{b}}", [v("b"), v("a")])).toBe(false);
    expect(createKeepsVariables("{{{body}}}{{a}}", [v("a", "", false, "Array")])).toBe(false);
    expect(createKeepsVariables("{{{body}}}{{a}}", [])).toBe(false);
  });

  it("does not predict blocks, helpers or comments: those creates are always patched", () => {
    for (const content of [
      "{{{body}}}{{#if a}}{{a}}{{/if}}",
      "{{{body}}}{{uppercase a}}",
      "{{{body}}}{{! a note }}{{a}}",
      "{{{body}}}{{a}",
    ])
      expect(createKeepsVariables(content, [v("a")]), content).toBe(false);
  });
});
