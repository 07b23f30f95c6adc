// Which proxy, if any, the requests to the API go through, read from the environment as curl and
// npm read it: https_proxy / HTTPS_PROXY for an https:// API (falling back to http_proxy /
// HTTP_PROXY, as npm and undici do), http_proxy / HTTP_PROXY for an http:// one, the lower-case
// name first; no_proxy / NO_PROXY lists the hosts reached directly. Decided once per run, for the
// one API origin: the transport then opens undici's ProxyAgent or a direct Pool. The proxy's
// credentials (user:password in its URL) go to undici in the URL and nowhere else: `shown` is
// the URL without them, for --verbose and error messages.
import { NotiformError } from "../errors.js";

export interface ProxyRoute {
  /** The proxy's URL as given, credentials included: only for the ProxyAgent. */
  url: string;
  /** scheme://host:port, without credentials: what messages may show. */
  shown: string;
  /** The variable it came from, e.g. "HTTPS_PROXY". */
  variable: string;
  /** The credentials as written in the URL and decoded, for the masker (empty when none). */
  secrets: string[];
  /** Whether the proxy is sent credentials (a user name and a password). */
  credentials: boolean;
}

/** Why the API is reached directly although a proxy variable is set (for --verbose). */
export interface DirectRoute {
  /** The NO_PROXY entry that matched, e.g. ".internal.example.com". */
  noProxy: string;
  /** The variable it came from. */
  variable: string;
}

export type Route = { proxy: ProxyRoute } | { direct: DirectRoute } | { direct: undefined };

type Env = Readonly<Record<string, string | undefined>>;

/** The route to `origin` under `env`. A proxy URL that cannot be used is a USAGE error. */
export function routeFor(origin: URL, env: Env): Route {
  const found =
    origin.protocol === "https:"
      ? (variable(env, "https_proxy") ?? variable(env, "http_proxy"))
      : variable(env, "http_proxy");
  if (found === undefined) return { direct: undefined };
  const noProxy = variable(env, "no_proxy");
  if (noProxy !== undefined) {
    const entry = matchNoProxy(noProxy.value, origin);
    if (entry !== undefined) return { direct: { noProxy: entry, variable: noProxy.name } };
  }
  return { proxy: parseProxy(found.value, found.name) };
}

/** The variable by its lower-case name, else its upper-case one; empty counts as unset. */
function variable(env: Env, lower: string): { name: string; value: string } | undefined {
  for (const name of [lower, lower.toUpperCase()]) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== "") return { name, value };
  }
  return undefined;
}

function parseProxy(raw: string, name: string): ProxyRoute {
  // curl takes a bare host:port as an http:// proxy.
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Never the value itself: it may carry a password.
    throw new NotiformError("USAGE", `${name} is not a URL`, {
      hint: `Set ${name} to the proxy's URL, e.g. http://proxy.example.com:3128 (or http://user:password@host:port).`,
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new NotiformError(
      "USAGE",
      `${name} names a ${url.protocol.slice(0, -1)} proxy; notiform supports http:// and https:// proxies`,
      {
        hint: `Set ${name} to an http:// or https:// proxy URL.`,
      },
    );
  }
  // What undici would refuse on every request, as "URI malformed" or "invalid url", blamed on
  // the API: said here, once, without the value.
  if (safeDecode(url.username) === undefined || safeDecode(url.password) === undefined)
    throw new NotiformError("USAGE", `${name}'s user name or password has a malformed percent-escape`, {
      hint: `Percent-encode special characters in ${name}'s credentials (% as %25, @ as %40, : as %3A).`,
    });
  if (url.pathname !== "/" || url.search !== "" || url.hash !== "")
    throw new NotiformError(
      "USAGE",
      `${name} has a path or a query; a proxy URL is scheme://[user:password@]host:port`,
      {
        hint: `Set ${name} to the proxy's URL alone, e.g. http://proxy.example.com:3128.`,
      },
    );
  const secrets = [url.username, url.password, safeDecode(url.username), safeDecode(url.password)].filter(
    (value): value is string => value !== undefined && value !== "",
  );
  return {
    url: url.href,
    shown: `${url.protocol}//${url.host}`,
    variable: name,
    secrets,
    // undici sends Proxy-Authorization only with both a user name and a password.
    credentials: url.username !== "" && url.password !== "",
  };
}

/** The percent-decoded text; undefined when an escape is malformed. */
function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * The NO_PROXY entry that matches `origin`, as curl matches: `*` matches every host; a name
 * matches itself and every name under it (a leading `.` or `*.` is allowed); an IP address
 * matches itself, an IPv4 CIDR block (10.0.0.0/8) the addresses in it; `:port` limits an entry
 * to that port. Entries are separated by commas or spaces; case does not matter.
 */
export function matchNoProxy(list: string, origin: URL): string | undefined {
  const host = origin.hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
  const port = origin.port !== "" ? origin.port : origin.protocol === "https:" ? "443" : "80";
  for (const entry of list.split(/[\s,]+/)) {
    if (entry === "") continue;
    if (entry === "*") return entry;
    const { name, entryPort } = splitEntry(entry.toLowerCase());
    if (entryPort !== undefined && entryPort !== port) continue;
    if (matchesHost(name, host)) return entry;
  }
  return undefined;
}

function splitEntry(entry: string): { name: string; entryPort: string | undefined } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { name: bracketed[1] as string, entryPort: bracketed[2] };
  // One colon: host:port. More: a bare IPv6 address (its last group is no port).
  const colons = entry.split(":").length - 1;
  const hostPort = colons === 1 ? /^(.*):(\d+)$/.exec(entry) : null;
  if (hostPort) return { name: hostPort[1] as string, entryPort: hostPort[2] };
  return { name: entry, entryPort: undefined };
}

function matchesHost(entry: string, host: string): boolean {
  const name = canonicalIpv6(entry.replace(/^\*?\./, "").replace(/\.$/, ""));
  if (name === "") return false;
  const cidr = /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2})$/.exec(name);
  if (cidr) return inCidr(host, cidr[1] as string, Number(cidr[2]));
  return host === name || host.endsWith(`.${name}`);
}

/** An IPv6 address as a URL writes it (0:0:0:0:0:0:0:1 is ::1, as the origin's host is); else as is. */
function canonicalIpv6(name: string): string {
  if (!name.includes(":")) return name;
  try {
    return new URL(`http://[${name}]/`).hostname.slice(1, -1);
  } catch {
    return name;
  }
}

function inCidr(host: string, network: string, bits: number): boolean {
  const address = ipv4(host);
  const base = ipv4(network);
  if (address === undefined || base === undefined || bits > 32) return false;
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (address & mask) >>> 0 === (base & mask) >>> 0;
}

function ipv4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}
