/**
 * The main port's bind address (HOST) and who may forward, on real servers: a caller that reaches
 * the port from another interface (this machine's non-loopback address, as a remote caller would)
 * and forges `X-Forwarded-For: 127.0.0.1` gets 404 on the pages of this machine under
 * TRUST_PROXY=1; bound to loopback the port is not reachable there at all; with a list, a "proxy"
 * on 127.0.0.2 is believed and a caller on 127.0.0.3 is not. Requests go out from a chosen local
 * address (node:http's `localAddress`), so the server sees each as a different peer.
 */

import { until } from "../wait.ts";
import assert from "node:assert/strict";
import http from "node:http";
import { startInstance } from "../instance.ts";

/** This machine's first non-loopback IPv4 address, if it has one. */
const external = Deno.networkInterfaces().find((i) => i.family === "IPv4" && !i.address.startsWith("127."))?.address;
if (!external) console.log("host_bind_test: no non-loopback IPv4 interface, the remote-caller cases are skipped");

/** A GET from `from` to `host:port`: its status and text, or the connection's error code. */
function get(
  host: string,
  port: number,
  path: string,
  from: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.request({ host, port, path, localAddress: from, headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => text += d);
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    req.setTimeout(5_000, () => req.destroy(new Error("timeout")));
    req.end();
  });
}

const portOf = (origin: string) => Number(new URL(origin).port);

/** The outbox of `app` as read from this machine, until a login link is in it. */
async function awaitLink(host: string, port: number, from: string, xff?: string) {
  return await until(
    async () => {
      const r = await get(host, port, "/dev/outbox", from, xff ? { "x-forwarded-for": xff } : {});
      return "status" in r && /#token=/.test(r.text) ? r : null;
    },
    "a login link in the outbox",
    { everyMs: 100 },
  );
}

async function register(origin: string, email: string) {
  const { ACKNOWLEDGEMENTS } = await import("../../domain/texts.ts");
  const r = await fetch(`${origin}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, acknowledgements: ACKNOWLEDGEMENTS.map((a) => a.text) }),
  });
  await r.body?.cancel();
  assert.equal(r.status, 202);
}

Deno.test({
  name: "host - TRUST_PROXY=1 on every interface: a remote caller's forged loopback gets 404, and start warns",
  ignore: !external,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const app = await startInstance({ TRUST_PROXY: "1", WORKERS: "1" });
    try {
      const port = portOf(app.origin);
      await register(app.origin, "host-a@example.com");
      // The "proxy on this box" names a local client: served (and the link arrived).
      const local = await awaitLink("127.0.0.1", port, "127.0.0.1", "127.0.0.1");
      assert.equal(local.status, 200);
      // Reaching the port on the outside address, claiming to be loopback: not this machine.
      for (const path of ["/dev/outbox", "/metrics"]) {
        for (const forged of ["127.0.0.1", "::1", "198.51.100.1, 127.0.0.1"]) {
          const r = await get(external!, port, path, external!, { "x-forwarded-for": forged });
          assert.ok("status" in r, `reachable on ${external}: ${JSON.stringify(r)}`);
          assert.equal(r.status, 404, `${path} from ${external} claiming ${forged}`);
          assert.doesNotMatch(r.text, /#token=|http_requests_total/);
        }
      }
      assert.match(app.stderr(), /warning: TRUST_PROXY=1 believes the X-Forwarded-For of any caller/);
    } finally {
      await app.stop();
    }
  },
});

Deno.test({
  name:
    "host - HOST=127.0.0.1 with a listed proxy: unreachable from outside; the proxy is believed, another caller is not",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const app = await startInstance({ HOST: "127.0.0.1", TRUST_PROXY: "127.0.0.2", WORKERS: "1" });
    try {
      const port = portOf(app.origin);
      if (external) {
        const outside = await get(external, port, "/api/health", external);
        assert.ok("error" in outside, `bound to loopback, ${external} gets no answer: ${JSON.stringify(outside)}`);
      }
      await register(app.origin, "host-b@example.com");
      // The listed proxy on 127.0.0.2 names a client on this machine: served.
      const viaProxy = await awaitLink("127.0.0.1", port, "127.0.0.2", "127.0.0.1");
      assert.equal(viaProxy.status, 200);
      const metrics = await get("127.0.0.1", port, "/metrics", "127.0.0.2", { "x-forwarded-for": "127.0.0.1" });
      assert.ok("status" in metrics && metrics.status === 200);
      // The proxy names a remote client: 404 on both.
      for (const path of ["/dev/outbox", "/metrics"]) {
        const remote = await get("127.0.0.1", port, path, "127.0.0.2", { "x-forwarded-for": "203.0.113.7" });
        assert.ok("status" in remote && remote.status === 404, `${path} for a remote client via the proxy`);
        // A connection that is not the listed proxy and forges the header: not believed, 404.
        const forged = await get("127.0.0.1", port, path, "127.0.0.3", { "x-forwarded-for": "127.0.0.1" });
        assert.ok("status" in forged && forged.status === 404, `${path} forged from 127.0.0.3`);
      }
      assert.doesNotMatch(app.stderr(), /warning:/, "bound to loopback: nothing to warn of");
    } finally {
      await app.stop();
    }
  },
});
