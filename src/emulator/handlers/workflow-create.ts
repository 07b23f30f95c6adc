// POST /v1/workflows (extension, Development only): create a workflow like a real server does.
// The trigger identifier is the name's slug (with -2, -3... when taken: set another with PUT
// `identifier`); every step gets a message template whose id is also the step's `_id` and
// `_templateId`; the creation is recorded as a pending change (with a MessageTemplate child per
// step) for promotion.
import type { Workflow } from "../../kinds/workflow/wire.js";
import { layoutsNamed, recordWorkflowChange } from "../changes.js";
import { badRequest, notFound } from "../http-error.js";
import { checkStepTexts, loadHandlebars } from "../layout-variables.js";
import { CREATOR_ID, slug } from "../seed-data.js";
import { buildSteps, checkSteps, triggerVariables } from "../steps.js";
import { nextId } from "../store.js";
import {
  CHANNELS,
  type Handler,
  type HandlerContext,
  isObject,
  OBJECT_ID,
  ok,
  validatorLength,
} from "./context.js";
import { developmentOnly } from "./workflows.js";

function checkBody(b: Record<string, unknown>): void {
  const problems: string[] = [];
  if (typeof b.name !== "string" || b.name.trim() === "") problems.push("name should not be empty");
  if (typeof b.notificationGroupId !== "string" || !OBJECT_ID.test(b.notificationGroupId))
    problems.push("notificationGroupId must be a mongodb id");
  if (
    b.description !== undefined &&
    (typeof b.description !== "string" || validatorLength(b.description) > 1000)
  )
    problems.push("description must be shorter than or equal to 1000 characters");
  if (b.tags !== undefined && (!Array.isArray(b.tags) || b.tags.some((t) => typeof t !== "string")))
    problems.push("tags must be an array of strings");
  for (const flag of ["active", "critical", "draft"]) {
    if (b[flag] !== undefined && typeof b[flag] !== "boolean")
      problems.push(`${flag} must be a boolean value`);
  }
  // CreateWorkflowRequestDto: steps IsDefined, IsArray (a PUT may leave them out).
  if (b.steps === undefined || b.steps === null)
    problems.push("steps should not be null or undefined", "steps must be an array");
  problems.push(...checkSteps(b.steps));
  const prefs = b.preferenceSettings;
  if (
    prefs !== undefined &&
    (!isObject(prefs) ||
      Object.entries(prefs).some(
        ([k, v]) => !(CHANNELS as readonly string[]).includes(k) || typeof v !== "boolean",
      ))
  )
    problems.push("preferenceSettings must hold boolean email, sms, in_app, chat, push");
  if (b.data !== undefined && !isObject(b.data)) problems.push("data must be an object");
  if (problems.length > 0) throw badRequest(problems);
}

function uniqueIdentifier(ctx: HandlerContext, name: string): string {
  const base = slug(name) || "workflow";
  const taken = new Set(ctx.store.workflows.flatMap((w) => w.triggers.map((t) => t.identifier)));
  let candidate = base;
  for (let n = 2; taken.has(candidate); n += 1) candidate = `${base}-${n}`;
  return candidate;
}

export const createWorkflow: Handler = async (ctx) => {
  // Loaded before the store is read: no other request runs between the checks and the write.
  const engine = await loadHandlebars();
  developmentOnly(ctx);
  const b = isObject(ctx.body) ? ctx.body : {};
  checkBody(b);
  const group = ctx.store.notificationGroups.find((g) => g._id === b.notificationGroupId);
  if (!group) throw notFound(`Notification group with id ${String(b.notificationGroupId)} not found`);
  checkStepTexts(engine, b.steps);
  const name = b.name as string;
  const active = b.active === true;
  const workflow = {
    preferenceSettings: {
      email: true,
      sms: true,
      in_app: true,
      chat: true,
      push: true,
      ...(isObject(b.preferenceSettings) ? b.preferenceSettings : {}),
    },
    name,
    description: typeof b.description === "string" ? b.description : "",
    active,
    type: "REGULAR",
    draft: typeof b.draft === "boolean" ? b.draft : !active,
    critical: b.critical === true,
    isBlueprint: false,
    _notificationGroupId: group._id,
    tags: Array.isArray(b.tags) ? (b.tags as string[]) : [],
    triggers: [
      {
        type: "event",
        identifier: uniqueIdentifier(ctx, name),
        variables: [],
        reservedVariables: [],
        subscriberVariables: [],
        _id: nextId(ctx.data),
      },
    ],
    steps: buildSteps(ctx, Array.isArray(b.steps) ? (b.steps as Record<string, unknown>[]) : []),
    origin: "novu-cloud",
    _environmentId: ctx.store.environmentId,
    _organizationId: ctx.data.organization._id,
    _creatorId: CREATOR_ID,
    _id: nextId(ctx.data),
    deleted: false,
    data: isObject(b.data) ? b.data : {},
    createdAt: ctx.now,
    updatedAt: ctx.now,
  } as Workflow;
  const trigger = workflow.triggers[0];
  if (trigger !== undefined) Object.assign(trigger, triggerVariables(ctx, workflow.steps));
  ctx.store.workflows.push(workflow);
  const sent = Array.isArray(b.steps) ? (b.steps as unknown[]) : [];
  recordWorkflowChange(ctx.data, ctx.environment, workflow, ctx.now, layoutsNamed(sent));
  return ok({ ...workflow, notificationGroup: group }, 201, true);
};
