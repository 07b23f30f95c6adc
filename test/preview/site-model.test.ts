// The pure parts of the preview: placeholder payloads (every named variable visible at its path),
// the screenshots a site calls for (every email, or with --changed each changed email before and
// after), and names and texts escaped wherever a page embeds them.
import { describe, expect, it } from "vitest";
import type { PreviewSite, PreviewStep } from "../../src/preview/model.js";
import { placeholderPayload } from "../../src/preview/placeholders.js";
import { shotsOf } from "../../src/preview/screenshots.js";
import { siteFiles } from "../../src/preview/site-files.js";

const email = (subject: string, html: string) =>
  ({ ok: true, message: { channel: "email", subject, html } }) as const;

const step = (overrides: Partial<PreviewStep>): PreviewStep => ({
  workflow: "order-shipped",
  workflowName: undefined,
  step: "email",
  channel: "email",
  base: "order-shipped/email",
  examples: [{ name: "example-1", placeholder: false, after: email("After", "<p>after</p>") }],
  notes: [],
  ...overrides,
});

describe("placeholder payloads", () => {
  it("puts [path] at every path a template names; a parent named too becomes an object", () => {
    expect(placeholderPayload(["orderId", "order.id", "order", "subscriber.firstName"])).toEqual({
      orderId: "[orderId]",
      order: { id: "[order.id]" },
      subscriber: { firstName: "[subscriber.firstName]" },
    });
  });
});

describe("screenshots a site calls for", () => {
  it("every email's first example at both widths; with --changed, before and after", () => {
    const site: PreviewSite = {
      changedOnly: true,
      steps: [
        step({
          change: "changed",
          examples: [
            {
              name: "a",
              placeholder: false,
              after: email("After", "<p>after</p>"),
              before: email("Before", "<p>before</p>"),
            },
            { name: "b", placeholder: false, after: email("B", "<p>b</p>") },
          ],
        }),
        step({ base: "order-shipped/new", change: "added" }),
        step({ base: "order-shipped/sms", channel: "sms", examples: [] }),
        step({
          base: "order-shipped/broken",
          examples: [{ name: "x", placeholder: false, after: { ok: false, error: "Missing helper" } }],
        }),
      ],
    };
    expect(shotsOf(site).map((shot) => [shot.path, shot.width, shot.html])).toEqual([
      ["order-shipped/email.desktop.png", 800, "<p>after</p>"],
      ["order-shipped/email.mobile.png", 375, "<p>after</p>"],
      ["order-shipped/email.before.desktop.png", 800, "<p>before</p>"],
      ["order-shipped/email.before.mobile.png", 375, "<p>before</p>"],
      ["order-shipped/new.desktop.png", 800, "<p>after</p>"],
      ["order-shipped/new.mobile.png", 375, "<p>after</p>"],
    ]);
  });
});

describe("the pages escape what they embed", () => {
  it("names, subjects, errors and notes show as text; message HTML only inside srcdoc", () => {
    const hostile = '<img src=x onerror="alert(1)">';
    const site: PreviewSite = {
      changedOnly: false,
      steps: [
        step({
          workflowName: hostile,
          step: `step ${hostile}`,
          notes: [hostile],
          examples: [
            { name: hostile, placeholder: false, after: email(hostile, hostile) },
            { name: "broken", placeholder: false, after: { ok: false, error: hostile } },
          ],
        }),
      ],
    };
    const files = siteFiles(site);
    for (const page of [files.get("index.html"), files.get("order-shipped/email.preview.html")]) {
      expect(page).toBeDefined();
      expect(page).not.toContain("<img");
      expect(page).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    }
    // The message itself, exactly, in its own file.
    expect(files.get("order-shipped/email.html")).toBe(hostile);
  });
});

describe("the files of a step", () => {
  it("an example named preview or before takes neither the step's page nor the live side's file", () => {
    const site: PreviewSite = {
      changedOnly: true,
      steps: [
        step({
          change: "changed",
          examples: [
            {
              name: "first",
              placeholder: false,
              after: email("After", "<p>first</p>"),
              before: email("Before", "<p>live</p>"),
            },
            { name: "preview", placeholder: false, after: email("P", "<script>x()</script>") },
            { name: "before", placeholder: false, after: email("B", "<p>named before</p>") },
          ],
        }),
      ],
    };
    const files = siteFiles(site);
    const page = files.get("order-shipped/email.preview.html");
    expect(page).toContain(`<iframe class="message" sandbox=""`);
    expect(page).not.toContain("<script>x()");
    expect(files.get("order-shipped/email.before.html")).toBe("<p>live</p>");
    expect(files.get("order-shipped/email.preview-2.html")).toBe("<script>x()</script>");
    expect(files.get("order-shipped/email.before-2.html")).toBe("<p>named before</p>");
    const json = JSON.parse(files.get("order-shipped/email.json") ?? "{}");
    expect(json.examples.map((e: { html: string }) => e.html)).toEqual([
      "order-shipped/email.html",
      "order-shipped/email.preview-2.html",
      "order-shipped/email.before-2.html",
    ]);
  });
});
