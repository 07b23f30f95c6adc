// Admin routes under /__emulator/ for tests and demos on loopback: the request log, a state dump,
// fault settings and a reset. No authentication, so they must never reveal a credential: the dump
// leaves out the API keys and masks partner access tokens.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FaultSettings, ScriptedFault } from "./faults.js";
import { readBody, sendJson } from "./http-io.js";
import type { EmulatorData } from "./store.js";

export interface AdminPort {
  requests: unknown[];
  data(): EmulatorData;
  faultSettings(): FaultSettings;
  updateFaults(settings: Partial<FaultSettings>): void;
  injectFault(fault: ScriptedFault): void;
  reset(): void;
}

const ADMIN_BODY_LIMIT = 1024 * 1024;

export async function answerAdmin(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  port: AdminPort,
): Promise<void> {
  const method = req.method ?? "GET";
  // A web page can send a cross-origin "simple" POST (text/plain, a form) to a loopback server
  // without any preflight; it cannot send application/json. Requiring that type on every write
  // keeps pages the user visits from resetting or faulting a rehearsal emulator.
  if (method !== "GET" && method !== "HEAD" && !isJsonType(req.headers["content-type"])) {
    req.resume();
    const message = "admin routes that change the emulator take Content-Type: application/json";
    return sendJson(res, 415, { statusCode: 415, message, error: "Unsupported Media Type" });
  }
  const raw = await readBody(req, ADMIN_BODY_LIMIT);
  const route = `${method} ${path}`;
  if (route === "GET /__emulator/requests") return sendJson(res, 200, port.requests);
  if (route === "DELETE /__emulator/requests") {
    port.requests.length = 0;
    return sendJson(res, 200, { ok: true });
  }
  if (route === "GET /__emulator/state") return sendJson(res, 200, publicState(port.data()));
  if (route === "POST /__emulator/faults") {
    let body: unknown;
    try {
      body = JSON.parse(raw || "{}");
    } catch {
      body = undefined;
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      const message = "the body must be a JSON object of fault settings";
      return sendJson(res, 400, { statusCode: 400, message, error: "Bad Request" });
    }
    const { inject, ...settings } = body as Partial<FaultSettings> & { inject?: ScriptedFault };
    if (inject !== undefined) port.injectFault(inject);
    port.updateFaults(settings);
    return sendJson(res, 200, port.faultSettings());
  }
  if (route === "POST /__emulator/reset") {
    port.reset();
    return sendJson(res, 200, { ok: true });
  }
  return sendJson(res, 404, { statusCode: 404, message: `Cannot ${method} ${path}`, error: "Not Found" });
}

function isJsonType(header: string | undefined): boolean {
  return (header ?? "").split(";")[0]?.trim().toLowerCase() === "application/json";
}

/**
 * The state as the data file holds it (loadable with --data), plus the organization with its
 * partner access tokens masked. API keys are left out entirely.
 */
export function publicState(data: EmulatorData): unknown {
  const { apiKeys: _keys, ...rest } = data;
  const organization = {
    ...data.organization,
    ...(data.organization.partnerConfigurations !== undefined
      ? {
          partnerConfigurations: data.organization.partnerConfigurations.map((p) => ({
            ...p,
            accessToken: "********",
          })),
        }
      : {}),
  };
  return { ...rest, organization };
}
