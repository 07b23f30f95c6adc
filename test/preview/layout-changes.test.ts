// A layout edited alone changes every email that renders inside it, though no field of those
// steps: the plan's comment lists them among the changed messages, and `preview --changed`
// renders them, the live layout beside the config's. Steps on another layout, or none, or of
// another channel are not listed; a layout change that does not render (its name) lists nothing.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliTests, twoEnvironments } from "../support/cli.js";

const cliTest = cliTests();

const FRESH = twoEnvironments("Layout Edits Inc");

function configOf(brand: { name: string; banner: string }): string {
  return `${FRESH.header}layouts:
  - identifier: brand
    name: ${brand.name}
    content: "<html><body><header>${brand.banner}</header>{{{body}}}</body></html>"
  - identifier: plain
    name: Plain
    content: "<html><body>{{{body}}}</body></html>"
workflows:
  - identifier: order-shipped
    name: Order shipped
    preview:
      payload: { orderId: A-1 }
    steps:
      - name: branded
        type: email
        template: { subject: "Order {{orderId}} shipped", content: "<p>On its way</p>", layout: brand }
      - name: unbranded
        type: email
        template: { subject: "Order {{orderId}} sent", content: "<p>Sent</p>", layout: plain }
      - name: bare
        type: email
        template: { subject: "Order {{orderId}} left", content: "<p>Left</p>" }
      - name: bell
        type: in_app
        template: { content: "Order {{orderId}} shipped" }
`;
}

describe("a layout edited alone", () => {
  it("lists the emails inside it among the changed messages, live layout beside the config's", async () => {
    const { run, workspace } = await cliTest({
      ...FRESH.options,
      config: configOf({ name: "Brand", banner: "Acme" }),
    });
    const dir = workspace.dir;
    const applied = await run(["apply", "--env", "development", "--auto-approve"]);
    expect(applied.code, applied.stderr).toBe(0);

    // Only its name: nothing renders differently, so no message is listed.
    await writeFile(join(dir, "notiform.yaml"), configOf({ name: "Brand mail", banner: "Acme" }));
    const renamed = await run(["plan", "--env", "development", "--output", "markdown"]);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(renamed.stdout).toContain("`brand`");
    expect(renamed.stdout).not.toContain("#### Messages");

    await writeFile(join(dir, "notiform.yaml"), configOf({ name: "Brand", banner: "Acme Europe" }));
    const markdown = await run(["plan", "--env", "development", "--output", "markdown"]);
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(markdown.stdout).toContain("#### Messages: 1 changed, rendered with the preview examples");
    expect(markdown.stdout).toContain(
      "| `order-shipped / branded` | email | `Order A-1 shipped` | `Order A-1 shipped` |",
    );

    const preview = await run(["preview", "--env", "development", "--changed"]);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stderr).toContain("Wrote 1 changed message step to notiform-preview/index.html");
    const site = (path: string) => readFile(join(dir, "notiform-preview", path), "utf8");
    const step = JSON.parse(await site("order-shipped/branded.json"));
    expect(step.change).toBe("changed");
    expect(await site(step.examples[0].before.html)).toContain("<header>Acme</header><p>On its way</p>");
    expect(await site(step.examples[0].html)).toContain("<header>Acme Europe</header><p>On its way</p>");
  });
});
