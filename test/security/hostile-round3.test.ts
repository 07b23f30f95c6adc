// Hostile input, round 3 (issue 27): each test reproduces an attack that got through, with the
// real CLI against the in-process emulator over loopback.
import { mkdir, readdir, readlink, symlink } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { Masker, maskDeep } from "../../src/mask.js";
import { acquireStateLock } from "../../src/state/lock.js";
import { BIN, runCli, runProcess } from "../helpers/cli.js";
import { createWorkspace, WORKFLOW_SHIPPED } from "../helpers/workspace.js";

let emulator: EmulatorHandle;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seedFile: "examples/emulator-seed.yaml" });
});
afterAll(async () => {
  await emulator.close();
});

describe("a __proto__ key (item 2): the plan can never hide what apply sends", () => {
  const configs: [string, string][] = [
    [
      "block mapping",
      `version: 1\nworkflows:\n  - key: order-shipped\n    id: ${WORKFLOW_SHIPPED}\n    data:\n      plain: 1\n      __proto__:\n        evil: true\n`,
    ],
    [
      "quoted key in a flow mapping",
      `version: 1\nworkflows:\n  - key: order-shipped\n    id: ${WORKFLOW_SHIPPED}\n    data: { plain: 1, "__proto__": { evil: true } }\n`,
    ],
  ];
  it.each(configs)(
    "is refused at validate, plan and apply with its file:line (%s)",
    async (_name, config) => {
      const workspace = await createWorkspace({ "notiform.yaml": config });
      const api = ["--api-url", emulator.url];
      for (const command of [["validate"], ["plan", ...api], ["apply", "--auto-approve", ...api]]) {
        const result = await runCli(command, {
          cwd: workspace.dir,
          env: { NOTIFORM_API_KEY: emulator.apiKey },
        });
        expect(result.code, command.join(" ")).toBe(1);
        expect(result.stderr).toMatch(/notiform\.yaml:(5|7):\d+ +error +the key `__proto__` is not allowed/);
      }
      const writes = emulator.requests.filter((r) => r.method !== "GET");
      expect(writes).toEqual([]);
    },
  );

  it("a server's __proto__ key stays an own key when the plan is masked", () => {
    const live = JSON.parse('{"data":{"__proto__":{"evil":true},"token":"abcd-secret-value"}}') as unknown;
    const masked = maskDeep(live, new Masker().add("abcd-secret-value"));
    expect(JSON.stringify(masked)).toBe('{"data":{"__proto__":{"evil":true},"token":"********"}}');
    expect(Object.getPrototypeOf((masked as { data: object }).data)).toBe(Object.prototype);
  });
});

describe("flags (items 4, 10): a flag without its value, repeated or mistyped is a usage error", () => {
  const BAD: [string[], RegExp][] = [
    [["apply", "--target", "--auto-approve"], /--target needs a value/],
    [["plan", "--target"], /--target needs a value/],
    [["plan", "--target="], /--target needs a value/],
    [["plan", "--out"], /--out needs a value/],
    [["plan", "--out", ""], /--out needs a value/],
    [["plan", "--config", "a.yaml", "--config", "a.yaml"], /--config is given more than once/],
    [["plan", "-c", "a.yaml", "--config", "b.yaml"], /--config is given more than once/],
    [["plan", "--env", "a", "--env", "b"], /--env is given more than once/],
    [
      ["plan", "--api-url", "http://127.0.0.1:1", "--api-url", "http://127.0.0.1:2"],
      /--api-url is given more than once/,
    ],
    [["plan", "--out", "a.json", "--out", "b.json"], /--out is given more than once/],
    [["plan", "--detailed-exitcode=nope"], /--detailed-exitcode takes true or false, not "nope"/],
    [["validate", "--allow-include-outside=1"], /--allow-include-outside takes true or false/],
    [["emulator", "--port"], /--port needs a value/],
  ];
  it.each(BAD)("%j", async (args, message) => {
    const workspace = await createWorkspace({ "notiform.yaml": "version: 1\ntopics: []\n" });
    const before = emulator.requests.length;
    const result = await runCli([...args], {
      cwd: workspace.dir,
      env: { NOTIFORM_API_KEY: emulator.apiKey },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/internal error/);
    expect(emulator.requests.length).toBe(before);
  });

  it("still takes repeated --target, a value after =, negative numbers and short aliases", async () => {
    const workspace = await createWorkspace({
      "notiform.yaml": "version: 1\ntopics:\n  - key: a\n    name: A\n  - key: b\n    name: B\n",
    });
    const result = await runCli(
      ["plan", "-c", "notiform.yaml", "--target=topic/a", "--target", "topic/b", "--api-url", emulator.url],
      { cwd: workspace.dir, env: { NOTIFORM_API_KEY: emulator.apiKey } },
    );
    expect(result.stderr).not.toMatch(/usage|needs a value|more than once/);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/topic a/);
    expect(result.stdout).toMatch(/topic b/);
  });
});

describe("environment names (item 9): own keys only", () => {
  it.each(["constructor", "toString", "__proto__", "hasOwnProperty"])(
    "--env %s is not a defined environment",
    async (name) => {
      const workspace = await createWorkspace({
        "notiform.yaml": "version: 1\nenvironments:\n  development: {}\ntopics: []\n",
      });
      const result = await runCli(["validate", "--env", name], { cwd: workspace.dir });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`environment "${name}" is not defined (defined: development)`);
    },
  );
});

describe("equivalent URLs (item 14): recorded and compared normalised", () => {
  it("a state written through ' http://HOST/' is the same target as http://host", async () => {
    const workspace = await createWorkspace({
      "notiform.yaml": "version: 1\ntopics:\n  - key: url-check\n    name: URL check\n",
    });
    const env = { NOTIFORM_API_KEY: emulator.apiKey };
    const spaced = ` ${emulator.url}/ `;
    const applied = await runCli(["apply", "--auto-approve", "--api-url", spaced], {
      cwd: workspace.dir,
      env,
    });
    expect(applied.code, applied.stderr).toBe(0);
    const state = JSON.parse(await workspace.read("notiform.state.json")) as { target: { apiUrl: string } };
    expect(state.target.apiUrl).toBe(emulator.url.replace(/\/+$/, ""));
    const planned = await runCli(["plan", "--api-url", emulator.url], { cwd: workspace.dir, env });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toMatch(/No changes/i);
  });
});

describe("a symlinked state file (item 6): written through, locked at its real path", () => {
  const CONFIG = "version: 1\ntopics:\n  - key: link-check\n    name: Link check\n";

  it("apply updates the link's target and leaves the link a link", async () => {
    const workspace = await createWorkspace({ "notiform.yaml": CONFIG });
    await mkdir(workspace.path("real"));
    await symlink("real/notiform.state.json", workspace.path("notiform.state.json"));
    const env = { NOTIFORM_API_KEY: emulator.apiKey };
    const applied = await runCli(["apply", "--auto-approve", "--api-url", emulator.url], {
      cwd: workspace.dir,
      env,
    });
    expect(applied.code, applied.stderr).toBe(0);
    expect(await readlink(workspace.path("notiform.state.json"))).toBe("real/notiform.state.json");
    const state = JSON.parse(await workspace.read("real/notiform.state.json")) as {
      target: { apiUrl: string };
    };
    expect(state.target.apiUrl).toBe(emulator.url);
    expect(await readdir(workspace.dir)).not.toContain("notiform.state.json.lock");
  });

  it("a lock taken through the real path stops an apply through the link", async () => {
    const workspace = await createWorkspace({ "notiform.yaml": CONFIG, "real/notiform.state.json": "" });
    await symlink("real/notiform.state.json", workspace.path("notiform.state.json"));
    const lock = await acquireStateLock(workspace.path("real/notiform.state.json"), { command: "test" });
    try {
      const before = emulator.requests.length;
      const applied = await runCli(["apply", "--auto-approve", "--api-url", emulator.url], {
        cwd: workspace.dir,
        env: { NOTIFORM_API_KEY: emulator.apiKey },
      });
      expect(applied.code).toBe(1);
      expect(applied.stderr).toMatch(/lock/i);
      expect(emulator.requests.slice(before).filter((r) => r.method !== "GET")).toEqual([]);
    } finally {
      await lock.release();
    }
  });
});

describe("a failed atomic write (item 12): no temporary file left, path and cause named", () => {
  it("plan --out past the file size limit (EFBIG) reports the file and removes its .tmp", async () => {
    const workspace = await createWorkspace({
      "notiform.yaml":
        "version: 1\ntopics:\n  - key: big-one\n    name: Big one\n  - key: big-two\n    name: Big two\n",
    });
    // Ignoring SIGXFSZ makes a write past `ulimit -f` fail with EFBIG, as a full disk fails one.
    const script = `trap '' XFSZ; ulimit -f 1; exec "${process.execPath}" "${BIN}" plan --out plan.json --api-url ${emulator.url}`;
    const result = await runProcess("bash", ["-c", script], {
      cwd: workspace.dir,
      env: {
        PATH: process.env.PATH ?? "",
        NO_COLOR: "1",
        HOME: workspace.dir,
        NOTIFORM_API_KEY: emulator.apiKey,
      },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/could not write .*plan\.json: EFBIG/);
    expect(result.stderr).not.toMatch(/internal error/);
    expect((await readdir(workspace.dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    expect(await readdir(workspace.dir)).not.toContain("plan.json");
  });
});

describe("the emulator's admin routes (item 15): no cross-site writes, a warning off loopback", () => {
  it("refuses a text/plain or form POST (what a web page can send without a preflight)", async () => {
    const local = await startEmulator({ port: 0, seedFile: "examples/emulator-seed.yaml" });
    try {
      const created = await fetch(`${local.url}/v1/topics`, {
        method: "POST",
        headers: { authorization: `ApiKey ${local.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ key: "survives", name: "Survives" }),
      });
      expect(created.status).toBe(201);
      for (const type of ["text/plain", "application/x-www-form-urlencoded", undefined]) {
        for (const path of ["reset", "faults"]) {
          const response = await fetch(`${local.url}/__emulator/${path}`, {
            method: "POST",
            ...(type !== undefined ? { headers: { "content-type": type } } : {}),
            body: path === "faults" ? '{"errorRate":1}' : "",
          });
          expect(response.status, `${path} ${type}`).toBe(415);
        }
      }
      const topic = await fetch(`${local.url}/v1/topics/survives`, {
        headers: { authorization: `ApiKey ${local.apiKey}` },
      });
      expect(topic.status).toBe(200);
      const reset = await fetch(`${local.url}/__emulator/reset`, {
        method: "POST",
        headers: { "content-type": "application/json" },
      });
      expect(reset.status).toBe(200);
    } finally {
      await local.close();
    }
  });

  it("warns before listening on an address that is not loopback", async () => {
    // 192.0.2.1 (TEST-NET-1) is no address of this machine: listening fails, nothing is sent.
    const result = await runCli(["emulator", "--host", "192.0.2.1", "--port", "0"], { cwd: process.cwd() });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/warning: listening on "192\.0\.2\.1", not loopback/);
  });

  it.each(["127.0.0.1", "::1", "localhost", "127.9.9.9"])("says nothing for loopback %s", async (host) => {
    const { exposureWarning } = await import("../../src/emulator/exposure.js");
    expect(exposureWarning(host)).toBeUndefined();
    expect(exposureWarning("0.0.0.0")).toMatch(/not loopback/);
  });
});
