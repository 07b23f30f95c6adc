#!/usr/bin/env node
// The quick start (`npm run demo`): start the bundled emulator seeded from
// examples/emulator-seed.yaml, then run the real CLI against it on a copy of examples/content (a
// workflow's e-mail and in-app steps, the e-mail's template in a file and on a layout, branding):
// validate, plan, apply --auto-approve, and plan again, which must show no changes. Then it edits
// the copy as a pull request would (the e-mail's subject and the layout's file), and plans,
// applies and plans again. It works in a temporary directory so the repository stays clean, and
// stops the emulator whatever happens. Exits non-zero if any step does not end as expected.
import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const { startEmulator } = await import(join(root, "dist/emulator/index.js"));

const emulator = await startEmulator({ seedFile: join(root, "examples/emulator-seed.yaml"), port: 0 });
const work = await mkdtemp(join(tmpdir(), "notiform-demo-"));
await cp(join(root, "examples/content"), work, { recursive: true });

// The demo key is the emulator's development key from the seed file, passed the only way
// notiform accepts a key: an environment variable.
const env = { ...process.env, NOTIFORM_API_KEY: emulator.apiKey, NOTIFORM_API_URL: emulator.url };

/** An edit a pull request would make: `from` replaced by `to` in one file of the copy. */
const EDITS = [
  {
    file: "notiform.yaml",
    from: '"{{firstName}}, your week at Acme"',
    to: '"{{firstName}}, your Acme week in review"',
  },
  {
    file: "layouts/brand.html",
    from: "Acme Inc · You receive this because you have an Acme account.",
    to: 'Acme Inc · <a href="https://example.com/settings">Manage your e-mail settings</a>',
  },
];

const steps = [
  { args: ["validate"], expect: [0] },
  { args: ["plan", "--detailed-exitcode"], expect: [2] },
  { args: ["apply", "--auto-approve"], expect: [0] },
  { args: ["plan", "--detailed-exitcode"], expect: [0] },
  { edit: EDITS },
  { args: ["plan", "--detailed-exitcode"], expect: [2] },
  { args: ["apply", "--auto-approve"], expect: [0] },
  { args: ["plan", "--detailed-exitcode"], expect: [0] },
];

let failed = false;
try {
  console.log(`notiform demo: emulator at ${emulator.url}, examples/content copied to ${work}\n`);
  for (const step of steps) {
    if (step.edit) {
      for (const edit of step.edit) await editFile(edit);
      console.log("");
      continue;
    }
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
    console.log(
      "demo: done. Each last plan shows no changes: the emulator matches the config, content included.",
    );
} finally {
  await emulator.close();
  await rm(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;

async function editFile({ file, from, to }) {
  const path = join(work, file);
  const text = await readFile(path, "utf8");
  if (!text.includes(from)) throw new Error(`demo: ${file} no longer holds ${from}`);
  await writeFile(path, text.replace(from, to));
  console.log(`# edit ${file}: ${from} -> ${to}`);
}

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
