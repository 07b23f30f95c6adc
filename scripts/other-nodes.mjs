// notiform runs on Node.js 20.19 and later, and its users run 20, 22 and 24; a machine (CI's too)
// has one. This runs the tests that touch what differs between Node versions on the other two:
//
//   node scripts/other-nodes.mjs fetch   the official Node builds, from the npm registry (the
//                                        node-<platform>-<arch> packages npm's `node` package
//                                        installs), into node_modules/.cache/notiform-nodes/
//   node scripts/other-nodes.mjs test    those tests, on each fetched Node (`npm test` runs this)
//
// .ci/run fetches them and sets NOTIFORM_OTHER_NODES=required, so a CI run without them fails;
// elsewhere `test` says they were not fetched, and runs nothing. The builds are pinned: on
// linux-x64 (CI's) the download must match the digest written here, elsewhere npm checks it
// against the registry's.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, rm } from "node:fs/promises";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const CACHE = join(ROOT, "node_modules", ".cache", "notiform-nodes");

/** The Node versions to test on besides the running one, with the linux-x64 build's sha512. */
const NODES = [
  {
    version: "22.23.3",
    linuxX64:
      "sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==",
  },
  {
    version: "24.21.0",
    linuxX64:
      "sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==",
  },
];

/**
 * What differs between Node versions, and the tests that cover it: the module compile cache
 * (22.1+) and the config worker; every kind end to end, both ways (plan --out, promote --out);
 * TLS, CONNECT proxies and NODE_EXTRA_CA_CERTS; the V8 flag the transport sets; timeouts;
 * signals and interrupted applies; atomic writes and the lock; the preview's rendering. About 25
 * seconds a Node on CI's machine: the suite as a whole runs on the machine's own Node.
 */
const FILES = [
  "test/cli/compile-cache.test.ts",
  "test/cli/read-ahead.test.ts",
  "test/cli/every-kind-both-ways.test.ts",
  "test/cli/proxy-and-ca.test.ts",
  "test/api/proxy.test.ts",
  "test/api/undici-parts.test.ts",
  "test/api/bounded-waits.test.ts",
  "test/reliability/apply-killed.test.ts",
  "test/state/atomic-write.test.ts",
  "test/state/lock.test.ts",
  "test/preview/preview-cli.test.ts",
];

const PLATFORM = `${process.platform}-${process.arch}`;
const binaryOf = (version) => join(CACHE, `v${version}`, "bin", "node");

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: "inherit", ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

async function fetchNode({ version, linuxX64 }) {
  if (existsSync(binaryOf(version))) return;
  if (process.platform !== "linux" && process.platform !== "darwin") {
    throw new Error(`fetching Node builds is written for Linux and macOS, not ${process.platform}`);
  }
  const name = `node-${PLATFORM}`;
  const download = join(CACHE, "download");
  await rm(download, { recursive: true, force: true });
  await mkdir(download, { recursive: true });
  const packed = spawnSync(
    "npm",
    ["pack", `${name}@${version}`, "--silent", "--pack-destination", download],
    {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  if (packed.status !== 0) throw new Error(`npm pack ${name}@${version} failed (exit ${packed.status})`);
  const tarball = join(download, packed.stdout.trim().split("\n").pop() ?? "");
  if (PLATFORM === "linux-x64") {
    const digest = `sha512-${createHash("sha512")
      .update(await readFile(tarball))
      .digest("base64")}`;
    if (digest !== linuxX64)
      throw new Error(`${name}@${version}: the download's digest is not the one pinned here`);
  }
  if (run("tar", ["-xzf", tarball, "-C", download]) !== 0) throw new Error(`could not unpack ${tarball}`);
  // Moved into place whole, so an interrupted fetch leaves no half a Node behind.
  await rename(join(download, "package"), join(CACHE, `v${version}`));
  await rm(download, { recursive: true, force: true });
  process.stdout.write(`other-nodes: Node ${version} fetched\n`);
}

async function test() {
  const fetched = NODES.filter(({ version }) => existsSync(binaryOf(version)));
  if (fetched.length < NODES.length) {
    const missing = NODES.filter((node) => !fetched.includes(node)).map(({ version }) => version);
    const message = `other-nodes: Node ${missing.join(" and ")} not fetched (node scripts/other-nodes.mjs fetch)`;
    if (process.env.NOTIFORM_OTHER_NODES === "required") {
      process.stderr.write(`${message}: required here\n`);
      return 1;
    }
    process.stdout.write(`${message}: their tests did not run\n`);
  }
  const vitest = join(ROOT, "node_modules", "vitest", "vitest.mjs");
  for (const { version } of fetched) {
    const node = binaryOf(version);
    process.stdout.write(`\nother-nodes: ${FILES.length} test files on Node ${version}\n`);
    // Node's own folder first on PATH: the tests' children (the CLI, scripts) run on it too.
    const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ""}` };
    const code = run(node, [vitest, "run", ...FILES], { cwd: ROOT, env });
    if (code !== 0) return code;
  }
  return 0;
}

const [command] = process.argv.slice(2);
if (command === "fetch") {
  for (const node of NODES) await fetchNode(node);
} else if (command === "test") {
  process.exitCode = await test();
} else {
  process.stderr.write("usage: node scripts/other-nodes.mjs fetch|test\n");
  process.exitCode = 2;
}
