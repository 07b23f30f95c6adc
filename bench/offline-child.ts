// Child process of the offline benchmark: load + validate + plan a config of 50,000 resources in
// 100 files with no network (live state synthesized in memory, equal to the config), then report CPU time
// and peak RSS of this process as JSON on stdout. A separate process so RSS is its own.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { LiveSnapshot } from "../src/kinds/kind.js";
import type { WorkflowOverride } from "../src/kinds/override/wire.js";
import type { Topic } from "../src/kinds/topic/wire.js";
import type { Workflow } from "../src/kinds/workflow/wire.js";
import { loadConfig } from "../src/loader/index.js";
import { planChanges } from "../src/plan/plan-changes.js";
import { emptyState } from "../src/state/model.js";
import { configFor } from "./fixtures.js";

const dir = process.argv[2] ?? ".";
const size = { topics: 30_000, overrides: 15_000, workflows: 5_000 };
// 50,000 resources spread over 100 files, as a large team would keep them: the root file holds
// the workflows (overrides name them), 99 included files share the topics and overrides.
const FILES = 100;
const whole = configFor(size);
const sections = whole.split(/^(?=topics:|workflows:|overrides:)/m);
const head = sections[0] ?? "";
const section = (name: string) => sections.find((s) => s.startsWith(`${name}:`)) ?? "";
const chunks = (text: string, parts: number) => {
  const [title, ...rest] = text.split("\n  - ");
  const items = rest.map((item) => `  - ${item.trimEnd()}`);
  const per = Math.ceil(items.length / parts);
  return Array.from(
    { length: parts },
    (_, i) => `${title}\n${items.slice(i * per, (i + 1) * per).join("\n")}\n`,
  );
};
await mkdir(join(dir, "teams"), { recursive: true });
const topicChunks = chunks(section("topics"), FILES - 1);
const overrideChunks = chunks(section("overrides"), FILES - 1);
await writeFile(join(dir, "notiform.yaml"), `${head}include: [teams/*.yaml]\n${section("workflows")}`);
for (let i = 0; i < FILES - 1; i += 1) {
  await writeFile(
    join(dir, "teams", `team-${String(i).padStart(2, "0")}.yaml`),
    `${topicChunks[i]}${overrideChunks[i]}`,
  );
}

const cpuBefore = process.cpuUsage();
const started = performance.now();
const { desired } = await loadConfig({ configPath: "notiform.yaml", vars: {}, cwd: dir });
const loadedMs = performance.now() - started;

const ids = { _organizationId: "org", _environmentId: "env" };
const topics = new Map<string, Topic>(
  desired.resources.topic.map((t) => [
    t.spec.key,
    { _id: t.spec.key, ...ids, key: t.spec.key, name: t.spec.name, subscribers: [] },
  ]),
);
const workflowIdByKey = new Map(desired.resources.workflow.map((w) => [w.spec.key, w.spec.id ?? ""]));
const workflows = new Map<string, Workflow>(
  desired.resources.workflow.map((w) => [
    w.spec.id ?? "",
    {
      _id: w.spec.id ?? "",
      ...ids,
      name: w.spec.name ?? "",
      active: w.spec.active ?? true,
      draft: false,
      critical: false,
      tags: [],
      steps: [],
      triggers: [],
      preferenceSettings: { email: true, sms: true, in_app: true, chat: true, push: true },
      _creatorId: "u",
      _notificationGroupId: "g",
      deleted: false,
    },
  ]),
);
const overrides = new Map<string, WorkflowOverride>();
for (const o of desired.resources.override) {
  const workflowId = workflowIdByKey.get(o.spec.workflow) ?? o.spec.workflow;
  const tenantId = o.spec.tenantId ?? o.spec.tenant ?? "";
  overrides.set(`${workflowId}:${tenantId}`, {
    _id: `${workflowId}${tenantId}`,
    ...ids,
    _workflowId: workflowId,
    _tenantId: tenantId,
    active: o.spec.active ?? false,
    preferenceSettings: { email: true, sms: true, in_app: true, chat: true, push: true },
    deleted: false,
    createdAt: "",
    updatedAt: "",
  });
}
const live: LiveSnapshot = {
  organization: { name: "Bench Inc" },
  kinds: {
    topic: topics,
    tenant: new Map(),
    layout: new Map(),
    override: { byPair: overrides, canUpdate: true },
    workflow: workflows,
    notificationGroup: [],
    branding: { current: {} },
  },
  duplicates: {},
};
const target = { apiUrl: "http://127.0.0.1", organization: "Bench Inc", environment: null };
const plan = planChanges({ desired, live, state: emptyState(target), target, createdBy: "bench" });
const totalMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);

process.stdout.write(
  `${JSON.stringify({
    resources: size.topics + size.overrides + size.workflows,
    loadValidateMs: loadedMs,
    totalMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    actions: plan.actions.length,
    unchanged: plan.summary.unchanged,
  })}\n`,
);
