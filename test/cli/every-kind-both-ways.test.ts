// Every kind end to end, both ways a change reaches the server: directly (`apply --auto-approve`,
// `promote --auto-approve`) and through a reviewed file (`plan --out` + `apply FILE`, `promote
// --out` + `promote FILE`). One config uses every kind (topics, a group, a workflow with an email
// step whose template is a file and names a layout plus an in-app step, a layout, a tenant, an
// override, branding) on a fresh organization (real flavor, both environments). Development
// applies and plans to zero; the promotion reaches Production, whose apply (topics, group-free
// tenants) leaves it at zero; then every kind is edited and the same round runs again.
import { describe, expect, it } from "vitest";
import { applyWay, BOTH_WAYS, expectPlansToZero, promoteWay } from "../support/both-ways.js";
import { cliTests, twoEnvironments } from "../support/cli.js";

const cliTest = cliTests();

const FRESH = twoEnvironments("Every Kind Inc");

const LAYOUT = '<html><body style="color: {{brandColor}}"><main>{{{body}}}</main></body></html>\n';
const LAYOUT_EDITED =
  '<html><body style="color: {{brandColor}}"><header>Acme</header><main>{{{body}}}</main></body></html>\n';
const EMAIL = "<p>Order {{orderId}} is on its way.</p>\n";
const EMAIL_EDITED = "<p>Order {{orderId}} is on its way to you.</p>\n";

function configOf(edited: boolean): string {
  const v = (before: string, after: string) => (edited ? after : before);
  return `${FRESH.header}branding:
  color: "${v("#0f62fe", "#ff6600")}"
  logo: https://example.com/logo.png
topics:
  - key: order-updates
    name: ${v("Order updates", "Order news")}
notificationGroups:
  - key: orders
    name: ${v("Orders", "Order mail")}
layouts:
  - identifier: brand
    name: Brand
    content: { file: layouts/brand.html }
    variables:
      - { name: brandColor, defaultValue: "#0f62fe" }
tenants:
  - identifier: acme-eu
    name: Acme Europe
    data: { region: eu, seats: ${v("5", "6")} }
workflows:
  - identifier: order-shipped
    name: Order shipped
    notificationGroup: orders
    steps:
      - name: email-customer
        type: email
        template:
          subject: "${v("Your order {{orderId}} shipped", "Order {{orderId}} shipped")}"
          content: { file: templates/order-shipped.html }
          layout: brand
      - name: in-app
        type: in_app
        template:
          content: "${v("Order {{orderId}} shipped", "Order {{orderId}} is on its way")}"
overrides:
  - workflow: order-shipped
    tenant: acme-eu
    active: true
    preferenceSettings: { sms: ${v("false", "true")} }
`;
}

/** A fresh organization (real flavor, both environments) and the config in its first version. */
function freshOrganization() {
  return cliTest({
    ...FRESH.options,
    files: {
      "notiform.yaml": configOf(false),
      "layouts/brand.html": LAYOUT,
      "templates/order-shipped.html": EMAIL,
    },
  });
}

const DEV = ["--env", "development"];
const PROD = ["--env", "production"];

describe.each(BOTH_WAYS)("every kind, %s", (way) => {
  it("applies in Development, promotes, applies in Production, and both plan to zero, twice", async () => {
    const { emulator: handle, workspace, cli } = await freshOrganization();

    // Round one: everything is created.
    await applyWay(cli, way, ...DEV);
    await expectPlansToZero(cli, ...DEV);
    await promoteWay(cli, way, ...DEV);
    await applyWay(cli, way, ...PROD);
    await expectPlansToZero(cli, ...PROD);
    const production = handle.store("production");
    const brand = production.layouts?.find((l) => l.identifier === "brand");
    const workflow = production.workflows.find((w) => w.triggers[0]?.identifier === "order-shipped");
    expect(workflow?.steps[0]?.template?._layoutId).toBe(brand?._id);
    expect(production.tenants.map((t) => t.identifier)).toEqual(["acme-eu"]);
    expect(production.topics.map((t) => t.key)).toEqual(["order-updates"]);

    // Round two: every kind edited, the layout and the template file included.
    await workspace.write("notiform.yaml", configOf(true));
    await workspace.write("layouts/brand.html", LAYOUT_EDITED);
    await workspace.write("templates/order-shipped.html", EMAIL_EDITED);
    await applyWay(cli, way, ...DEV);
    await expectPlansToZero(cli, ...DEV);
    await promoteWay(cli, way, ...DEV);
    await applyWay(cli, way, ...PROD);
    await expectPlansToZero(cli, ...PROD);
    const edited = handle.store("production");
    expect(edited.layouts?.find((l) => l.identifier === "brand")?.content).toBe(LAYOUT_EDITED);
    const shipped = edited.workflows.find((w) => w.triggers[0]?.identifier === "order-shipped");
    expect(shipped?.steps[0]?.template?.content).toBe(EMAIL_EDITED);
    expect(edited.topics.find((t) => t.key === "order-updates")?.name).toBe("Order news");
    expect(edited.tenants.find((t) => t.identifier === "acme-eu")?.data).toEqual({ region: "eu", seats: 6 });
  });
});
