// What a real Novu server refuses, the emulator refuses too (its DTOs, use cases and database
// schemas), so no test passes against the emulator what would fail half-way through a real apply.
// Where a real server crashes (500, a Mongoose CastError) the emulator answers 400 naming the
// field, as it does for its other documented crashes; what the database casts (5 for a string,
// "5" for a number) passes as it does there. A refused write changes nothing.
import { describe, expect, it } from "vitest";
import { type Call, start, T1, W1 } from "./harness.js";

async function generalGroup(call: Call): Promise<string> {
  const { body } = await call("GET", "/v1/notification-groups");
  return (body.data as { _id: string; name: string }[])[0]?._id ?? "";
}

const digest = (metadata: Record<string, unknown>) => ({
  name: "collect",
  metadata,
  template: { type: "digest", content: "" },
});

describe("a step the server's database cannot store", () => {
  it("refuses a metadata, filter or callback value of the wrong type on PUT and POST, changing nothing", async () => {
    const { call } = await start();
    const before = (await call("GET", `/v1/workflows/${W1}`)).body.data;
    const cases: [unknown, string][] = [
      [
        digest({ type: "regular", amount: 5, unit: "minutes", backoff: "sometimes" }),
        "steps.0.metadata.backoff must be a boolean value",
      ],
      [
        digest({ type: "regular", amount: "one", unit: "minutes" }),
        "steps.0.metadata.amount must be a number",
      ],
      [
        digest({ type: "timed", timed: { monthDays: ["first"] } }),
        "steps.0.metadata.timed.monthDays must be an array of numbers",
      ],
      [
        {
          name: "in-app",
          filters: [
            {
              type: "GROUP",
              value: "AND",
              children: [{ on: "payload", field: { a: 1 }, operator: "EQUAL" }],
            },
          ],
          template: { type: "in_app", content: "Hi" },
        },
        "steps.0.filters.0.children.0.field must be a string",
      ],
      [
        {
          name: "in-app",
          filters: [{ isNegated: "maybe", children: [] }],
          template: { type: "in_app", content: "Hi" },
        },
        "steps.0.filters.0.isNegated must be a boolean value",
      ],
      [
        {
          name: "mail",
          replyCallback: { active: true, url: ["x"] },
          template: { type: "email", subject: "s", content: "c" },
        },
        "steps.0.replyCallback.url must be a string",
      ],
      [
        {
          name: "in-app",
          template: {
            type: "in_app",
            content: "Hi",
            cta: { type: "redirect", data: { url: "/" }, action: "" },
          },
        },
        "Please provide a valid CTA action",
      ],
    ];
    for (const [step, message] of cases) {
      const put = await call("PUT", `/v1/workflows/${W1}`, { steps: [step] });
      expect(put.status, message).toBe(400);
      expect(put.body.message).toContain(message);
      const post = await call("POST", "/v1/workflows", {
        name: "Refused",
        notificationGroupId: await generalGroup(call),
        steps: [step],
      });
      expect(post.status, message).toBe(400);
      expect(post.body.message).toContain(message);
    }
    expect((await call("GET", `/v1/workflows/${W1}`)).body.data).toEqual(before);
    expect((await call("GET", "/v1/workflows?query=Refused")).body.data).toEqual([]);
  });

  it("takes what the database casts: a number for a string, a numeric string for a number, 'yes'", async () => {
    const { call } = await start();
    const put = await call("PUT", `/v1/workflows/${W1}`, {
      steps: [
        digest({ type: "regular", amount: "5", unit: "minutes", backoff: "yes", digestKey: 7 }),
        {
          name: "in-app",
          filters: [
            {
              isNegated: false,
              type: "GROUP",
              value: "AND",
              children: [{ on: "payload", field: "n", operator: "EQUAL", value: { any: 1 } }],
            },
          ],
          template: { type: "in_app", content: "Hi" },
        },
      ],
    });
    expect(put.status).toBe(200);
  });
});

describe("a template the server cannot read variables from", () => {
  it("refuses POST and PUT /v1/workflows whose step text does not parse (r4-62), changing nothing", async () => {
    const { call } = await start();
    const before = (await call("GET", `/v1/workflows/${W1}`)).body.data;
    const unparsable = [
      {
        name: "Email",
        template: { type: "email", subject: "Hi", content: "{{#if vip}}VIP", contentType: "customHtml" },
      },
      {
        name: "In-app",
        template: { type: "in_app", content: "ok", cta: { type: "redirect", data: { url: "{{x" } } },
      },
      { name: "Push", template: { type: "push", content: "ok", title: "{{/if}}" } },
      {
        name: "Editor",
        template: {
          type: "email",
          subject: "{{#each}}",
          content: [{ type: "text", content: "ok" }],
          contentType: "editor",
        },
      },
    ];
    for (const step of unparsable) {
      const post = await call("POST", "/v1/workflows", {
        name: "R4 Parse Error",
        notificationGroupId: await generalGroup(call),
        steps: [step],
      });
      expect(post.status, step.name).toBe(400);
      expect(post.body.message).toBe("Failed to extract variables");
      const put = await call("PUT", `/v1/workflows/${W1}`, { steps: [step], tags: ["x"] });
      expect(put.status, step.name).toBe(400);
      expect(put.body.message).toBe("Failed to extract variables");
    }
    expect((await call("GET", `/v1/workflows/${W1}`)).body.data).toEqual(before);
    expect((await call("GET", "/v1/workflows?query=R4 Parse")).body.data).toEqual([]);
  });

  it("does not read a custom-HTML e-mail's subject, as a real server does not", async () => {
    const { call } = await start();
    const put = await call("PUT", `/v1/workflows/${W1}`, {
      steps: [
        {
          name: "Email",
          template: { type: "email", subject: "{{#if a}}", content: "<p>ok</p>", contentType: "customHtml" },
        },
      ],
    });
    expect(put.status).toBe(200);
  });
});

describe("bodies and answers as a real server's DTOs and use cases give them", () => {
  it("refuses POST /v1/workflows without steps (CreateWorkflowRequestDto: IsDefined, IsArray)", async () => {
    const { call } = await start();
    const post = await call("POST", "/v1/workflows", {
      name: "No steps",
      notificationGroupId: await generalGroup(call),
    });
    expect(post.status).toBe(400);
    expect(post.body.message).toEqual(["steps should not be null or undefined", "steps must be an array"]);
    expect((await call("GET", "/v1/workflows?query=No steps")).body.data).toEqual([]);
  });

  it("tells a tenant without a name as r3-q4-24 does, and an override's missing tenant before its workflow", async () => {
    const { call } = await start();
    const tenant = await call("POST", "/v1/tenants", { identifier: "noname" });
    expect(tenant.status).toBe(400);
    expect(tenant.body.message).toEqual(["name should not be empty", "name must be a string"]);
    const missing = "0bad0bad0bad0bad0bad0bad";
    const both = await call("POST", "/v1/workflow-overrides", { workflowId: missing, tenantId: missing });
    expect(both.status).toBe(404);
    expect(both.body.message).toBe(`Tenant with id ${missing} is not found`);
    const workflow = await call("POST", "/v1/workflow-overrides", { workflowId: missing, tenantId: T1 });
    expect(workflow.body.message).toBe(`Workflow with id ${missing} is not found`);
  });
});
