import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { emptyState } from "../../src/state/model.js";
import { defaultStatePath, readState, serializeState, writeFileAtomic } from "../../src/state/state-store.js";

const target = { apiUrl: "http://127.0.0.1:4010", organization: "Acme Inc", environment: null };
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "notiform-state-"));
});

describe("state file", () => {
  it("starts empty when there is no file, and reads back what it wrote", async () => {
    const path = join(dir, "notiform.state.json");
    const state = await readState(path, target);
    expect(state).toEqual(emptyState(target));
    state.notificationGroups.billing = { id: "000000000000000000000009", name: "Billing" };
    await writeFileAtomic(path, serializeState(state));
    expect(await readState(path, target)).toEqual(state);
    expect(await readdir(dir)).toEqual(["notiform.state.json"]);
  });

  it("is one file per environment beside the root config", () => {
    expect(defaultStatePath("/repo/notiform.yaml", undefined)).toBe("/repo/notiform.state.json");
    expect(defaultStatePath("/repo/notiform.yaml", "production")).toBe(
      "/repo/notiform.production.state.json",
    );
  });

  it("refuses a corrupt file and leaves it in place", async () => {
    const path = join(dir, "notiform.state.json");
    await writeFile(path, '{"formatVersion": 1, "target": ');
    await expect(readState(path, target)).rejects.toMatchObject({ code: "STATE_INVALID" });
    expect(await readFile(path, "utf8")).toBe('{"formatVersion": 1, "target": ');
  });

  it("refuses a file of another format version or shape", async () => {
    const path = join(dir, "notiform.state.json");
    await writeFile(path, JSON.stringify({ ...emptyState(target), formatVersion: 7 }));
    await expect(readState(path, target)).rejects.toThrow(/format version 7 is not supported/);
    // The version as text: said as such, not as "version 1 is not supported (this notiform reads 1)".
    await writeFile(path, JSON.stringify({ ...emptyState(target), formatVersion: "1" }));
    await expect(readState(path, target)).rejects.toThrow(/formatVersion must be the number 1, not "1"/);
    await writeFile(path, JSON.stringify({ hello: "world" }));
    await expect(readState(path, target)).rejects.toMatchObject({ code: "STATE_INVALID" });
  });

  it("refuses a foreign file, naming what differs", async () => {
    const path = join(dir, "notiform.state.json");
    await writeFileAtomic(
      path,
      serializeState(emptyState({ ...target, organization: "Other Co", environment: "production" })),
    );
    await expect(readState(path, target)).rejects.toThrow(
      /belongs to organization "Other Co", not "Acme Inc", environment production, not \(none\)/,
    );
  });
});
