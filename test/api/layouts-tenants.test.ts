// The client's layout and tenant calls against the emulator over HTTP: what each sends and what
// it gives back, in the real shapes (a layout create answers its id only; a tenant PATCH replaces
// `data` whole; setting the default layout answers 204 with no body).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { type ApiClient, createClient } from "../../src/kinds/client.js";

const CONTENT = "<html><body>{{{body}}}<footer>{{footer}}</footer></body></html>";

let emulator: EmulatorHandle;
let client: ApiClient;
let production: ApiClient;

beforeAll(async () => {
  emulator = await startEmulator({ seedFile: "examples/emulator-seed.yaml", port: 0, flavor: "real" });
  client = createClient({ baseUrl: emulator.url, apiKey: emulator.apiKey, insecureHttp: true });
  production = createClient({
    baseUrl: emulator.url,
    apiKey: emulator.productionApiKey ?? "",
    insecureHttp: true,
  });
});
afterAll(async () => {
  await client.close();
  await production.close();
  await emulator.close();
});

describe("tenants", () => {
  it("creates with data (numbers stay numbers) and PATCH replaces data whole", async () => {
    const created = await client.createTenant({
      identifier: "acme",
      name: "Acme",
      data: { seats: 5, plan: "pro" },
    });
    expect(created).toMatchObject({ identifier: "acme", name: "Acme", data: { seats: 5, plan: "pro" } });
    const updated = await client.updateTenant("acme", { data: { seats: 6 } });
    expect(updated.data).toEqual({ seats: 6 });
    expect(updated.name).toBe("Acme");
    expect((await client.getTenant("acme")).data).toEqual({ seats: 6 });
    await expect(client.createTenant({ identifier: "acme", name: "Again" })).rejects.toMatchObject({
      status: 409,
    });
  });

  it("each environment writes its own tenants", async () => {
    await client.createTenant({ identifier: "both", name: "Dev" });
    const prod = await production.createTenant({ identifier: "both", name: "Prod" });
    expect(prod.name).toBe("Prod");
    expect((await client.getTenant("both")).name).toBe("Dev");
    const all = await production.listAllTenants();
    expect(all.map((t) => t.identifier)).toContain("both");
  });
});

describe("layouts", () => {
  it("create answers its id; get, update, set default; the list holds every field", async () => {
    const created = await client.createLayout({ name: "Brand", identifier: "brand", content: CONTENT });
    expect(Object.keys(created)).toEqual(["_id"]);
    const read = await client.getLayout(created._id);
    expect(read).toMatchObject({ identifier: "brand", content: CONTENT, isDefault: false });
    const updated = await client.updateLayout(created._id, {
      description: "d",
      variables: [{ name: "footer" }],
    });
    expect(updated.variables).toMatchObject([{ name: "footer", defaultValue: "" }]);
    await client.setDefaultLayout(created._id);
    const all = await client.listAllLayouts();
    const brand = all.find((l) => l.identifier === "brand");
    expect(brand).toMatchObject({ isDefault: true, content: CONTENT, description: "d" });
    expect(all.find((l) => l.identifier === "novu-default-layout")?.isDefault).toBe(false);
    await expect(
      client.createLayout({ name: "Bad", identifier: "bad", content: "<p>{{body}}</p>" }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
