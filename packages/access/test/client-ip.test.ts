/** The client address rules shared by the API and the standalone MCP server. */

import { describe, expect, it } from "vitest";
import { clientAddress, compileTrustProxy, normalizeAddress } from "../src/index.js";

describe("compileTrustProxy", () => {
  it("nothing trusted when unset or off", () => {
    for (const value of [undefined, "", " ", "0", "false", "none", "off", []]) {
      expect(compileTrustProxy(value), String(value)).toBeNull();
    }
  });

  it("refuses blanket trust and anything that is not an address, range or name", () => {
    for (const value of ["1", "true", "yes", "on", "loopback, true"]) {
      expect(() => compileTrustProxy(value), value).toThrow(/any peer.*comma-separated/);
    }
    for (const value of ["10.0.0.0/33", "proxy.example", "0x0a.0.0.1", "10.0.0.1:8080", "10.0.0.0/8/8"]) {
      expect(() => compileTrustProxy(value), value).toThrow(/^TRUST_PROXY: /);
    }
    // ipaddr.js would read "2" as 0.0.0.2; as a count of hops (Express's meaning) it is refused.
    expect(() => compileTrustProxy("loopback, 2")).toThrow(/"2" .*count of hops is not supported/);
  });

  it("addresses, ranges and names, from a string or a list", () => {
    const trust = compileTrustProxy(" 10.0.0.0/8 ,fd00::/8, loopback, 192.0.2.7 ")!;
    for (const a of ["10.1.2.3", "fd00::1", "127.0.0.1", "::1", "192.0.2.7"]) expect(trust(a), a).toBe(true);
    for (const a of ["11.0.0.1", "2001:db8::1", "192.168.0.1", "192.0.2.8"]) expect(trust(a), a).toBe(false);
    expect(compileTrustProxy("10.0.0.0/255.0.0.0")!("10.9.9.9")).toBe(true);
    const listed = compileTrustProxy(["linklocal", "uniquelocal"])!;
    expect(listed("169.254.1.1")).toBe(true);
    expect(listed("fc00::1")).toBe(true);
    expect(listed("127.0.0.1")).toBe(false);
  });
});

describe("normalizeAddress", () => {
  it("strips ports, brackets and zones; unwraps IPv4-mapped IPv6; one IPv6 spelling", () => {
    expect(normalizeAddress(" 198.51.100.7:4711 ")).toBe("198.51.100.7");
    expect(normalizeAddress("[2001:DB8::1]:443")).toBe("2001:db8::1");
    expect(normalizeAddress("2001:db8:0:0:0:0:0:1")).toBe("2001:db8::1");
    expect(normalizeAddress("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(normalizeAddress("[::ffff:c633:6407]:80")).toBe("198.51.100.7");
    expect(normalizeAddress("fe80::1%eth0")).toBe("fe80::1");
    for (const bad of ["unknown", "", "_hidden", "0x7f.1", "1.2.3", "[::1]x", "example.com"]) {
      expect(normalizeAddress(bad), bad).toBeNull();
    }
  });
});

describe("clientAddress", () => {
  const trust = compileTrustProxy("loopback, 10.0.0.0/8");

  it("a peer that is not trusted is the client, whatever it forwards", () => {
    expect(clientAddress("198.51.100.7", "203.0.113.1", trust)).toBe("198.51.100.7");
    expect(clientAddress("127.0.0.1", "203.0.113.1", null)).toBe("127.0.0.1");
    expect(clientAddress("::ffff:127.0.0.1", "203.0.113.1", null)).toBe("127.0.0.1");
    expect(clientAddress(undefined, "203.0.113.1", trust)).toBe("unknown");
  });

  it("behind trusted proxies: the rightmost address that is not trusted", () => {
    // The first entry is whatever the client wrote; the proxy appended the address it saw.
    expect(clientAddress("127.0.0.1", "6.6.6.6, 198.51.100.7", trust)).toBe("198.51.100.7");
    expect(clientAddress("127.0.0.1", "6.6.6.6, 198.51.100.7:5555, 10.1.1.1", trust)).toBe("198.51.100.7");
    expect(clientAddress("127.0.0.1", ["6.6.6.6", "[2001:db8::7]:443"], trust)).toBe("2001:db8::7");
    // Every hop trusted: the leftmost; a hop that is not an address ends the walk.
    expect(clientAddress("127.0.0.1", "10.0.0.9, 10.0.0.8", trust)).toBe("10.0.0.9");
    expect(clientAddress("127.0.0.1", "198.51.100.7, unknown", trust)).toBe("127.0.0.1");
    expect(clientAddress("127.0.0.1", "", trust)).toBe("127.0.0.1");
  });
});
