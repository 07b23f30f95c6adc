// Hostile input, round 3 (issue 27): each test reproduces an attack that got through, with the
// real CLI against the in-process emulator over loopback.
import { mkdir, readdir, readlink, symlink } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { createClient } from "../../src/kinds/client.js";
import { Masker, maskDeep } from "../../src/mask.js";
import { acquireStateLock } from "../../src/state/lock.js";
import { BIN, createWorkspace, runCli, runProcess, WORKFLOW_SHIPPED } from "../support/cli.js";

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
    expect(result.stderr).toMatch(
      /could not write .*plan\.json: the file is larger than this system lets it be/,
    );
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

describe("a closed output or a dropped session (items 1, 17): apply stops cleanly, never dies after writes", () => {
  function manyTopics(prefix: string, count: number): string {
    const topics = Array.from({ length: count }, (_, i) => `  - key: ${prefix}-${i}\n    name: T ${i}\n`);
    return `version: 1\norganization: Acme Inc\nnotificationGroups:\n  - key: billing\n    name: Billing\ntopics:\n${topics.join("")}`;
  }

  it("apply 2>&1 | head -c 1: stops, exits 130 (not 1), and a re-run converges without duplicates", async () => {
    const slow = await startEmulator({ seedFile: "examples/emulator-seed.yaml", port: 0, latencyMs: 20 });
    try {
      const workspace = await createWorkspace({ "notiform.yaml": manyTopics("piped", 30) });
      const command = `"${process.execPath}" "${BIN}" apply --auto-approve --concurrency 1 --api-url ${slow.url}`;
      const result = await runProcess(
        "bash",
        ["-c", `${command} 2>&1 | head -c 1 >/dev/null; exit \${PIPESTATUS[0]}`],
        {
          cwd: workspace.dir,
          env: {
            PATH: process.env.PATH ?? "",
            NO_COLOR: "1",
            HOME: workspace.dir,
            NOTIFORM_API_KEY: slow.apiKey,
          },
        },
      );
      expect(result.code).toBe(130);
      const created = slow.store().topics.filter((t) => t.key.startsWith("piped-")).length;
      expect(created).toBeLessThan(30);
      // The group created before the stop is recorded, so the re-run does not create it again.
      expect(await workspace.read("notiform.state.json")).toContain('"billing"');
      const rerun = await runCli(["apply", "--auto-approve", "--api-url", slow.url], {
        cwd: workspace.dir,
        env: { NOTIFORM_API_KEY: slow.apiKey },
      });
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(slow.store().topics.filter((t) => t.key.startsWith("piped-"))).toHaveLength(30);
      expect(slow.store().notificationGroups.filter((g) => g.name === "Billing")).toHaveLength(1);
    } finally {
      await slow.close();
    }
  });

  it("SIGHUP during apply is handled like Ctrl-C: report, state, exit 130", async () => {
    const slow = await startEmulator({ seedFile: "examples/emulator-seed.yaml", port: 0, latencyMs: 25 });
    try {
      const workspace = await createWorkspace({ "notiform.yaml": manyTopics("hangup", 40) });
      const result = await runCli(["apply", "--auto-approve", "--concurrency", "2", "--api-url", slow.url], {
        cwd: workspace.dir,
        env: { NOTIFORM_API_KEY: slow.apiKey },
        onSpawn: (child) => {
          const timer = setInterval(() => {
            if (slow.requests.filter((r) => r.method === "POST").length >= 4) {
              child.kill("SIGHUP");
              clearInterval(timer);
            }
          }, 2);
          child.on("close", () => clearInterval(timer));
        },
      });
      expect(result.signal).toBeNull();
      expect(result.code).toBe(130);
      expect(result.stderr).toContain("Stopping: starting nothing new");
      expect(result.stdout).toMatch(/\d+ applied, 0 failed, \d+ skipped/);
      expect(await workspace.read("notiform.state.json")).toContain('"billing"');
    } finally {
      await slow.close();
    }
  });
});

describe("plan --out (item 11): never over the config, the state or the lock; other files only with --force", () => {
  const CONFIG = "version: 1\ntopics:\n  - key: out-check\n    name: Out check\n";
  const STATE_TEXT = '{"formatVersion": 1}\n';

  it.each([
    ["notiform.yaml", /it is the root config file/],
    ["notiform.state.json", /it is the state file/],
    ["notiform.state.json.lock", /it is the state file's lock/],
    ["./sub/../notiform.yaml", /it is the root config file/],
  ])("refuses --out %s, even with --force, before any request", async (out, message) => {
    const workspace = await createWorkspace({
      "notiform.yaml": CONFIG,
      "notiform.state.json": STATE_TEXT,
      "sub/.keep": "",
    });
    const before = emulator.requests.length;
    const result = await runCli(["plan", "--out", out, "--force", "--api-url", emulator.url], {
      cwd: workspace.dir,
      env: { NOTIFORM_API_KEY: emulator.apiKey },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(emulator.requests.length).toBe(before);
    expect(await workspace.read("notiform.yaml")).toBe(CONFIG);
    expect(await workspace.read("notiform.state.json")).toBe(STATE_TEXT);
  });

  it("refuses an existing file that is not a plan unless --force, and replaces a saved plan", async () => {
    const workspace = await createWorkspace({ "notiform.yaml": CONFIG, "notes.txt": "my notes\n" });
    const env = { NOTIFORM_API_KEY: emulator.apiKey };
    const refused = await runCli(["plan", "--out", "notes.txt", "--api-url", emulator.url], {
      cwd: workspace.dir,
      env,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/notes\.txt: the file exists and is not a notiform plan/);
    expect(await workspace.read("notes.txt")).toBe("my notes\n");
    const first = await runCli(["plan", "--out", "plan.json", "--api-url", emulator.url], {
      cwd: workspace.dir,
      env,
    });
    expect(first.code, first.stderr).toBe(0);
    const again = await runCli(["plan", "--out", "plan.json", "--api-url", emulator.url], {
      cwd: workspace.dir,
      env,
    });
    expect(again.code, again.stderr).toBe(0);
    const forced = await runCli(["plan", "--out", "notes.txt", "--force", "--api-url", emulator.url], {
      cwd: workspace.dir,
      env,
    });
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(await workspace.read("notes.txt"))).toMatchObject({
      formatVersion: expect.any(Number),
    });
  });
});

describe("two config entries, one server object (item 5)", () => {
  it("refuses a workflow named by id and again by identifier, and an override written with tenant and tenantId", async () => {
    const workspace = await createWorkspace({
      "notiform.yaml": `version: 1
workflows:
  - key: by-id
    id: ${WORKFLOW_SHIPPED}
    name: One
  - key: by-identifier
    identifier: order-shipped
    name: Two
overrides:
  - workflow: by-id
    tenant: tenant-one
    active: true
  - workflow: by-id
    tenantId: "650000000000000000000001"
    active: false
`,
    });
    const before = emulator.requests.length;
    const result = await runCli(["apply", "--auto-approve", "--api-url", emulator.url], {
      cwd: workspace.dir,
      env: { NOTIFORM_API_KEY: emulator.apiKey },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /notiform\.yaml:6:5 +error +workflow "by-identifier" is the same server object as "by-id" \(notiform\.yaml:3\)/,
    );
    expect(result.stderr).toMatch(
      /notiform\.yaml:13:5 +error +workflow override .* is the same server object as .*\(notiform\.yaml:10\)/,
    );
    expect(result.stderr).toMatch(/2 entries name a server object another entry names/);
    expect(emulator.requests.slice(before).filter((r) => r.method !== "GET")).toEqual([]);
  });
});

describe("deep nesting (item 13): a limit with a position, not a stack overflow", () => {
  function blockNesting(levels: number): string {
    const lines = ["version: 1", "workflows:", "  - key: deep", `    id: ${WORKFLOW_SHIPPED}`, "    data:"];
    for (let i = 0; i < levels; i += 1) lines.push(`${" ".repeat(6 + 2 * i)}k${i}:`);
    lines.push(`${" ".repeat(6 + 2 * levels)}leaf: 1`);
    return `${lines.join("\n")}\n`;
  }
  it.each([
    ["3,000 levels of block mappings", blockNesting(3000)],
    ["100 levels of block mappings", blockNesting(100)],
    [
      "3,000 levels of flow sequences",
      `version: 1\nworkflows:\n  - key: deep\n    id: ${WORKFLOW_SHIPPED}\n    data: { x: ${"[".repeat(3000)}${"]".repeat(3000)} }\n`,
    ],
    [
      "nested sequences on one line",
      `version: 1\nworkflows:\n  - key: deep\n    id: ${WORKFLOW_SHIPPED}\n    data:\n      x:\n${"  ".repeat(3)}${"- ".repeat(200)}leaf\n`,
    ],
  ])("%s: a config error at a line, exit 1", async (_name, config) => {
    const workspace = await createWorkspace({ "notiform.yaml": config });
    const result = await runCli(["validate"], { cwd: workspace.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /notiform\.yaml:\d+:\d+ +error +YAML: values are nested (far )?more than 64 levels deep/,
    );
    expect(result.stderr).not.toMatch(/internal error|Maximum call stack/);
  });

  it("a config nested 40 levels deep still loads", async () => {
    const workspace = await createWorkspace({ "notiform.yaml": blockNesting(40) });
    const result = await runCli(["validate"], { cwd: workspace.dir });
    expect(result.code, result.stderr).toBe(0);
  });
});

describe("line breaks in names (item 8) never reach messages raw", () => {
  const FORGED = "x\n### Approved\nnothing to see";

  it("an included file's name, in every problem at its position", async () => {
    const workspace = await createWorkspace({
      "notiform.yaml": "version: 1\ninclude: ['teams/*.yaml']\n",
      [`teams/${FORGED}.yaml`]: "topics:\n  - key: bad key\n    name: ''\n",
    });
    const result = await runCli(["validate"], { cwd: workspace.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("teams/x\\n### Approved\\nnothing to see.yaml:");
    expect(result.stderr).not.toMatch(/^### Approved/m);
  });

  it("an environment name given with --env", async () => {
    const workspace = await createWorkspace({
      "notiform.yaml": "version: 1\nenvironments:\n  development: {}\n",
    });
    const result = await runCli(["validate", "--env", FORGED], { cwd: workspace.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('environment "x\\n### Approved\\nnothing to see" is not defined');
    expect(result.stderr).not.toMatch(/^### Approved/m);
  });

  it("the fields of a lock file someone else wrote", async () => {
    const workspace = await createWorkspace({ "notiform.yaml": "version: 1\ntopics: []\n" });
    const lock = { holder: FORGED, host: "h\nost", pid: process.pid, command: "c\r\nd", startedAt: "now\n" };
    await workspace.write("notiform.state.json.lock", JSON.stringify(lock));
    const result = await runCli(["apply", "--auto-approve", "--api-url", emulator.url], {
      cwd: workspace.dir,
      env: { NOTIFORM_API_KEY: emulator.apiKey },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("x\\n### Approved\\nnothing to see@h\\nost");
    expect(result.stderr).not.toMatch(/^### Approved/m);
  });
});

describe("a plan saved with one key, applied with another (item 17)", () => {
  it("names the key, not a changed config, and applies nothing", async () => {
    const workspace = await createWorkspace({
      "notiform.yaml":
        "version: 1\norganization: Acme Inc\ntopics:\n  - key: key-check\n    name: Key check\n",
    });
    const saved = await runCli(["plan", "--out", "plan.json", "--api-url", emulator.url], {
      cwd: workspace.dir,
      env: { NOTIFORM_API_KEY: emulator.apiKey },
    });
    expect(saved.code, saved.stderr).toBe(0);
    const before = emulator.requests.length;
    const applied = await runCli(["apply", "plan.json", "--output", "json", "--api-url", emulator.url], {
      cwd: workspace.dir,
      env: { NOTIFORM_API_KEY: emulator.productionApiKey ?? "" },
    });
    expect(applied.code).toBe(1);
    const { error } = JSON.parse(applied.stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe("PLAN_TARGET_MISMATCH");
    expect(error.message).toContain("the plan was made with another API key");
    expect(applied.stdout).not.toContain("the config changed");
    expect(emulator.requests.slice(before).filter((r) => r.method !== "GET")).toEqual([]);
  });
});

describe("memory (item 7): the bytes held over a run are capped with a clear error", () => {
  it("a list whose pages together pass the cap fails as a bad response, naming the endpoint", async () => {
    const big = await startEmulator({
      port: 0,
      seedFile: "examples/emulator-seed.yaml",
      seed: { environments: { development: { generate: { topics: 300 } } } },
    });
    try {
      const capped = createClient({ baseUrl: big.url, apiKey: big.apiKey, maxTotalBodyBytes: 20_000 });
      const error = await capped.listAllTopics().then(
        () => undefined,
        (e: unknown) => e as { code: string; message: string },
      );
      await capped.close();
      expect(error?.code).toBe("API_BAD_RESPONSE");
      expect(error?.message).toMatch(/GET \/v1\/topics.*passed 20000 bytes in all; refusing to hold more/);
      const uncapped = createClient({ baseUrl: big.url, apiKey: big.apiKey });
      expect((await uncapped.listAllTopics()).length).toBeGreaterThanOrEqual(300);
      await uncapped.close();
    } finally {
      await big.close();
    }
  });
});
