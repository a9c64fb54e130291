/**
 * Generated bad input over every API route the app registers (read from the Hono app itself, so
 * a new route is covered without a change here). For each route, fast-check generates at least
 * 200 calls: wrong types, huge and deep JSON, unicode (RTL, zero-width, lone surrogates),
 * `__proto__` / `constructor` keys, NaN / Infinity / -0, odd ids (empty, 10,000 characters, `../`,
 * `%00`), bad Origin and cookies, as anonymous, a member, an admin or a junk session. Every call
 * must answer below 500, within 2 s, and a call answered 4xx must store nothing (every stored key
 * and its versionstamp compared before and after, but rate-limit counts, which exist to count
 * refused calls).
 *
 * Deterministic: a fixed seed (FUZZ_SEED to change it), printed on failure with the call that
 * failed. FUZZ_RUNS sets the runs per route, FUZZ_ROUTE runs only routes whose "METHOD /path"
 * contains it, FUZZ_ALL=1 goes on after a failure to count every failing call.
 */

import assert from "node:assert/strict";
import fc from "fast-check";
import { testApp } from "../api.ts";
import { buildWorld } from "./world.ts";
import { bringUpToDate, clearExpiring, countWrites, kvChanges, kvSnapshot } from "./kit.ts";
import { CALLS } from "./calls.ts";
import { input } from "./inputs.ts";
import { bodyText, describe, freeRequest, mutatedRequest } from "./requests.ts";

const SEED = Number(Deno.env.get("FUZZ_SEED") ?? 20261124);
const RUNS = Number(Deno.env.get("FUZZ_RUNS") ?? 200);
const ONLY = Deno.env.get("FUZZ_ROUTE");
const ALL = Deno.env.get("FUZZ_ALL") === "1";
const DEBUG = Deno.env.get("FUZZ_DEBUG");
const MAX_MS = 2000;
function routeSeed(route: string): number {
  let h = SEED | 0;
  for (const ch of route) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return h | 0;
}

// --- the property

Deno.test("security - generated bad input: every API route answers below 500, within 2 s, and a 4xx stores nothing", async () => {
  const t = await testApp();
  try {
    const w = await buildWorld(t);
    const writes = countWrites(t.kv());
    const routes = [
      ...new Map(
        t.app.routes
          .filter((r) => r.method !== "ALL" && r.path.startsWith("/api/"))
          .map((r) => [`${r.method} ${r.path}`, r] as const),
      ).values(),
    ].filter((r) => !ONLY || `${r.method} ${r.path}`.includes(ONLY));
    assert.ok(ONLY || routes.length >= 60, `only ${routes.length} API routes found`);

    const failures: string[] = [];
    let calls = 0, slowest = 0, slowestCall = "";
    const statuses = new Map<number, number>();
    const t0 = performance.now();
    // The store as the last route's end listed it whole (none before the first route).
    let listed: Map<string, string> | null = null;
    for (const route of routes) {
      const name = `${route.method} ${route.path}`;
      if (DEBUG) console.log(name);
      const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const seed = routeSeed(name);
      // A route may end the session it was called with (logout): each route starts with live ones.
      await w.renewSessions();
      // What an earlier route left to expire on its own would read as a removal during this one.
      await clearExpiring();
      // The last route's whole listing brought up to date with the keys written since (listed whole
      // again where they are not known), as after each call; the route's end lists it whole.
      const snapshot: Map<string, string> = listed ?? await kvSnapshot();
      if (listed) await bringUpToDate(snapshot, writes.touched());
      // The keys written before it are in it.
      else writes.touched();
      let failed = 0;
      const property = fc.asyncProperty(input(route.method, params, name in CALLS), async (i) => {
        const spec = i.fromCall ? await CALLS[name](w, false) : null;
        // The request is never cloned: a teed body waits on its other branch when cancelled.
        const { req, body } = spec
          ? mutatedRequest(route.method, route.path, spec, i, w)
          : freeRequest(route.method, route.path, i, w);
        if (DEBUG === "2") console.log(describe(req, i, "").slice(0, 600));
        const wrote = writes.count;
        const start = performance.now();
        const res = await t.app.request(req);
        // An event stream stays open: its headers are the answer.
        if (res.headers.get("content-type")?.startsWith("text/event-stream")) await res.body?.cancel();
        else await res.arrayBuffer();
        const ms = performance.now() - start;
        calls++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (ms > slowest) [slowest, slowestCall] = [ms, describe(req, i, "")];
        const problems: string[] = [];
        if (res.status >= 500) problems.push(`answered ${res.status}`);
        if (ms > MAX_MS) problems.push(`took ${ms.toFixed(0)} ms`);
        // A call's after is the next call's before; brought up to date only when something was written,
        // by reading the keys written (the whole store listed where they are not known): what that changed
        // is what the call stored.
        const changes = writes.count !== wrote ? await bringUpToDate(snapshot, writes.touched()) : [];
        if (res.status >= 400 && res.status < 500 && changes.length) {
          problems.push(`answered ${res.status} but stored: ${changes.slice(0, 5).join("; ")}`);
        }
        if (problems.length) {
          failed++;
          const sent = bodyText(body);
          const what = `${problems.join(", ")}: ${describe(req, i, sent)}`;
          if (ALL) {
            if (failed <= 3) failures.push(`${name}: ${what}`);
            return true;
          }
          throw new Error(what);
        }
        return true;
      });
      const out = await fc.check(property, { seed, numRuns: RUNS, endOnFailure: true });
      // The write count and its keys are only a hint of when and what to read again: the whole store
      // listed, they must have missed nothing.
      listed = await kvSnapshot();
      assert.deepEqual(kvChanges(snapshot, listed), [], `${name}: a write the count missed`);
      if (out.failed) {
        failures.push(
          `${name}: ${out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance)}\n` +
            `    seed ${SEED}, route seed ${seed}, after ${out.numRuns} runs ` +
            `(replay: FUZZ_SEED=${SEED} FUZZ_ROUTE='${name}' deno test -A tests/security/fuzz_test.ts)`,
        );
      }
      if (ALL && failed) failures.push(`${name}: ${failed} failing calls of ${RUNS}`);
    }
    const secs = (performance.now() - t0) / 1000;
    let keys = 0;
    for await (const _ of t.kv().list({ prefix: [] })) keys++;
    console.log(`${keys} keys stored at the end`);
    console.log(
      `${routes.length} routes × ${RUNS} generated calls = ${calls} calls in ${secs.toFixed(1)} s (seed ${SEED}); ` +
        `statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}; ` +
        `slowest ${slowest.toFixed(0)} ms: ${slowestCall.slice(0, 200)}`,
    );
    assert.ok(calls >= routes.length * RUNS || failures.length > 0, `${calls} calls ran`);
    assert.deepEqual(failures, [], `seed ${SEED}:\n${failures.join("\n")}`);
  } finally {
    t.close();
  }
});
