// The base URL check made when a client is created: the key travels in a header, so plain
// http is refused unless the host is loopback (the emulator) or the user passed
// --insecure-http. It never contacts the host.
import { NotiformError } from "../errors.js";

/** True when sending a key to `url` would cross a network in clear text. */
export function isInsecureUrl(url: URL): boolean {
  return url.protocol === "http:" && !isLoopbackHost(url.hostname);
}

/** localhost, 127.0.0.0/8 and ::1 (also IPv4-mapped): traffic that never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host === "::1" || /^::ffff:(7f[0-9a-f]{2}:[0-9a-f]{1,4}|127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.test(host)) {
    return true;
  }
  const octets = host.split(".");
  return (
    octets.length === 4 && octets[0] === "127" && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255)
  );
}

/** The base URL without a trailing slash, or a USAGE / INSECURE_URL error. */
export function checkBaseUrl(raw: string, insecureHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new NotiformError("USAGE", `the API URL ${JSON.stringify(raw)} is not a URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new NotiformError("USAGE", `the API URL must be https:// (got ${url.protocol})`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new NotiformError("USAGE", "the API URL must not carry credentials", {
      hint: "The key comes from the environment variable only.",
    });
  }
  if (url.search !== "" || url.hash !== "") {
    throw new NotiformError("USAGE", "the API URL must not carry a query or a fragment");
  }
  if (isInsecureUrl(url) && !insecureHttp) {
    throw new NotiformError("INSECURE_URL", `refusing to send the API key over plain http to ${url.host}`, {
      hint: "Use https://, or pass --insecure-http if you really mean it (e.g. a test server on your network).",
    });
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}
