// A new layout's variables as a real server stores them: derived from the content, the variables
// sent giving only defaultValue and required (r4-39 -> r4-43, r4-40 -> r4-44, and Novu's
// CreateLayoutUseCase for a name sent that the content does not use); PATCH keeps them as sent.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { start } from "./harness.js";

const DIR = join(import.meta.dirname, "..", "fixtures", "real-responses", "render");
// biome-ignore lint/suspicious/noExplicitAny: captures are read by path
const capture = (name: string): any => JSON.parse(readFileSync(join(DIR, `${name}.json`), "utf8"));

/** A variable as the capture and the emulator both hold it, without the emulator's sub-id. */
const plain = (variables: Record<string, unknown>[]) =>
  variables.map(({ name, type, defaultValue, required }) => ({ name, type, defaultValue, required }));

describe("a layout's variables on a real server", () => {
  it.each([
    ["r4-39-layout-create-simple", "r4-43-layout-get-simple"],
    ["r4-40-layout-create-branding", "r4-44-layout-get-branding"],
  ])("%s reads back as %s", async (create, read) => {
    const { call } = await start({ flavor: "real" });
    const created = await call("POST", "/v1/layouts", capture(create).request.body);
    expect(created.status).toBe(201);
    const got = await call("GET", `/v1/layouts/${created.body.data._id}`);
    expect(plain(got.body.data.variables)).toEqual(capture(read).response.body.data.variables);
  });

  it("drops a sent name the content does not use, takes the type from the content, and PATCH keeps what it is sent", async () => {
    const { call } = await start({ flavor: "real" });
    const variables = [
      { name: "footer", type: "Array", required: true, defaultValue: "Acme" },
      { name: "unused", type: "String", required: false, defaultValue: "x" },
    ];
    const content = "{{#if vip}}<b>VIP</b>{{/if}}{{{body}}}<p>{{footer}}</p>{{#each links}}{{url}}{{/each}}";
    const created = await call("POST", "/v1/layouts", { name: "L", identifier: "l", content, variables });
    const id = created.body.data._id;
    const read = async () => plain((await call("GET", `/v1/layouts/${id}`)).body.data.variables);
    expect(await read()).toEqual([
      { name: "footer", type: "String", defaultValue: "Acme", required: true },
      { name: "links", type: "Array", defaultValue: "", required: false },
      { name: "links.url", type: "String", defaultValue: "", required: false },
      { name: "vip", type: "Boolean", defaultValue: "", required: false },
    ]);
    expect((await call("PATCH", `/v1/layouts/${id}`, { variables })).status).toBe(200);
    expect(await read()).toEqual(variables);
  });

  it("refuses content that does not parse, as the server does", async () => {
    const { call } = await start({ flavor: "real" });
    const refused = await call("POST", "/v1/layouts", {
      name: "L",
      identifier: "l",
      content: "{{{body}}}{{#if x}}",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe("Failed to extract variables");
  });
});
