// The one way the endpoint modules talk to the server: send a call through the transport,
// make extension calls learn (and fail fast once the server is known to lack them), and hand
// back the parsed JSON with the context shape checks need to name the endpoint. It validates
// nothing itself: request checks are in request-checks.ts, response checks in envelope.ts.

import { MAX_DOCUMENT_NESTING, nestsDeeperThan } from "../nesting.js";
import { Capabilities } from "./capabilities.js";
import { fail, type ResponseContext } from "./envelope.js";
import { rememberedUnsupported } from "./errors.js";
import type { Call, Transport } from "./transport.js";
import type { Extension, RequestOptions } from "./types.js";

export interface EndpointCall extends Omit<Call, "signal" | "extension" | "urgent" | "endpoint"> {
  endpoint: string;
  /** Set for an observed extension: its capability is checked and learnt. */
  extension?: Extension;
}

/** RequestOptions plus the internal queue-jumping flag of sequential page chains. */
export interface SendOptions extends RequestOptions {
  urgent?: boolean;
}

export interface Answer {
  json: unknown;
  ctx: ResponseContext;
}

export class Requester {
  readonly capabilities = new Capabilities();
  private readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }

  /**
   * Send, then check and convert the answer with `check` (shape checks throw API_BAD_RESPONSE).
   * A check that throws counts as a failed call in stats().
   */
  async read<T>(call: EndpointCall, options: SendOptions, check: (answer: Answer) => T): Promise<T> {
    const answer = await this.request(call, options);
    try {
      return check(answer);
    } catch (error) {
      this.transport.stats.failures += 1;
      throw error;
    }
  }

  /** Send and return a non-empty JSON answer (an empty 2xx body is API_BAD_RESPONSE). */
  async request(call: EndpointCall, options: SendOptions = {}): Promise<Answer> {
    const answer = await this.send(call, options);
    if (answer.json === undefined) {
      this.transport.stats.failures += 1;
      fail(answer.ctx, "empty body");
    }
    return answer;
  }

  /** Send a call whose success has no body (a 204). */
  async requestEmpty(call: EndpointCall, options: SendOptions = {}): Promise<void> {
    await this.send(call, options);
  }

  private async send(call: EndpointCall, options: SendOptions): Promise<Answer> {
    const { extension, ...rest } = call;
    if (extension !== undefined) {
      const learnt = this.capabilities.missingAnswer(extension);
      if (learnt !== undefined) throw rememberedUnsupported(call, learnt);
    }
    let reply: Awaited<ReturnType<Transport["send"]>>;
    try {
      reply = await this.transport.send({
        ...rest,
        signal: options.signal,
        ...(extension !== undefined ? { extension: true } : {}),
        ...(options.urgent === true ? { urgent: true } : {}),
      });
    } catch (error) {
      if (extension !== undefined) this.capabilities.learnFrom(extension, error);
      throw error;
    }
    if (extension !== undefined) this.capabilities.supported(extension);
    const ctx: ResponseContext = {
      method: call.method,
      path: call.path,
      endpoint: call.endpoint,
      status: reply.status,
      attempts: reply.attempts,
    };
    // Here, where the parsed body becomes an answer (not in the transport): a reply nested
    // thousands of levels deep would overflow the stack in every later walk of it.
    if (nestsDeeperThan(reply.json)) {
      this.transport.stats.failures += 1;
      fail(ctx, `the reply nests more than ${MAX_DOCUMENT_NESTING} levels deep`);
    }
    return { json: reply.json, ctx };
  }
}
