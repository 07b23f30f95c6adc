// Differential test: every r4 capture of the server's preview endpoints (real server 2.0.0) runs
// through the renderer. A 201 must come out equal (email html byte for byte, subject, content;
// in-app, SMS, chat and push fields); a 400 template error must be a RenderError with the same
// message. Answers about the HTTP route (validation arrays, unknown layout, the 500 of a string
// given as editor content) are replayed against the emulator in test/emulator/preview-routes.test.ts.
import { describe, expect, it } from "vitest";
import { loadRenderer, type RenderContext, RenderError } from "../../src/render/index.js";
import { type Capture, capturedBranding, capturedLayouts, readCaptures } from "./captures.js";

const captures = readCaptures();
const layouts = capturedLayouts(captures);
const branding = capturedBranding(captures);
const renderer = await loadRenderer();

const PREVIEW = "/v1/content-templates/preview/";
const previews = captures.filter((c) => c.request.path.startsWith(PREVIEW));
/** Answers about the route rather than the template: replayed over HTTP against the emulator. */
const routeLevel = (c: Capture) =>
  Array.isArray(c.response.body.message) || c.response.status === 404 || c.response.status === 500;

function contextOf(capture: Capture): RenderContext {
  const body = capture.request.body ?? {};
  const context: RenderContext = {
    payload: (body.payload ?? {}) as Record<string, unknown>,
    mode: "preview",
  };
  if (capture.number > branding.after) context.branding = branding.branding;
  if (typeof body.layoutId === "string") {
    const layout = layouts.get(body.layoutId);
    if (layout === undefined) throw new Error(`${capture.file}: unknown layout ${body.layoutId}`);
    context.layout = layout;
  }
  return context;
}

function render(capture: Capture): unknown {
  const body = capture.request.body ?? {};
  const channel = capture.request.path.slice(PREVIEW.length);
  const context = contextOf(capture);
  switch (channel) {
    case "email":
      return renderer.renderEmail(body as never, context);
    case "in-app":
      return renderer.renderInApp(body as never, context);
    case "sms":
      return renderer.renderSms(body as never, context);
    case "chat":
      return renderer.renderChat(body as never, context);
    case "push":
      return renderer.renderPush(body as never, context);
    default:
      throw new Error(`unknown channel ${channel}`);
  }
}

describe("the renderer against the real server's preview answers (r4 captures)", () => {
  it("reads all 69 captures, 56 of them preview requests", () => {
    expect(captures).toHaveLength(69);
    expect(previews.length).toBeGreaterThanOrEqual(50);
  });

  const answered = previews.filter((c) => c.response.status === 201);
  it.each(answered.map((c) => [c.file, c] as const))(
    "%s renders what the server answered",
    (_file, capture) => {
      expect(render(capture)).toEqual(capture.response.body.data);
    },
  );

  const refused = previews.filter((c) => c.response.status === 400 && !routeLevel(c));
  it.each(refused.map((c) => [c.file, c] as const))(
    "%s fails with the server's message",
    (_file, capture) => {
      let thrown: unknown;
      try {
        render(capture);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(RenderError);
      expect((thrown as RenderError).message).toBe(capture.response.body.message);
    },
  );

  it("leaves to the route test only the answers about the HTTP route", () => {
    expect(previews.filter(routeLevel).map((c) => c.file)).toEqual([
      "r4-49-email-layout-not-found.json",
      "r4-64-email-validation-missing-fields.json",
      "r4-66-error-editor-string-content.json",
      "r4-67-sms-missing-content.json",
    ]);
  });
});
