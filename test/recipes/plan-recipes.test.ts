// The plan recipes (the CLI's and the Action's) run for real on a pull request's pushes: each
// push starts the workflow at GitHub's test merge (refs/pull/N/merge), the plan goes to the job
// summary and to ONE sticky comment (a fake GitHub API on 127.0.0.1; actions/github-script's
// stand-in and the Action both talk to it), updated on the next push and replaced by the error
// when the plan fails. A push from a fork gets no secrets: the plan is skipped with a notice.
import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { type FakeGitHub, startFakeGitHub } from "../action/fake-github.js";
import { SEED } from "../support/cli.js";
import { createContentWorkflow } from "../support/dashboard.js";
import { userRepository } from "./harness/repository.js";
import { runPullRequest, type WorkflowRun } from "./harness/runner.js";
import { createWorld, REPOSITORY } from "./harness/world.js";

const PR = 7;
/**
 * Each push runs a whole job (validate, plan, the preview of changed messages, the comment) as
 * spawned processes: on a loaded machine four pushes take longer than the default 30 s. A guard
 * against a hung run, not a speed target.
 */
const RECIPE_TIMEOUT_MS = 180_000;
const CONFIG = "notiform/notiform.yaml";
const topics = (names: string[]) =>
  `version: 1\norganization: Acme Inc\ntopics:\n${names.map((n) => `  - key: ${n}\n    name: ${n.toUpperCase()}\n`).join("")}`;

let emulator: EmulatorHandle | undefined;
let github: FakeGitHub | undefined;
afterEach(async () => {
  await emulator?.close();
  await github?.close();
  emulator = undefined;
  github = undefined;
});

const jobOf = (run: WorkflowRun) => Object.values(run.jobs)[0];

describe.each([
  ["notiform-plan.yml", "<!-- notiform-plan -->"],
  ["notiform-action-plan.yml", `<!-- notiform-action:plan:default:${CONFIG} -->`],
])("%s on a pull request", (recipe, marker) => {
  it(
    "keeps one comment with the newest plan, the failure when it fails, and skips forks",
    async () => {
      emulator = await startEmulator({ seedFile: SEED, port: 0 });
      github = await startFakeGitHub(REPOSITORY, PR);
      const world = await createWorld(
        { ...(await userRepository([recipe])), [CONFIG]: topics(["orders"]) },
        { NOTIFORM_API_KEY: emulator.apiKey },
        {},
        // The repository variable the recipe passes on as NOTIFORM_API_URL.
        { NOTIFORM_API_URL: emulator.url },
      );
      world.githubApiUrl = github.url;
      const workflow = `.github/workflows/${recipe}`;
      const push = async (config: string, options: { fork?: boolean } = {}) => {
        const event = await world.remote.pushToPull(PR, "topics", { [CONFIG]: config }, "Change topics");
        return runPullRequest(world, workflow, { ...event, ...options });
      };

      // First push: the plan (changes: not a failure) in the summary and in a new comment.
      const first = await push(topics(["orders", "newsletter"]));
      expect(first.triggered).toBe(true);
      expect(jobOf(first)?.result, first.log()).toBe("success");
      expect(github.comments).toHaveLength(1);
      expect(github.comments[0]?.user.login).toBe("github-actions[bot]");
      expect(github.comments[0]?.body.startsWith(marker)).toBe(true);
      expect(github.comments[0]?.body).toContain("newsletter");
      expect(jobOf(first)?.summary).toContain("newsletter");
      // The plan has changes: the preview of the changed messages ran, was uploaded with the run,
      // and the comment links the run's artifacts.
      expect(first.log()).toContain("Wrote 0 changed message steps to notiform-preview/index.html");
      expect(jobOf(first)?.summary).toContain("[this run's artifacts]");
      expect(world.artifacts.map((a) => a.name)).toEqual(["notiform-preview"]);
      expect(world.artifacts[0]?.files).toContain("index.html");
      expect(github.comments[0]?.body).toMatch(
        new RegExp(
          `\\[this run's artifacts\\]\\(https://github.com/${REPOSITORY}/actions/runs/${world.artifacts[0]?.runId}#artifacts\\)`,
        ),
      );

      // Second push: the same comment, updated.
      const second = await push(topics(["orders", "returns"]));
      expect(jobOf(second)?.result, second.log()).toBe("success");
      expect(github.comments).toHaveLength(1);
      expect(github.comments[0]?.body).toContain("returns");
      expect(github.comments[0]?.body).not.toContain("newsletter");

      // A broken config: the job fails and the comment says why, instead of the old green plan.
      const broken = await push(`${topics(["orders"])}  - key: [not, a, key]\n`);
      expect(jobOf(broken)?.result, broken.log()).toBe("failure");
      expect(github.comments).toHaveLength(1);
      expect(github.comments[0]?.body).toContain("failed");
      expect(github.comments[0]?.body).toContain(CONFIG);
      expect(github.comments[0]?.body).not.toContain("returns");

      // From a fork: no secrets, no plan, a notice; the job succeeds and the comment is left alone.
      const before = github.comments[0]?.body;
      const fork = await push(topics(["orders", "fork"]), { fork: true });
      expect(jobOf(fork)?.result, fork.log()).toBe("success");
      expect(fork.log()).toContain("::notice::");
      expect(github.comments.map((c) => c.body)).toEqual([before]);
      expect(fork.log()).not.toContain(emulator.apiKey);
    },
    RECIPE_TIMEOUT_MS,
  );
});

// Issue 34's "done when": a new user changes an email's subject and body in a pull request; the
// comment shows the rendered subject before and after and links the previews the run uploaded.
describe("notiform-plan.yml on a pull request that changes an email", () => {
  it(
    "comments the rendered subject before and after, and uploads the before/after preview",
    async () => {
      emulator = await startEmulator({ seedFile: SEED, port: 0, flavor: "real" });
      const handle = emulator;
      await createContentWorkflow(handle, "<p>Hello {{firstName}}</p>");
      github = await startFakeGitHub(REPOSITORY, PR);
      const config = (subject: string, body: string) => `version: 1
organization: Acme Inc
workflows:
  - identifier: order-shipped-content
    preview:
      payload: { orderId: A-1, firstName: Ada }
    steps:
      - name: email-customer
        type: email
        template:
          subject: "${subject}"
          content: "${body}"
          contentType: customHtml
`;
      const world = await createWorld(
        {
          ...(await userRepository(["notiform-plan.yml"])),
          [CONFIG]: config("Your order {{orderId}} shipped", "<p>Hello {{firstName}}</p>"),
        },
        { NOTIFORM_API_KEY: handle.apiKey },
        {},
        { NOTIFORM_API_URL: handle.url },
      );
      world.githubApiUrl = github.url;
      const event = await world.remote.pushToPull(
        PR,
        "email",
        { [CONFIG]: config("Shipped: {{orderId}}", "<p>Hi {{firstName}}, it is on its way</p>") },
        "Reword the shipping email",
      );
      const run = await runPullRequest(world, ".github/workflows/notiform-plan.yml", event);
      expect(jobOf(run)?.result, run.log()).toBe("success");
      const comment = github.comments[0]?.body ?? "";
      expect(comment).toContain(
        "| `order-shipped-content / email-customer` | email | `Your order A-1 shipped` | `Shipped: A-1` |",
      );
      expect(comment).toContain(`[this run's artifacts](https://github.com/${REPOSITORY}/actions/runs/`);
      expect(world.artifacts[0]?.files).toEqual(
        expect.arrayContaining([
          "index.html",
          "order-shipped-content/email-customer.html",
          "order-shipped-content/email-customer.before.html",
          "order-shipped-content/email-customer.json",
          "order-shipped-content/email-customer.preview.html",
        ]),
      );
    },
    RECIPE_TIMEOUT_MS,
  );
});
