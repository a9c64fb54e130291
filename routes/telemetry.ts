/**
 * What an operator sees of the running app:
 * - a request id per request (`x-request-id` header, in every error answer and log line), taken
 *   from the proxy's `x-request-id` only with TRUST_PROXY;
 * - the request log: one line per request, text, or JSON with `LOG_FORMAT=json` (time, level,
 *   method, route pattern, status, ms, request id). Both name the route pattern, never the path
 *   itself: a path names members (`/profile/:id`) and places (`/tiles/:z/:x/:y`), and a query may
 *   carry secrets;
 * - Prometheus metrics at `GET /metrics` (prom-client), answered to loopback callers or with
 *   `Authorization: Bearer $METRICS_TOKEN`: requests by route and status with latency histograms,
 *   open event streams, jobs due / running / dead and the oldest due job's age, the position
 *   index's size and sync lag, rate-limit refusals;
 * - OpenTelemetry: with Deno's built-in exporter (`OTEL_DENO=true` and the standard `OTEL_*`
 *   variables) every request's span is named by its route pattern; KV calls (kv/db.ts) and jobs
 *   (workers/jobs.ts) add their own spans. Off unless those variables are set.
 */

import type { Context, MiddlewareHandler } from "hono";
import { Hono } from "hono";
import { trace } from "@opentelemetry/api";
import type { Metric } from "prom-client";
import type { AppEnv } from "./env.ts";
import { fromThisMachine, fromTrustedProxy } from "./middleware.ts";
import { config } from "../config/config.ts";
import { positionStore } from "../kv/positions/mod.ts";
import { jobStats } from "../kv/jobs.ts";
import { firstUse } from "../domain/firstUse.ts";
import { tracingOn } from "../kv/tracing.ts";

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * One route's counts since the start: requests by method and status, and the latency histogram by
 * method. Counted per request by a few additions into arrays (no labels built, hashed or sorted
 * per request, as prom-client's own `inc` and `observe` do); prom-client reads them when /metrics
 * is asked for.
 */
interface RouteCounts {
  /** Requests by `${method} ${status}`. */
  byStatus: Map<string, number>;
  /** Latency by method: bucket counts (not cumulative, the last one past every bound), sum, count. */
  latency: Map<string, { buckets: number[]; sum: number; count: number }>;
}
const countsByRoute = new Map<string, RouteCounts>();

function countRequest(method: string, route: string, status: number, seconds: number): void {
  let r = countsByRoute.get(route);
  if (!r) countsByRoute.set(route, r = { byStatus: new Map(), latency: new Map() });
  const key = method + " " + status;
  r.byStatus.set(key, (r.byStatus.get(key) ?? 0) + 1);
  let l = r.latency.get(method);
  if (!l) r.latency.set(method, l = { buckets: new Array(LATENCY_BUCKETS.length + 1).fill(0), sum: 0, count: 0 });
  let b = 0;
  while (b < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[b]) b++;
  l.buckets[b]++;
  l.sum += seconds;
  l.count++;
}

/** Rate-limit refusals (429) by route pattern since the start, read by /metrics. */
const refusalsByRoute = new Map<string, number>();

/** Open server-sent-event streams (GET /api/events): the stream counts itself in and out; /metrics reads it. */
export const eventStreams = {
  open: 0,
  inc() {
    this.open++;
  },
  dec() {
    this.open--;
  },
};

/**
 * The metrics' registry, made with prom-client at the first `GET /metrics` rather than at every
 * start (domain/firstUse.ts): until then a request is counted into the plain maps above, which the
 * registry's metrics read whenever they are asked for.
 */
const metrics = firstUse(async () => {
  const client = (await import("prom-client")).default;
  const registry = new client.Registry();
  /** `http_requests_total`, read from the counts when asked for. */
  new client.Counter({
    name: "http_requests_total",
    help: "Requests answered, by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [route, r] of countsByRoute) {
        for (const [key, n] of r.byStatus) {
          const space = key.indexOf(" ");
          this.inc({ method: key.slice(0, space), route, status: key.slice(space + 1) }, n);
        }
      }
    },
  });

  /**
   * `http_request_duration_seconds`, a histogram in prom-client's own text (its `le` label first,
   * cumulative buckets, `+Inf`, `_sum` and `_count`), read from the counts when asked for.
   */
  const LATENCY_HELP = "Time to answer a request, by method and route pattern.";
  registry.registerMetric({
    name: "http_request_duration_seconds",
    help: LATENCY_HELP,
    type: "histogram",
    aggregator: "sum",
    get() {
      const name = "http_request_duration_seconds";
      const values: {
        labels: Record<string, string | number>;
        sharedLabels: Record<string, string>;
        value: number;
        metricName: string;
      }[] = [];
      for (const [route, r] of countsByRoute) {
        for (const [method, l] of r.latency) {
          const shared = { method, route };
          let acc = 0;
          LATENCY_BUCKETS.forEach((le, i) => {
            acc += l.buckets[i];
            values.push({ labels: { le }, sharedLabels: shared, value: acc, metricName: `${name}_bucket` });
          });
          values.push({ labels: { le: "+Inf" }, sharedLabels: shared, value: l.count, metricName: `${name}_bucket` });
          values.push({ labels: {}, sharedLabels: shared, value: l.sum, metricName: `${name}_sum` });
          values.push({ labels: {}, sharedLabels: shared, value: l.count, metricName: `${name}_count` });
        }
      }
      return { name, help: LATENCY_HELP, type: "histogram", values, aggregator: "sum" };
    },
  } as unknown as Metric);
  new client.Counter({
    name: "rate_limit_refusals_total",
    help: "Calls refused by a rate limit or a daily limit (429), by route pattern.",
    labelNames: ["route"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [route, n] of refusalsByRoute) this.inc({ route }, n);
    },
  });
  new client.Gauge({
    name: "event_streams_open",
    help: "Server-sent-event streams open on this instance.",
    registers: [registry],
    collect() {
      this.set(eventStreams.open);
    },
  });
  new client.Gauge({
    name: "position_index_members",
    help: "Visible members in this instance's position index.",
    registers: [registry],
    collect() {
      this.set(positionStore().size);
    },
  });
  new client.Gauge({
    name: "position_index_sync_lag_seconds",
    help: "Seconds since the position index last caught up with the change log (-1 before the first load).",
    registers: [registry],
    collect() {
      const { lastTailAt } = positionStore().syncStatus;
      this.set(lastTailAt ? (Date.now() - lastTailAt) / 1000 : -1);
    },
  });
  const jobs = new client.Gauge({
    name: "jobs",
    help: "Background jobs by state: due (waiting to run), running (leased), dead (dead letters).",
    labelNames: ["state"] as const,
    registers: [registry],
    async collect() {
      const s = await jobStats();
      this.set({ state: "due" }, s.due);
      this.set({ state: "running" }, s.running);
      this.set({ state: "dead" }, s.dead);
      oldestDue.set(s.oldestDueAgeMs / 1000);
    },
  });
  const oldestDue = new client.Gauge({
    name: "jobs_oldest_due_age_seconds",
    help: "How long the oldest due job has been waiting (0 when none).",
    registers: [registry],
  });
  void jobs;
  return registry;
});

const REQUEST_ID = /^[\w.-]{8,64}$/;

/** Random bytes drawn 4 KB at a time, 8 to a request id (one draw serves 512 requests). */
const randomPool = new Uint8Array(4096);
let poolAt = randomPool.length;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** A new request id: 16 random hex digits. */
export function newRequestId(): string {
  if (poolAt + 8 > randomPool.length) {
    crypto.getRandomValues(randomPool);
    poolAt = 0;
  }
  const b = randomPool, i = poolAt;
  poolAt += 8;
  return HEX[b[i]] + HEX[b[i + 1]] + HEX[b[i + 2]] + HEX[b[i + 3]] + HEX[b[i + 4]] + HEX[b[i + 5]] + HEX[b[i + 6]] +
    HEX[b[i + 7]];
}

/**
 * The route pattern a request matched ("unmatched" for none), for labels and span names: the one
 * its joined handler named (routes/routeMatches.ts), else the router's (Hono's `routePath` maps
 * every matched handler to its route on each read).
 */
function routeOf(c: Context<AppEnv>): string {
  const path = c.get("route") ?? c.req.routePath;
  return !path || path === "/*" || path === "*" ? "unmatched" : path;
}

/**
 * Whether Deno's OpenTelemetry export is on (`OTEL_DENO=true`), read once: only then is there a
 * request span to name. Off, asking the API for the active span costs a lookup of its global
 * on every request for nothing.
 */
const TRACING = tracingOn();

/** Request id, log line, metrics and span name of every request. */
export function requestTelemetry(): MiddlewareHandler<AppEnv> {
  return async function requestTelemetry(c, next) {
    const t = beginRequest(c);
    try {
      await next();
    } finally {
      endRequest(c, t);
    }
  };
}

/**
 * The start of a request's telemetry: its id (the trusted proxy's, else a new one) in
 * `c.var.requestId`; returns the time it began, for `endRequest`.
 */
export function beginRequest(c: Context<AppEnv>): number {
  const t = performance.now();
  const given = fromTrustedProxy(c) ? c.req.header("x-request-id") : undefined;
  c.set("requestId", given && REQUEST_ID.test(given) ? given : newRequestId());
  return t;
}

/** The end of a request's telemetry (its answer made): the id's header, metrics, span name and log line. */
export function endRequest(c: Context<AppEnv>, began: number): void {
  const ms = performance.now() - began;
  const id = c.get("requestId");
  const route = routeOf(c);
  const method = c.req.method;
  const status = c.res.status;
  c.res.headers.set("x-request-id", id);
  countRequest(method, route, status, ms / 1000);
  if (status === 429) refusalsByRoute.set(route, (refusalsByRoute.get(route) ?? 0) + 1);
  const span = TRACING ? trace.getActiveSpan() : undefined;
  if (span) {
    span.updateName(`${method} ${route}`);
    span.setAttribute("http.route", route);
    span.setAttribute("app.request_id", id);
  }
  if (config.logRequests) logRequest({ method, route, status, ms, requestId: id });
}

/** One request's log line: text by default, JSON with LOG_FORMAT=json. */
function logRequest(r: { method: string; route: string; status: number; ms: number; requestId: string }) {
  if (config.logFormat === "json") {
    const level = r.status >= 500 ? "error" : r.status >= 400 ? "warn" : "info";
    console.log(JSON.stringify({
      time: new Date().toISOString(),
      level,
      method: r.method,
      route: r.route,
      status: r.status,
      ms: Math.round(r.ms * 10) / 10,
      requestId: r.requestId,
    }));
  } else {
    console.log(`${r.method} ${r.route} ${r.status} ${r.ms.toFixed(1)}ms ${r.requestId}`);
  }
}

/**
 * `GET /metrics` in Prometheus text format: to loopback callers (a sidecar, `curl` on the box)
 * or with the bearer token METRICS_TOKEN; anyone else gets 404, as if it were not there.
 */
export function metricsRoute() {
  return new Hono<AppEnv>().get("/metrics", async (c) => {
    const token = config.metricsToken;
    const bearer = c.req.header("authorization")?.match(/^Bearer (.+)$/)?.[1];
    const allowed = token ? bearer === token : fromThisMachine(c);
    if (!allowed) return c.notFound();
    const registry = await metrics.load();
    c.header("content-type", registry.contentType);
    c.header("cache-control", "no-store");
    return c.body(await registry.metrics());
  });
}
