// The recipes pass the repository variable NOTIFORM_API_URL (`vars`) on to notiform (issue 35,
// item 1): a team that sets it pins where the API key goes, so a same-repository pull request
// that edits the config's apiUrl is refused (API_URL_CONFLICT) and the key never reaches the
// pull request's URL. That URL is a loopback listener of this test's own, recording contacts.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { type FakeGitHub, startFakeGitHub } from "../action/fake-github.js";
import { SEED } from "../support/cli.js";
import { userRepository } from "./harness/repository.js";
import { runPullRequest, type WorkflowRun } from "./harness/runner.js";
import { createWorld, REPOSITORY } from "./harness/world.js";

const PR = 9;
/** A whole job per push, as spawned processes: a guard against a hung run, not a speed target. */
const RECIPE_TIMEOUT_MS = 180_000;
const CONFIG = "notiform/notiform.yaml";
const RECIPE = "notiform-plan.yml";
const config = (apiUrl: string, topic: string) =>
  `version: 1\norganization: Acme Inc\nenvironments:\n  ci:\n    apiUrl: ${apiUrl}\n    apiKeyEnv: NOTIFORM_API_KEY\ntopics:\n  - key: ${topic}\n    name: ${topic.toUpperCase()}\n`;

let emulator: EmulatorHandle | undefined;
let github: FakeGitHub | undefined;
let listener: Server | undefined;
afterEach(async () => {
  await emulator?.close();
  await github?.close();
  const server = listener;
  if (server !== undefined) await new Promise((done) => server.close(done));
  emulator = undefined;
  github = undefined;
  listener = undefined;
});

const jobOf = (run: WorkflowRun) => Object.values(run.jobs)[0];

describe(`${RECIPE} with the repository variable NOTIFORM_API_URL set`, () => {
  it(
    "refuses a pull request that points the config's apiUrl elsewhere; the key never goes there",
    async () => {
      emulator = await startEmulator({ seedFile: SEED, port: 0 });
      github = await startFakeGitHub(REPOSITORY, PR);
      const contacts: string[] = [];
      listener = createServer((request, response) => {
        contacts.push(`${request.method} ${request.url}`);
        request.resume();
        response.writeHead(401).end();
      });
      const server = listener;
      await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
      const prUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

      // A team with environments plans its `ci` environment (their copy of the recipe adds --env).
      const files = await userRepository([RECIPE]);
      const workflowPath = `.github/workflows/${RECIPE}`;
      const planLine = "npx --no -- notiform plan --config notiform/notiform.yaml";
      expect(files[workflowPath]).toContain(planLine);
      files[workflowPath] = (files[workflowPath] ?? "").replace(planLine, `${planLine} --env ci`);
      const world = await createWorld(
        { ...files, [CONFIG]: config(emulator.url, "orders") },
        { NOTIFORM_API_KEY: emulator.apiKey },
        {},
        { NOTIFORM_API_URL: emulator.url },
      );
      world.githubApiUrl = github.url;
      const push = async (text: string) => {
        const event = await world.remote.pushToPull(PR, "topics", { [CONFIG]: text }, "Change topics");
        return runPullRequest(world, workflowPath, event);
      };

      // The variable's URL, which the config agrees with: the plan runs against the emulator.
      const agreed = await push(config(emulator.url, "newsletter"));
      expect(jobOf(agreed)?.result, agreed.log()).toBe("success");
      expect(github.comments[0]?.body).toContain("newsletter");

      // The pull request points apiUrl at its own server: refused, and nothing reaches it.
      const hostile = await push(config(prUrl, "returns"));
      expect(jobOf(hostile)?.result, hostile.log()).toBe("failure");
      expect(hostile.log()).toContain("environments.ci.apiUrl");
      expect(hostile.log()).toContain("differs from NOTIFORM_API_URL");
      expect(github.comments[0]?.body).toContain("differs from NOTIFORM_API_URL");
      expect(hostile.log()).not.toContain(emulator.apiKey);
      expect(contacts).toEqual([]);
    },
    RECIPE_TIMEOUT_MS,
  );
});
