#!/usr/bin/env node
// The quick start (`npm run demo`): start the bundled emulator seeded from
// examples/emulator-seed.yaml, then run the real CLI against it on a copy of examples/basic:
// validate, plan, apply --auto-approve, and plan again, which must show no changes.
// It works in a temporary directory so the repository stays clean, and stops the emulator
// whatever happens. Exits non-zero if any step does not end as expected.
import { spawn } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const { startEmulator } = await import(join(root, "dist/emulator/index.js"));

const emulator = await startEmulator({ seedFile: join(root, "examples/emulator-seed.yaml"), port: 0 });
const work = await mkdtemp(join(tmpdir(), "notiform-demo-"));
await cp(join(root, "examples/basic"), work, { recursive: true });

// The demo key is the emulator's development key from the seed file, passed the only way
// notiform accepts a key: an environment variable.
const env = { ...process.env, NOTIFORM_API_KEY: emulator.apiKey, NOTIFORM_API_URL: emulator.url };

const steps = [
  { args: ["validate"], expect: [0] },
  { args: ["plan", "--detailed-exitcode"], expect: [2] },
  { args: ["apply", "--auto-approve"], expect: [0] },
  { args: ["plan", "--detailed-exitcode"], expect: [0] },
];

let failed = false;
try {
  console.log(`notiform demo: emulator at ${emulator.url}, config copied to ${work}\n`);
  for (const step of steps) {
    console.log(`$ notiform ${step.args.join(" ")}`);
    const code = await run(step.args);
    console.log("");
    if (!step.expect.includes(code)) {
      console.error(
        `demo: \`notiform ${step.args.join(" ")}\` exited ${code}, expected ${step.expect.join(" or ")}`,
      );
      failed = true;
      break;
    }
  }
  if (!failed)
    console.log("demo: done. The second plan shows no changes: the emulator now matches the config.");
} finally {
  await emulator.close();
  await rm(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;

function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "bin/notiform.js"), ...args], {
      cwd: work,
      env,
      stdio: "inherit",
    });
    child.on("error", reject);
    child.on("close", (code) => resolve(code ?? 1));
  });
}
