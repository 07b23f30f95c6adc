// Which proxy a run uses, read from the environment as curl and npm read it: the variable for
// the API's scheme in either case (lower case first), https falling back to http_proxy, and
// NO_PROXY's entries matched as curl matches them. Pure: no request is made.
import { describe, expect, it } from "vitest";
import { matchNoProxy, routeFor } from "../../src/api/proxy-route.js";

const HTTPS = new URL("https://api.example.com");
const HTTP = new URL("http://127.0.0.1:4010");

describe("the proxy variables", () => {
  it("an https API uses HTTPS_PROXY or https_proxy, the lower-case one first", () => {
    expect(routeFor(HTTPS, { HTTPS_PROXY: "http://upper:3128" })).toMatchObject({
      proxy: { shown: "http://upper:3128", variable: "HTTPS_PROXY" },
    });
    expect(
      routeFor(HTTPS, { HTTPS_PROXY: "http://upper:3128", https_proxy: "http://lower:3128" }),
    ).toMatchObject({ proxy: { shown: "http://lower:3128", variable: "https_proxy" } });
  });

  it("an https API falls back to HTTP_PROXY (as npm and undici do); an http API never uses HTTPS_PROXY", () => {
    expect(routeFor(HTTPS, { HTTP_PROXY: "http://p:8080" })).toMatchObject({
      proxy: { shown: "http://p:8080", variable: "HTTP_PROXY" },
    });
    expect(routeFor(HTTP, { HTTPS_PROXY: "http://p:8080" })).toEqual({ direct: undefined });
    expect(routeFor(HTTP, { http_proxy: "http://p:8080" })).toMatchObject({
      proxy: { variable: "http_proxy" },
    });
  });

  it("no variable, or an empty one, means no proxy", () => {
    expect(routeFor(HTTPS, {})).toEqual({ direct: undefined });
    expect(routeFor(HTTPS, { HTTPS_PROXY: "", https_proxy: " " })).toEqual({ direct: undefined });
  });

  it("a bare host:port is an http proxy; the shown URL never carries the credentials", () => {
    expect(routeFor(HTTPS, { HTTPS_PROXY: "proxy.corp:3128" })).toMatchObject({
      proxy: { url: "http://proxy.corp:3128/", shown: "http://proxy.corp:3128" },
    });
    const route = routeFor(HTTPS, { HTTPS_PROXY: "http://ci%2Dbot:p%40ss-word@proxy.corp:3128" });
    expect(route).toMatchObject({ proxy: { shown: "http://proxy.corp:3128" } });
    expect("proxy" in route && route.proxy.secrets).toEqual(
      expect.arrayContaining(["ci%2Dbot", "p%40ss-word", "ci-bot", "p@ss-word"]),
    );
  });

  it("a proxy URL that cannot be used is a usage error that does not repeat the value", () => {
    const bad = () => routeFor(HTTPS, { HTTPS_PROXY: "http://user:s3cret@[bad" });
    expect(bad).toThrow(expect.objectContaining({ code: "USAGE", message: "HTTPS_PROXY is not a URL" }));
    expect(() => routeFor(HTTPS, { HTTPS_PROXY: "socks5://127.0.0.1:1080" })).toThrow(
      expect.objectContaining({ code: "USAGE" }),
    );
  });

  it("NO_PROXY (either case) sends a matching host directly, and says which entry matched", () => {
    expect(routeFor(HTTPS, { HTTPS_PROXY: "http://p:1", NO_PROXY: "localhost, .example.com" })).toEqual({
      direct: { noProxy: ".example.com", variable: "NO_PROXY" },
    });
    expect(routeFor(HTTPS, { HTTPS_PROXY: "http://p:1", no_proxy: "example.com" })).toEqual({
      direct: { noProxy: "example.com", variable: "no_proxy" },
    });
    expect(routeFor(HTTPS, { HTTPS_PROXY: "http://p:1", NO_PROXY: "other.com" })).toMatchObject({
      proxy: { shown: "http://p:1" },
    });
  });
});

describe("NO_PROXY entries, matched as curl matches them", () => {
  const at = (url: string) => new URL(url);

  it("a name matches itself and the names under it, with or without a leading dot or *.", () => {
    for (const entry of ["example.com", ".example.com", "*.example.com", "EXAMPLE.com"]) {
      expect(matchNoProxy(entry, at("https://example.com"))).toBe(entry);
      expect(matchNoProxy(entry, at("https://api.eu.example.com"))).toBe(entry);
    }
    expect(matchNoProxy("example.com", at("https://notexample.com"))).toBeUndefined();
    expect(matchNoProxy("api.example.com", at("https://example.com"))).toBeUndefined();
  });

  it("* matches every host; entries are separated by commas or spaces", () => {
    expect(matchNoProxy("*", at("https://anything.example"))).toBe("*");
    expect(matchNoProxy("a.com b.com,c.com", at("https://x.b.com"))).toBe("b.com");
  });

  it("a port limits an entry to that port (the scheme's default when the URL has none)", () => {
    expect(matchNoProxy("example.com:443", at("https://example.com"))).toBe("example.com:443");
    expect(matchNoProxy("example.com:8443", at("https://example.com"))).toBeUndefined();
    expect(matchNoProxy("127.0.0.1:4010", at("http://127.0.0.1:4010"))).toBe("127.0.0.1:4010");
  });

  it("IP addresses match exactly, IPv4 CIDR blocks by prefix, IPv6 with or without brackets", () => {
    expect(matchNoProxy("127.0.0.1", at("http://127.0.0.1:4010"))).toBe("127.0.0.1");
    expect(matchNoProxy("127.0.0.2", at("http://127.0.0.1:4010"))).toBeUndefined();
    expect(matchNoProxy("10.0.0.0/8", at("https://10.20.30.40"))).toBe("10.0.0.0/8");
    expect(matchNoProxy("10.0.0.0/8", at("https://11.0.0.1"))).toBeUndefined();
    expect(matchNoProxy("::1", at("http://[::1]:4010"))).toBe("::1");
    expect(matchNoProxy("[::1]:4010", at("http://[::1]:4010"))).toBe("[::1]:4010");
    // Written in full or in another case, the same address.
    expect(matchNoProxy("0:0:0:0:0:0:0:1", at("http://[::1]:4010"))).toBe("0:0:0:0:0:0:0:1");
    expect(matchNoProxy("[FD00:0:0::0A]", at("http://[fd00::a]:4010"))).toBe("[FD00:0:0::0A]");
  });
});
