// Organization branding, the kind added through the registry alone: field-level plan, one PUT,
// an empty re-plan, export round-trip, a partial branding written to an organization without one
// (the PUT replaces the whole object, so unmanaged live fields are sent along), an offline logo
// check, and "not applicable" on a server that serves the spec alone — all as processes against the emulator over HTTP.
import { describe, expect, it } from "vitest";
import type { EmulatorHandle } from "../../src/emulator/index.js";
import { applyWay, BOTH_WAYS } from "../support/both-ways.js";
import { cliTests, createWorkspace, runCli } from "../support/cli.js";

const cliTest = cliTests();

const BRANDING = `version: 1
organization: Acme Inc
branding:
  color: "#0f62fe"
  fontColor: "#ffffff"
  contentBackground: "#fafafa"
  fontFamily: Inter
  logo: https://example.com/logo.png
`;

const writes = (emulator: EmulatorHandle) =>
  emulator.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);

const putBodies = (emulator: EmulatorHandle) =>
  emulator.requests.filter((r) => r.method === "PUT").map((r) => r.body);

/** The organization's branding as GET /v1/organizations/me shows it (undefined: no branding key). */
async function liveBranding(emulator: EmulatorHandle): Promise<unknown> {
  const response = await fetch(`${emulator.url}/v1/organizations/me`, {
    headers: { authorization: `ApiKey ${emulator.apiKey}` },
  });
  const { data } = (await response.json()) as { data: Record<string, unknown> };
  expect(Object.hasOwn(data, "branding") && data.branding === undefined).toBe(false);
  return data.branding;
}

describe("branding", () => {
  it.each(BOTH_WAYS)(
    "plans field-level changes, applies them with one PUT, then plans nothing (%s)",
    async (way) => {
      const session = await cliTest({ config: BRANDING });
      const planned = await session.cli("plan", "--detailed-exitcode");
      expect(planned.code, planned.stderr).toBe(2);
      expect(planned.stdout).toContain("~ branding organization");
      expect(planned.stdout).toContain('color: "#0f62fe"');
      expect(planned.stdout).toContain('logo: "https://example.com/logo.png"');
      expect(writes(session.emulator)).toEqual([]);

      await applyWay(session.cli, way);
      expect(writes(session.emulator)).toEqual(["PUT /v1/organizations/branding"]);

      const again = await session.cli("plan", "--detailed-exitcode");
      expect(again.code, again.stdout).toBe(0);

      // A dashboard edit of one managed field is planned as just that field, old -> new.
      await fetch(`${session.emulator.url}/v1/organizations/branding`, {
        method: "PUT",
        headers: { authorization: `ApiKey ${session.emulator.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({
          color: "#ff0000",
          fontColor: "#ffffff",
          contentBackground: "#fafafa",
          fontFamily: "Inter",
          logo: "https://example.com/logo.png",
          direction: "rtl",
        }),
      });
      const drift = await session.cli("plan", "--output", "json");
      const action = JSON.parse(drift.stdout).actions[0];
      expect(action.changes).toEqual([{ field: "color", old: "#ff0000", new: "#0f62fe" }]);
      // The write carries every field: the unmanaged direction stays as it is.
      expect(action.requests).toEqual([
        {
          method: "PUT",
          path: "/v1/organizations/branding",
          body: {
            color: "#0f62fe",
            fontColor: "#ffffff",
            contentBackground: "#fafafa",
            fontFamily: "Inter",
            logo: "https://example.com/logo.png",
            direction: "rtl",
          },
        },
      ]);
    },
  );

  it("exports branding so that the exported config plans back to zero changes", async () => {
    const session = await cliTest({ config: BRANDING });
    expect((await session.cli("apply", "--auto-approve")).code).toBe(0);
    const out = await createWorkspace({});
    const env = { NOTIFORM_API_KEY: session.emulator.apiKey };
    const exported = await runCli(["export", "--dir", ".", "--api-url", session.emulator.url], {
      cwd: out.dir,
      env,
    });
    expect(exported.code, exported.stderr).toBe(0);
    expect(await out.read("branding.yaml")).toContain("fontFamily: Inter");
    expect(await out.read("notiform.yaml")).toContain("branding.yaml");
    const plan = await runCli(["plan", "--detailed-exitcode", "--api-url", session.emulator.url], {
      cwd: out.dir,
      env,
    });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it("writes a partial branding to an organization that has none, then plans nothing", async () => {
    const session = await cliTest({
      config: "version: 1\norganization: Acme Inc\nbranding:\n  color: '#0f62fe'\n",
    });
    // A fresh organization: GET /v1/organizations/me has no branding key (r3-q5-01).
    expect(await liveBranding(session.emulator)).toBeUndefined();
    const planned = await session.cli("plan", "--output", "json");
    expect(planned.code, planned.stderr).toBe(0);
    const action = JSON.parse(planned.stdout).actions[0];
    expect(action).toMatchObject({ id: "branding/organization", op: "update" });
    expect(action.changes).toEqual([{ field: "color", new: "#0f62fe" }]);
    const applied = await session.cli("apply", "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    expect(putBodies(session.emulator)).toEqual([{ color: "#0f62fe" }]);
    expect(await liveBranding(session.emulator)).toEqual({ color: "#0f62fe" });
    const again = await session.cli("plan", "--detailed-exitcode");
    expect(again.code, again.stdout).toBe(0);
  });

  it("sends the live values of the fields it does not manage: the PUT replaces the whole object", async () => {
    const session = await cliTest({
      config: "version: 1\norganization: Acme Inc\nbranding:\n  fontColor: '#111111'\n",
    });
    const live = {
      color: "#123456",
      fontFamily: "Inter",
      logo: "https://example.com/logo.png",
      direction: "rtl",
    };
    await fetch(`${session.emulator.url}/v1/organizations/branding`, {
      method: "PUT",
      headers: { authorization: `ApiKey ${session.emulator.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(live),
    });
    session.emulator.clearRequests();
    const applied = await session.cli("apply", "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    expect(putBodies(session.emulator)).toEqual([{ ...live, fontColor: "#111111" }]);
    expect(await liveBranding(session.emulator)).toEqual({ ...live, fontColor: "#111111" });
    expect((await session.cli("plan", "--detailed-exitcode")).code).toBe(0);
  });

  it("is not applicable, with the reason, on a server that serves the spec alone", async () => {
    const session = await cliTest({ config: BRANDING, strictSpec: true });
    const planned = await session.cli("plan");
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain(
      "! branding organization (not-applicable: the server serves the spec alone",
    );
    const applied = await session.cli("apply", "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    expect(writes(session.emulator)).toEqual([]);
  });

  it.each([
    "https://example.com/logo.txt",
    // The server takes the text after the last dot as the extension: a query, a fragment or upper
    // case is refused there too.
    "https://example.com/logo.png?v=2",
    "https://example.com/logo.png#v2",
    "https://example.com/Logo.PNG",
  ])("refuses the logo %s offline, at its position", async (logo) => {
    const ws = await createWorkspace({ "notiform.yaml": `version: 1\nbranding:\n  logo: ${logo}\n` });
    const result = await runCli(["validate"], { cwd: ws.dir, env: {} });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "notiform.yaml:3:9  error  branding.logo: must be an http(s) URL ending in .jpg, .jpeg, .png, .gif or .svg, in lower case",
    );
  });
});
