import assert from "node:assert/strict";
import { until } from "../tests/wait.ts";
import { testApp } from "../tests/api.ts";
import { positionStore } from "../kv/positions/mod.ts";
import { enqueueJobNow } from "../kv/jobs.ts";
import { shiftClock } from "../kv/clock.ts";
import { startInstance } from "../tests/instance.ts";

Deno.test("telemetry - /metrics answers Prometheus text to loopback or the token, 404 to anyone else", async () => {
  const t = await testApp();
  try {
    await positionStore().ready();
    const m = await t.member();
    // The counters are the process's: what these calls add is read against the count before them.
    const served = (text: string, route: string, status: number) =>
      Number(
        text.match(
          new RegExp(`^http_requests_total\\{method="GET",route="${route}",status="${status}"\\} (\\d+)$`, "m"),
        )
          ?.[1] ?? 0,
      );
    const before = (await t.call("GET", "/metrics")).text;
    await t.call("GET", "/api/ping");
    await t.call("GET", `/api/profile/${m.profileId}`, { cookie: m.cookie });
    await t.call("GET", "/api/profile/nope", { cookie: m.cookie });
    const r = await t.call("GET", "/metrics");
    assert.equal(r.status, 200);
    assert.match(r.headers.get("content-type") ?? "", /text\/plain/);
    assert.equal(served(r.text, "/api/ping", 200) - served(before, "/api/ping", 200), 1, "the ping counted once");
    assert.equal(
      served(r.text, "/api/profile/:id", 400) - served(before, "/api/profile/:id", 400),
      1,
      "the bad profile id counted once, under its route pattern",
    );
    for (
      const line of [
        /http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/ping"\}/,
        /event_streams_open 0/,
        /jobs\{state="due"\} \d+/,
        /jobs\{state="dead"\} 0/,
        /jobs_oldest_due_age_seconds \d/,
        /position_index_members 0/,
        /position_index_sync_lag_seconds \d/,
        /rate_limit_refusals_total/,
      ]
    ) assert.match(r.text, line);
    assert.doesNotMatch(r.text, new RegExp(m.profileId), "labels carry route patterns, never ids");
    // Through a proxy (X-Forwarded-For) it is not a loopback caller.
    assert.equal((await t.call("GET", "/metrics", { headers: { "x-forwarded-for": "203.0.113.9" } })).status, 404);
    Deno.env.set("METRICS_TOKEN", "s3cret-token");
    try {
      assert.equal((await t.call("GET", "/metrics")).status, 404, "with a token, the token is needed");
      const ok = await t.call("GET", "/metrics", { headers: { authorization: "Bearer s3cret-token" } });
      assert.equal(ok.status, 200);
    } finally {
      Deno.env.delete("METRICS_TOKEN");
    }
  } finally {
    t.close();
  }
});

Deno.test("telemetry - every answer carries a request id; errors name it; a proxy's id is kept only with TRUST_PROXY", async () => {
  const t = await testApp();
  try {
    const ok = await t.call("GET", "/api/ping");
    assert.match(ok.headers.get("x-request-id") ?? "", /^[\w-]{16}$/);
    const bad = await t.call("GET", "/api/profile/x");
    assert.equal(bad.data.error.requestId, bad.headers.get("x-request-id"));
    const foreign = await t.call("GET", "/api/ping", { headers: { "x-request-id": "from-the-proxy-123" } });
    assert.notEqual(foreign.headers.get("x-request-id"), "from-the-proxy-123");
  } finally {
    t.close();
  }
});

Deno.test("telemetry - /api/health answers; /api/ready needs the index loaded and no job waiting too long", async () => {
  const t = await testApp();
  try {
    assert.deepEqual((await t.call("GET", "/api/health")).data, { ok: true });
    const before = await t.call("GET", "/api/ready");
    assert.deepEqual([before.status, before.data.problems], [503, ["positions: index not loaded"]]);
    await positionStore().ready();
    const ready = await t.call("GET", "/api/ready");
    assert.deepEqual([ready.status, ready.data], [200, { ready: true, problems: [] }]);
    await enqueueJobNow({ type: "test", effectKey: "late", mode: "ok" });
    shiftClock(6 * 60_000);
    const late = await t.call("GET", "/api/ready");
    assert.equal(late.status, 503);
    assert.match(late.data.problems[0], /^jobs: the oldest due job waits 36\d s$/);
  } finally {
    t.close();
  }
});

Deno.test("telemetry - LOG_FORMAT=json logs one JSON object per request, with the route pattern and no query", async () => {
  const t = await testApp();
  const lines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => lines.push(args.join(" "));
  Deno.env.set("LOG_REQUESTS", "1");
  Deno.env.set("LOG_FORMAT", "json");
  try {
    const m = await t.member();
    lines.length = 0;
    const r = await t.call("GET", `/api/profile/${m.profileId}?secret=do-not-log`, { cookie: m.cookie });
    const entry = JSON.parse(lines.find((l) => l.startsWith("{"))!);
    assert.deepEqual(Object.keys(entry).sort(), ["level", "method", "ms", "requestId", "route", "status", "time"]);
    assert.deepEqual([entry.level, entry.method, entry.route, entry.status], ["info", "GET", "/api/profile/:id", 200]);
    assert.equal(entry.requestId, r.headers.get("x-request-id"));
    assert.ok(!lines.join("\n").includes("do-not-log"));
  } finally {
    console.log = log;
    Deno.env.set("LOG_REQUESTS", "0");
    Deno.env.delete("LOG_FORMAT");
    t.close();
  }
});

Deno.test("telemetry - the text log names the route pattern, never a member's id or a map tile's place", async () => {
  const t = await testApp();
  const lines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => lines.push(args.join(" "));
  Deno.env.set("LOG_REQUESTS", "1");
  try {
    const m = await t.member();
    lines.length = 0;
    await t.call("GET", `/api/profile/${m.profileId}`, { cookie: m.cookie });
    await t.call("GET", "/tiles/17/67123/43210", { cookie: m.cookie });
    const text = lines.join("\n");
    assert.match(text, /GET \/api\/profile\/:id 200/);
    assert.match(text, /GET \/tiles\/:z\/:x\/:y /);
    assert.ok(!text.includes(m.profileId), "no member id");
    assert.ok(!text.includes("67123"), "no tile coordinates");
  } finally {
    console.log = log;
    Deno.env.set("LOG_REQUESTS", "0");
    t.close();
  }
});

/** A local OTLP/HTTP receiver: collects the names of the spans it is sent (JSON protocol). */
function otlpReceiver() {
  const spans: string[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    const body = await req.json().catch(() => null);
    if (new URL(req.url).pathname === "/v1/traces" && body) {
      for (const rs of body.resourceSpans ?? []) {
        for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) spans.push(s.name);
      }
    }
    return Response.json({});
  });
  return { spans, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test({
  name: "telemetry - with the standard OTEL_* variables, request, KV and job spans reach an OTLP endpoint",
  sanitizeResources: false,
  async fn() {
    const otlp = otlpReceiver();
    const app = await startInstance({
      OTEL_DENO: "true",
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "200",
      OTEL_SERVICE_NAME: "lambda-test",
    });
    try {
      await (await fetch(`${app.origin}/api/ready`)).body?.cancel();
      await (await fetch(`${app.origin}/api/profile/x`)).body?.cancel();
      const want = ["GET /api/ready", "kv.get", "GET /api/profile/:id"];
      await until(() => want.every((w) => otlp.spans.includes(w)), "the spans exported", { everyMs: 100 })
        .catch(() => {});
      for (const w of want) assert.ok(otlp.spans.includes(w), `span ${w} in ${JSON.stringify(otlp.spans)}`);
    } finally {
      await app.stop();
      await otlp.close();
    }
  },
});
