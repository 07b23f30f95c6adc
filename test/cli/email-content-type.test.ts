// An e-mail step's content type when the config writes none. A server reads a step without one as
// editor blocks at send time, and an editor step holding HTML fails every render (r4-66), after the
// write was accepted. So notiform sends `customHtml` for HTML text: on create, when the content
// moves from editor blocks to HTML, and to a step an earlier notiform created without a type; the
// preview renders the step as it is sent. Real flavor, over HTTP, as users run it.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliTests, orderShippedByEmail } from "../support/cli.js";

const cliTest = cliTests();
const WORKFLOW = "64f1c0ffee0000000000a001";

const configOf = (template: Parameters<typeof orderShippedByEmail>[0]) =>
  `version: 1\norganization: Acme Inc\n${orderShippedByEmail(template)}`;
const HTML = { subject: "Shipped", content: '"<p>Order {{orderId}} shipped</p>"' };
const BLOCKS = {
  subject: "Shipped",
  content: '[{ type: text, content: "Shipped" }]',
  contentType: "editor" as const,
};

async function liveTemplate(call: (method: string, path: string) => Promise<{ data: unknown }>) {
  const { data } = (await call("GET", `/v1/workflows/${WORKFLOW}`)) as {
    data: { steps: { template: { contentType?: string; content: unknown } }[] };
  };
  return data.steps[0]?.template;
}

describe("an e-mail step whose config writes no contentType", () => {
  it("is sent as customHtml, previews as sent, and plans to zero", async () => {
    const { cli, call, workspace, emulator } = await cliTest({ config: configOf(HTML), flavor: "real" });
    const preview = await cli("preview", "--out", "site");
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout + preview.stderr).not.toContain("does not render");
    const page = JSON.parse(
      await readFile(join(workspace.dir, "site/order-shipped/email-customer.json"), "utf8"),
    );
    const html = await readFile(join(workspace.dir, "site", page.examples[0].html), "utf8");
    expect(html).toContain("<p>Order [orderId] shipped</p>");

    emulator.clearRequests();
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    const put = emulator.requests.find((r) => r.method === "PUT");
    const sent = put?.body as { steps: { template: { contentType?: string } }[] } | undefined;
    expect(sent?.steps[0]?.template.contentType).toBe("customHtml");
    expect((await liveTemplate(call))?.contentType).toBe("customHtml");
    expect((await cli("plan", "--detailed-exitcode")).code).toBe(0);
  });

  it("given to a step created without one (as notiform did before), as a change the plan shows", async () => {
    const { cli, call } = await cliTest({ config: configOf(HTML), flavor: "real" });
    await call("PUT", `/v1/workflows/${WORKFLOW}`, {
      steps: [
        {
          name: "email-customer",
          template: { type: "email", subject: "Shipped", content: "<p>Order {{orderId}} shipped</p>" },
        },
      ],
    });
    const plan = await cli("plan", "--no-color");
    expect(plan.stdout, plan.stderr).toContain('step email-customer  contentType: "customHtml"');
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    expect((await liveTemplate(call))?.contentType).toBe("customHtml");
    expect((await cli("plan", "--detailed-exitcode")).code).toBe(0);
  });

  it("moves a step from editor blocks to HTML, and its export validates and plans to zero", async () => {
    const { cli, call, workspace, run } = await cliTest({ config: configOf(BLOCKS), flavor: "real" });
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    expect((await liveTemplate(call))?.contentType).toBe("editor");

    await workspace.write("notiform.yaml", configOf(HTML));
    const plan = await cli("plan", "--no-color");
    expect(plan.stdout, plan.stderr).toContain('contentType: "editor" -> "customHtml"');
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    expect(await liveTemplate(call)).toMatchObject({
      contentType: "customHtml",
      content: expect.any(String),
    });
    expect((await cli("plan", "--detailed-exitcode")).code).toBe(0);

    expect((await cli("export", "--dir", "exported")).code).toBe(0);
    const exported = { cwd: workspace.path("exported") };
    const validate = await run(["validate"], { ...exported, url: null });
    expect(validate.code, validate.stderr).toBe(0);
    expect((await run(["plan", "--detailed-exitcode"], exported)).code).toBe(0);
  });
});
