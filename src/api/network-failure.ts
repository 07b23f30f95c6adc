// How a failed exchange is named: whether its request may have reached the server (sent), whether
// trying again can help (final), a short reason and a hint; the proxy's failures as the proxy's,
// a certificate's with the NODE_EXTRA_CA_CERTS hint. http-exchange.ts marks what only the
// exchange knows (the request was never written; the answer was cut after its headers).
import type { ProxyRoute } from "./proxy-route.js";

type TimeoutCode = "TOTAL_TIMEOUT";

export function timeoutError(code: TimeoutCode): Error {
  return Object.assign(new Error(`notiform ${code.toLowerCase().replace("_", " ")}`), { code });
}

/** The exchange's overall deadline passed (the transport names it with the deadline). */
export function isTotalTimeout(error: unknown): boolean {
  return codeOf(error) === "TOTAL_TIMEOUT";
}

/** Errors of exchanges that failed before undici started (wrote) the request. */
const UNSENT = new WeakSet<object>();
/** Errors of exchanges that failed after the answer's status and headers arrived. */
const CUT_SHORT = new WeakSet<object>();

/** Marks a failure before undici started (wrote) the request. */
export function notSent(error: Error): Error {
  UNSENT.add(error);
  return error;
}

/** Marks a failure after the answer's status and headers arrived. */
export function markCutShort(error: Error): void {
  CUT_SHORT.add(error);
}

/** Whether the exchange failed before its request was written: nothing reached the server. */
export function wasNotSent(error: unknown): boolean {
  return typeof error === "object" && error !== null && UNSENT.has(error);
}

/** Failures before anything was sent (no connection was made): retrying cannot duplicate. */
const NOT_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
  "PROXY_REFUSED",
  "PROXY_TUNNEL_FAILED",
  "UND_ERR_PRX_TLS",
]);

/** The server's certificate was refused (by code, as Node's TLS names it): nothing was sent. */
const UNTRUSTED_CERTIFICATE = new Set([
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "CERT_UNTRUSTED",
  "CERT_SIGNATURE_FAILURE",
]);
const OTHER_CERTIFICATE = new Map([
  ["CERT_HAS_EXPIRED", "the server's certificate has expired"],
  ["CERT_NOT_YET_VALID", "the server's certificate is not valid yet"],
  ["ERR_TLS_CERT_ALTNAME_INVALID", "the server's certificate is not for this host name"],
  ["CERT_REVOKED", "the server's certificate was revoked"],
]);

/** Whether Node's TLS refused a certificate (by its code): the server's, or a proxy's. */
export function isCertificateFailure(code: string): boolean {
  return UNTRUSTED_CERTIFICATE.has(code) || OTHER_CERTIFICATE.has(code);
}

export const CERTIFICATE_HINT =
  "If the server's certificate comes from a private (company) certificate authority, give Node that authority's certificate: export NODE_EXTRA_CA_CERTS=/path/to/ca.pem (a PEM file; read when the process starts).";

export interface NetworkFailure {
  /** The request may have reached the server (anything after the connection was made). */
  sent: boolean;
  /** Trying again cannot help (a refused certificate, a proxy asking for credentials). */
  final: boolean;
  /** A short reason for the message: "connection refused", "timed out waiting for the response". */
  reason: string;
  /** What to check, when it is not the API URL and the network. */
  hint?: string;
}

export function describeNetworkFailure(error: unknown, proxy: ProxyRoute | undefined): NetworkFailure {
  const code = codeOf(error) ?? "UNKNOWN";
  const sent = !wasNotSent(error) && !NOT_SENT.has(code) && !isCertificateFailure(code);
  if (UNTRUSTED_CERTIFICATE.has(code))
    return {
      sent,
      final: true,
      reason: `the server's certificate is not trusted (${code})`,
      hint: CERTIFICATE_HINT,
    };
  const certificate = OTHER_CERTIFICATE.get(code);
  if (certificate !== undefined)
    return { sent, final: true, reason: `${certificate} (${code})`, hint: CERTIFICATE_HINT };
  if (code === "UND_ERR_DESTROYED" || code === "UND_ERR_CLOSED")
    return {
      sent,
      final: true,
      reason: "the client was closed before a response arrived (the run is ending)",
    };
  if (proxy !== undefined) {
    const named = proxyFailure(code, error, proxy);
    if (named !== undefined) return { sent, ...named };
  }
  return { sent, final: false, reason: reasonFor(code, error) };
}

/** Failures that are the proxy's: reaching it, its refusal of the tunnel, its certificate. */
function proxyFailure(
  code: string,
  error: unknown,
  proxy: ProxyRoute,
): Omit<NetworkFailure, "sent"> | undefined {
  const hint = `Check the proxy in ${proxy.variable}, or list the API's host in NO_PROXY to reach it directly.`;
  if (code === "PROXY_REFUSED") {
    const status = (error as { status?: unknown }).status;
    if (status === 407) {
      return {
        final: true,
        reason: `the proxy ${proxy.shown} asked for credentials (407 Proxy Authentication Required)${proxy.credentials ? " and refused the ones given" : ""}`,
        hint: `Give the proxy's credentials in ${proxy.variable}: http://USER:PASSWORD@host:port (percent-encode special characters).`,
      };
    }
    return {
      final: false,
      reason: `the proxy ${proxy.shown} refused to open a connection to the API (CONNECT answered ${String(status)})`,
      hint,
    };
  }
  if (code === "PROXY_TUNNEL_FAILED")
    return {
      final: false,
      reason: `the proxy ${proxy.shown} did not open a connection to the API (${(error as Error).message})`,
      hint,
    };
  if (code === "UND_ERR_PRX_TLS")
    return {
      final: true,
      reason: `the proxy ${proxy.shown}'s certificate was refused`,
      hint: CERTIFICATE_HINT,
    };
  // Every connection goes to the proxy: failing to connect is failing to reach the proxy.
  if (NOT_SENT.has(code))
    return {
      final: false,
      reason: `could not reach the proxy ${proxy.shown}: ${reasonFor(code, error)}`,
      hint,
    };
  return undefined;
}

function codeOf(error: unknown): string | undefined {
  const raw = (error as { code?: unknown } | null)?.code;
  return typeof raw === "string" ? raw : undefined;
}

function reasonFor(code: string, error: unknown): string {
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "host not found";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "host unreachable";
    case "UND_ERR_CONNECT_TIMEOUT":
      return "timed out connecting";
    case "UND_ERR_HEADERS_TIMEOUT":
      return "timed out waiting for the response";
    case "UND_ERR_BODY_TIMEOUT":
      return "timed out reading the response";
    case "ECONNRESET":
    case "EPIPE":
    case "UND_ERR_SOCKET":
      return typeof error === "object" && error !== null && CUT_SHORT.has(error)
        ? "the connection was closed before the whole response arrived"
        : "the connection was closed before a response arrived";
    default: {
      // OpenSSL's own text ("...:error:0A00010B:SSL routines:...:wrong version number:file:line:")
      // says little to a user.
      const message = (error instanceof Error ? error.message : String(error)).trim();
      if (/wrong version number/i.test(message))
        return "the TLS handshake failed: the server does not speak TLS there (an https:// URL for a plain-HTTP server?)";
      if (/SSL routines/.test(message)) return "the TLS handshake failed";
      return message;
    }
  }
}
