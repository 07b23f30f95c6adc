// Organizations (5-7), blueprints (8), execution details (16) and subscriber preferences (17).
import { badRequest, HttpError, notFound } from "../http-error.js";
import { nextId } from "../store.js";
import { type Handler, isObject, OBJECT_ID, ok, requireName } from "./context.js";

/**
 * The seed's organization, with the branding PUT /v1/organizations/branding stored since; an
 * organization without branding (fresh, or after an empty PUT) has no `branding` key at all.
 */
export const me: Handler = ({ data }) => {
  if (data.branding === undefined) return ok(data.organization);
  const { branding: _seeded, ...organization } = data.organization as typeof data.organization & {
    branding?: unknown;
  };
  return ok(
    Object.keys(data.branding).length === 0 ? organization : { ...organization, branding: data.branding },
  );
};

export const listOrganizations: Handler = ({ data }) => ok([data.organization, ...data.createdOrganizations]);

export const createOrganization: Handler = (ctx) => {
  const name = requireName(ctx.body);
  const organization = {
    _id: nextId(ctx.data),
    name,
    ...(isObject(ctx.body) && typeof ctx.body.logo === "string" ? { logo: ctx.body.logo } : {}),
  };
  ctx.data.createdOrganizations.push(organization);
  return ok(organization, 201, true);
};

export const getBlueprint: Handler = (ctx) => {
  const blueprint = ctx.store.blueprints.find((b) => b._id === ctx.params.id);
  // A real server crashed (500) on an unknown id; a 404 says what happened.
  if (!blueprint) throw notFound(`Blueprint with id ${ctx.params.id ?? ""} not found`);
  // The spec returns the blueprint bare; real servers wrap it.
  return { status: 200, body: ctx.flavor === "real" ? { data: blueprint } : blueprint };
};

export const listExecutionDetails: Handler = (ctx) => {
  const notificationId = ctx.query.get("notificationId");
  const subscriberId = ctx.query.get("subscriberId");
  const problems: string[] = [];
  if (notificationId === null) problems.push("notificationId should not be null or undefined");
  if (notificationId === null || !OBJECT_ID.test(notificationId))
    problems.push("notificationId must be a mongodb id");
  if (subscriberId === null)
    problems.push("subscriberId should not be null or undefined", "subscriberId must be a string");
  if (problems.length > 0) throw badRequest(problems);
  if (!ctx.store.subscribers.some((s) => s.subscriberId === subscriberId)) {
    throw notFound(`Subscriber with id ${subscriberId ?? ""} not found`);
  }
  return ok(
    ctx.store.executionDetails.filter(
      (d) => d._notificationId === notificationId && d._subscriberId === subscriberId,
    ),
  );
};

export const subscriberPreferences: Handler = (ctx) => {
  const level = ctx.params.level ?? "";
  if (level !== "global" && level !== "template") {
    throw badRequest(["parameter must be one of the following values: global, template"]);
  }
  const subscriber = ctx.store.subscribers.find((s) => s.subscriberId === ctx.params.subscriberId);
  if (!subscriber) throw new HttpError(400, `Subscriber ${ctx.params.subscriberId ?? ""} not found`);
  if (subscriber.preferences.length > 0) return ok(subscriber.preferences);
  // Without stored preferences: every workflow with its defaults, as a real server computes them.
  return ok(
    ctx.store.workflows.map((w) => ({
      template: {
        _id: w._id,
        name: w.name,
        critical: w.critical,
        triggers: w.triggers.map((t) => t.identifier),
      },
      preference: { enabled: true, channels: { ...w.preferenceSettings } },
    })),
  );
};
