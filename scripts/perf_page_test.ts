import assert from "node:assert/strict";
import { type NamedRun, parseRun, renderPage } from "./perf_page.ts";

const older = parseRun("2026-01-01-http.json", {
  date: "2026-01-01",
  note: "a past run",
  machine: { cores: 2, memory: null, load: [0.9, 1.1], ceiling: 30000 },
  results: [
    {
      bench: "http",
      metric: "GET /api/ping",
      unit: "req/s",
      value: 1200,
      peer: "bare Deno.serve",
      peerValue: 30000,
      goal: 2500,
      better: "higher",
    },
  ],
});
const newer = parseRun("2026-02-01-all.json", {
  date: "2026-02-01T10:00:00Z",
  machine: { cores: 4, memory: 8192, load: 0.5 },
  results: [
    {
      bench: "http",
      metric: "GET /api/ping",
      unit: "req/s",
      value: 3000,
      peer: "bare Deno.serve",
      peerValue: 30000,
      goal: 2500,
      better: "higher",
    },
    {
      bench: "geo",
      metric: "by-bounds-800 p50 at 100k",
      unit: "µs",
      value: 58,
      peer: "Redis 7",
      peerValue: 625,
      goal: 100,
      better: "lower",
    },
    { bench: "geo", metric: "start at 1M", unit: "s", value: 1.18, better: "lower" },
  ],
});

Deno.test("perf page - a table per bench: goal and whether met, latest figure with its date and load, peer, ratio, trend in date order", () => {
  const page = renderPage([newer, older]).split("\n");
  assert.equal(page[0], "# Performance");
  const geo = page.indexOf("## geo"), http = page.indexOf("## http"), runs = page.indexOf("## Runs");
  assert.ok(geo > 0 && http > geo && runs > http, "benches in name order, runs last");
  assert.ok(
    page.includes(
      "| GET /api/ping | ≥ 2,500 req/s (met) | 3,000 req/s (2026-02-01, load 0.5) | bare Deno.serve: 30,000 req/s | 0.1× | 2026-01-01: 1,200 → 2026-02-01: 3,000 |",
    ),
  );
  assert.ok(
    page.includes(
      "| by-bounds-800 p50 at 100k | ≤ 100 µs (met) | 58 µs (2026-02-01, load 0.5) | Redis 7: 625 µs | 10.8× | 2026-02-01: 58 |",
    ),
  );
  assert.ok(page.includes("| start at 1M | — | 1.18 s (2026-02-01, load 0.5) | — | — | 2026-02-01: 1.18 |"));
  assert.ok(
    page.includes("| 2026-01-01 | 2026-01-01-http.json | 2 | not recorded | 0.9 to 1.1 | 30,000 req/s | a past run |"),
  );
  assert.ok(page.includes("| 2026-02-01 | 2026-02-01-all.json | 4 | 8,192 MiB | 0.5 | — |  |"));
  const row = (prefix: string) => page.findIndex((l, i) => i > runs && l.startsWith(prefix));
  assert.ok(row("| 2026-01-01 |") < row("| 2026-02-01 |"), "runs in date order");
});

Deno.test("perf page - a goal not met says so", () => {
  const run = parseRun("x.json", {
    date: "2026-03-01",
    machine: { cores: 2, memory: null, load: null },
    results: [{ bench: "likes", metric: "likes/s", unit: "req/s", value: 1989, goal: 3000, better: "higher" }],
  });
  assert.ok(
    renderPage([run]).includes("| likes/s | ≥ 3,000 req/s (not met) | 1,989 req/s (2026-03-01, load not recorded) |"),
  );
});

Deno.test("perf page - a file of the wrong shape is named with its field", () => {
  assert.throws(
    () =>
      parseRun("bad.json", {
        date: "2026-01-01",
        machine: { cores: 2 },
        results: [{ bench: "x", metric: "y", unit: "s", value: "1", better: "higher" }],
      }),
    /bad\.json: results\[0\]\.value/,
  );
  assert.throws(() => parseRun("bad.json", { date: "soon", machine: { cores: 2 }, results: [] }), /bad\.json: date/);
});

Deno.test("perf page - a goal missed while the load exceeded the cores is not judged", () => {
  const run: NamedRun = {
    file: "busy.json",
    date: "2026-03-02",
    machine: { cores: 2, memory: null, load: [12, 19] },
    results: [{ bench: "http", metric: "likes/s", unit: "req/s", value: 149, goal: 3000, better: "higher" }],
  };
  assert.ok(renderPage([run]).includes("| likes/s | ≥ 3,000 req/s (not judged: load above the cores) | 149 req/s"));
});
