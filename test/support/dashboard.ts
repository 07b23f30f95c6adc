// An organization built in the dashboard, as the export, preview and plan-recipe tests start
// from: the workflow "Order shipped content", created over the API with the Development key the
// way the dashboard creates it (its steps with their content, custom HTML for the email).
import { expect } from "vitest";
import type { EmulatorHandle } from "../../src/emulator/index.js";

/**
 * Creates "Order shipped content" in the first notification group: the email step
 * email-customer ("Your order {{orderId}} shipped", `emailHtml`), then `more` steps as the
 * dashboard sends them. Returns the server's record.
 */
export async function createContentWorkflow(
  handle: EmulatorHandle,
  emailHtml: string,
  more: unknown[] = [],
): Promise<{ _id: string }> {
  const response = await fetch(`${handle.url}/v1/workflows`, {
    method: "POST",
    headers: { authorization: `ApiKey ${handle.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      name: "Order shipped content",
      notificationGroupId: handle.store("development").notificationGroups[0]?._id,
      active: true,
      steps: [
        {
          name: "email-customer",
          template: {
            type: "email",
            subject: "Your order {{orderId}} shipped",
            content: emailHtml,
            contentType: "customHtml",
          },
        },
        ...more,
      ],
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { _id: string } }).data;
}
