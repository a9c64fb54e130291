/**
 * The client's address behind proxies (TRUST_PROXY), the pages for this machine alone, and the
 * origin rule for signed-in writes. The proxy here is what nginx's `$proxy_add_x_forwarded_for`
 * does: it appends the address it was connected from to whatever X-Forwarded-For the client sent.
 */

import assert from "node:assert/strict";
import { testApp } from "../api.ts";
import { LIMITS } from "../../kv/ratelimit.ts";
import { resolveClient } from "../../routes/middleware.ts";
import { proxyExposureWarning } from "../../config/config.ts";

type App = Awaited<ReturnType<typeof testApp>>;

/** A request through one proxy on this host: it connects from loopback and appends the client's address. */
function viaProxy(
  t: App,
  path: string,
  client: string,
  sent?: string,
  init: { method?: string; form?: Record<string, string> } = {},
) {
  const xff = sent ? `${sent}, ${client}` : client;
  return t.call(init.method ?? "GET", path, {
    headers: { "x-forwarded-for": xff },
    address: "127.0.0.1",
    form: init.form,
  });
}

async function withTrust<T>(value: string | null, body: () => Promise<T>): Promise<T> {
  if (value === null) Deno.env.delete("TRUST_PROXY");
  else Deno.env.set("TRUST_PROXY", value);
  try {
    return await body();
  } finally {
    Deno.env.delete("TRUST_PROXY");
  }
}

Deno.test("proxy address - a remote member who sends 'X-Forwarded-For: 127.0.0.1' through the proxy does not read the dev outbox", async () => {
  const t = await testApp();
  try {
    await t.registerAndGetToken("victim@example.com");
    await withTrust("1", async () => {
      const spoofed = await viaProxy(t, "/dev/outbox", "203.0.113.7", "127.0.0.1");
      assert.equal(spoofed.status, 404, "the leftmost value is the client's own claim");
      assert.doesNotMatch(spoofed.text, /#token=/);
      // The proxy's own loopback connection, forwarding for nobody named, is not this machine either.
      assert.equal((await t.call("GET", "/dev/outbox", { address: "127.0.0.1" })).status, 404);
      // Someone on this machine who goes through the proxy is named by it: they read it.
      const local = await viaProxy(t, "/dev/outbox", "127.0.0.1");
      assert.equal(local.status, 200);
      assert.match(local.text, /#token=/);
    });
    // Untrusted, a proxy on this host is still a proxy: whom it forwards for is not this machine.
    await withTrust(null, async () => {
      assert.equal((await viaProxy(t, "/dev/outbox", "203.0.113.7")).status, 404);
      const rfc = await t.call("GET", "/dev/outbox", {
        headers: { forwarded: "for=203.0.113.7" },
        address: "127.0.0.1",
      });
      assert.equal(rfc.status, 404);
      assert.equal((await t.call("GET", "/dev/outbox", { address: "127.0.0.1" })).status, 200, "curl on the box");
    });
    // A list of the proxies' addresses: the same.
    await withTrust("127.0.0.1, 10.0.0.2", async () => {
      assert.equal((await viaProxy(t, "/dev/outbox", "203.0.113.7", "127.0.0.1")).status, 404);
      assert.equal((await t.call("GET", "/dev/outbox", { address: "127.0.0.1" })).status, 404);
    });
  } finally {
    t.close();
  }
});

Deno.test("proxy address - /metrics without its token: a spoofed loopback through the proxy gets 404", async () => {
  const t = await testApp();
  try {
    await withTrust("1", async () => {
      assert.equal((await viaProxy(t, "/metrics", "203.0.113.7", "127.0.0.1")).status, 404);
      assert.equal((await t.call("GET", "/metrics", { address: "127.0.0.1" })).status, 404);
      assert.equal((await viaProxy(t, "/metrics", "127.0.0.1")).status, 200);
    });
  } finally {
    t.close();
  }
});

Deno.test("proxy address - a direct caller's forged 'X-Forwarded-For: 127.0.0.1' gets 404 on /dev/outbox and /metrics, under a count and under a list", async () => {
  const t = await testApp();
  try {
    await t.registerAndGetToken("victim@example.com");
    const direct = (path: string, address: string, xff?: string) =>
      t.call("GET", path, { address, headers: xff ? { "x-forwarded-for": xff } : {} });
    for (const trust of ["1", "2", "10.0.0.2", "127.0.0.1, 10.0.0.2"]) {
      await withTrust(trust, async () => {
        for (const path of ["/dev/outbox", "/metrics"]) {
          for (const forged of ["127.0.0.1", "::1", "203.0.113.9, 127.0.0.1", "127.0.0.1, 127.0.0.1"]) {
            const r = await direct(path, "203.0.113.7", forged);
            assert.equal(r.status, 404, `TRUST_PROXY=${trust}, ${path} from 203.0.113.7 claiming ${forged}`);
            assert.doesNotMatch(r.text, /#token=|http_requests_total/);
          }
        }
      });
    }
    // A trusted proxy on another host that names this machine's loopback is not this machine either:
    // the connection itself must be local.
    await withTrust("10.0.0.2", async () => {
      assert.equal((await direct("/dev/outbox", "10.0.0.2", "127.0.0.1")).status, 404);
      assert.equal((await direct("/metrics", "10.0.0.2", "127.0.0.1")).status, 404);
    });
    // A proxy on this host, listed by its loopback address, that names a local client: served.
    await withTrust("127.0.0.2", async () => {
      assert.equal((await direct("/dev/outbox", "127.0.0.2", "127.0.0.1")).status, 200);
      assert.equal((await direct("/metrics", "127.0.0.2", "127.0.0.1")).status, 200);
      // Another local connection that is not the listed proxy: its header is not believed, and as a
      // connection that forwarded for someone it is not this machine.
      assert.equal((await direct("/dev/outbox", "127.0.0.3", "127.0.0.1")).status, 404);
    });
  } finally {
    t.close();
  }
});

Deno.test("proxy address - under a list, only the listed proxies' forwarded headers are believed", async () => {
  const t = await testApp();
  try {
    await withTrust("10.0.0.2", async () => {
      // The request id a proxy passes on is kept from a listed proxy, not from a direct caller.
      const fromProxy = await t.call("GET", "/api/health", {
        address: "10.0.0.2",
        headers: { "x-forwarded-for": "203.0.113.7", "x-request-id": "proxy-id-1" },
      });
      assert.equal(fromProxy.headers.get("x-request-id"), "proxy-id-1");
      const direct = await t.call("GET", "/api/health", {
        address: "203.0.113.7",
        headers: { "x-forwarded-for": "10.0.0.9", "x-request-id": "forged-id-1" },
      });
      assert.notEqual(direct.headers.get("x-request-id"), "forged-id-1");
    });
  } finally {
    t.close();
  }
});

Deno.test("proxy address - TRUST_PROXY with the main port bound beyond loopback is warned of at start", () => {
  const hops = { hops: 1 };
  const loopbackList = { addresses: new Set(["127.0.0.1"]) };
  const remoteList = { addresses: new Set(["10.0.0.2", "10.0.0.3"]) };
  assert.match(proxyExposureWarning("0.0.0.0", hops) ?? "", /HOST=127\.0\.0\.1/);
  assert.match(proxyExposureWarning("10.0.0.5", hops) ?? "", /reachable only from the proxies/);
  assert.match(proxyExposureWarning("::", loopbackList) ?? "", /bind HOST=127\.0\.0\.1/);
  assert.equal(proxyExposureWarning("127.0.0.1", hops), null);
  assert.equal(proxyExposureWarning("::1", loopbackList), null);
  assert.equal(proxyExposureWarning("localhost", hops), null);
  assert.equal(proxyExposureWarning("0.0.0.0", null), null, "no proxy trusted: nothing forwarded is believed");
  assert.equal(proxyExposureWarning("0.0.0.0", remoteList), null, "proxies elsewhere must reach the port");
});

Deno.test("proxy address - rotating the sent X-Forwarded-For does not escape the per-address limit", async () => {
  const t = await testApp();
  try {
    t.alignClock(LIMITS.loginLinkByAddress.windowMs);
    const statuses = await withTrust("1", async () => {
      const out: number[] = [];
      for (let i = 0; i <= LIMITS.loginLinkByAddress.max; i++) {
        const r = await viaProxy(t, "/api/auth", "203.0.113.7", `198.51.100.${i}`, {
          method: "POST",
          form: { token: `not-a-token-${i}` },
        });
        out.push(r.status);
      }
      return out;
    });
    assert.deepEqual(statuses.slice(0, -1).filter((s) => s !== 401), [], "bad links within the limit: 401");
    assert.equal(statuses.at(-1), 429, "one past the limit of the one real address: refused");
  } finally {
    t.close();
  }
});

Deno.test("proxy address - read from the right, by hops or by the proxies' addresses", () => {
  const hops = (n: number) => ({ hops: n });
  const list = (...a: string[]) => ({ addresses: new Set(a) });
  const cases: [string, string | undefined, Parameters<typeof resolveClient>[2], string, boolean][] = [
    // peer, X-Forwarded-For, trust, client, this machine
    ["203.0.113.7", undefined, null, "203.0.113.7", false],
    ["127.0.0.1", undefined, null, "127.0.0.1", true],
    ["127.0.0.1", "203.0.113.7", null, "127.0.0.1", false],
    ["127.0.0.1", "127.0.0.1, 203.0.113.7", hops(1), "203.0.113.7", false],
    ["127.0.0.1", "9.9.9.9,203.0.113.7 , 10.0.0.2", hops(2), "203.0.113.7", false],
    ["127.0.0.1", "127.0.0.1", hops(1), "127.0.0.1", true],
    ["127.0.0.1", undefined, hops(1), "127.0.0.1", false],
    ["10.0.0.2", "203.0.113.7", hops(2), "203.0.113.7", false],
    ["::ffff:127.0.0.1", "127.0.0.1, 203.0.113.7", list("127.0.0.1"), "203.0.113.7", false],
    ["127.0.0.1", "127.0.0.1, 203.0.113.7, 10.0.0.2", list("127.0.0.1", "10.0.0.2"), "203.0.113.7", false],
    ["127.0.0.1", "10.0.0.2", list("127.0.0.1", "10.0.0.2"), "10.0.0.2", false],
    ["198.51.100.4", "127.0.0.1", list("127.0.0.1"), "198.51.100.4", false],
    ["127.0.0.1", "[2001:db8::1]:4711, 127.0.0.1", list("127.0.0.1"), "2001:db8::1", false],
    ["127.0.0.1", "[::1]:4711", list("127.0.0.1"), "::1", true],
    // A caller that reached the port from elsewhere is never this machine, whatever the chain names.
    ["203.0.113.7", "127.0.0.1", hops(1), "127.0.0.1", false],
    ["203.0.113.7", "::1, 127.0.0.1", hops(2), "::1", false],
    ["10.0.0.2", "127.0.0.1", list("10.0.0.2"), "127.0.0.1", false],
    ["::ffff:127.0.0.2", "127.0.0.1", list("127.0.0.2"), "127.0.0.1", true],
  ];
  for (const [peer, xff, trust, client, local] of cases) {
    const r = resolveClient(peer, xff, trust);
    assert.deepEqual(
      r,
      { address: client, thisMachine: local },
      `${peer} ${xff} ${JSON.stringify(trust, (_, v) => v instanceof Set ? [...v] : v)}`,
    );
  }
});

Deno.test("origin rule - a signed-in write without Origin or Sec-Fetch-Site is refused, whatever its Referer", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const write = (headers: Record<string, string>, cookie = m.cookie) =>
      t.app.request("http://localhost/api/settings/language", {
        method: "PUT",
        headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}), ...headers },
        body: JSON.stringify({ language: "es" }),
      });
    const bare = await write({});
    assert.equal(bare.status, 403);
    assert.equal((await bare.json()).error.code, "forbidden");
    assert.equal((await write({ referer: "https://evil.example/page" })).status, 403);
    assert.equal((await write({ origin: "http://localhost" })).status, 200, "the app's own page");
    assert.equal((await write({ "sec-fetch-site": "same-origin" })).status, 200);
    // Without the session cookie there is nothing ambient to abuse: the call stands on its own (401 here).
    assert.equal((await write({}, "")).status, 401);
  } finally {
    t.close();
  }
});
