/**
 * Member calls on a remote KV: how many round trips to the store each makes (snapshot reads and
 * atomic writes, counted by the KV Connect test server) and how long it takes with the store 0 and
 * `--rtt` (default 5) ms away, beside the same call on a local `:memory:` store. In process, one
 * caller at a time: the figures are latency, not throughput.
 *
 *   deno run -A bench/remote.ts [--rtt 5] [--rounds 15]
 */

import { testApp } from "../tests/api.ts";
import { startKvConnect } from "../scripts/kvConnect.ts";
import { arg, pct } from "./kit.ts";

const RTT = Number(arg("rtt", "5"));
const ROUNDS = Number(arg("rounds", "15"));
const TOKEN = "bench-remote-kv-token";

type App = Awaited<ReturnType<typeof testApp>>;
type Member = Awaited<ReturnType<App["member"]>>;

/** The calls measured: each gets a fresh pair of members' state as a member would have it. */
const CALLS: Record<string, (t: App, a: Member, b: Member, i: number) => Promise<{ status: number }>> = {
  "PUT /api/profile-position": (t, a, _b, i) =>
    t.call("PUT", `/api/profile-position/${a.profileId}`, {
      cookie: a.cookie,
      json: { overrideLat: 33.4484 + i * 1e-4, overrideLon: -112.074, use: "OVERRIDE", hide: false },
    }),
  "GET /api/profile-briefs/nearest": (t, a) => t.call("GET", "/api/profile-briefs/nearest", { cookie: a.cookie }),
  "GET /api/profile/{id}": (t, a, b) => t.call("GET", `/api/profile/${b.profileId}`, { cookie: a.cookie }),
  "PUT /api/profile-like": (t, a, b, i) =>
    t.call("PUT", "/api/profile-like", {
      cookie: a.cookie,
      json: {
        likerProfileId: a.profileId,
        likedProfileId: b.profileId,
        likeType: i % 2 ? "LIKE" : "DISLIKE",
        blocked: false,
        tsCreated: 0,
      },
    }),
  "POST /api/message": (t, a, b, i) =>
    t.call("POST", "/api/message", {
      cookie: a.cookie,
      json: { senderProfileId: a.profileId, recipientProfileId: b.profileId, bodyText: `hello ${i}` },
    }),
};

interface Row {
  call: string;
  trips: number;
  localMs: number;
  remote0Ms: number;
  remoteMs: number;
}

/** Median latency of each call on one store; with a server, the round trips each makes (median). */
async function measure(store: string | undefined, server?: Awaited<ReturnType<typeof startKvConnect>>) {
  const t = await testApp(store ? { path: store } : {});
  const out: Record<string, { ms: number; trips: number }> = {};
  try {
    const a = await t.member(undefined, { address: "10.1.0.1" }),
      b = await t.member(undefined, { address: "10.1.0.2" });
    for (const m of [a, b]) await CALLS["PUT /api/profile-position"](t, m, b, 0);
    for (const [name, call] of Object.entries(CALLS)) {
      const ms: number[] = [], trips: number[] = [];
      for (let i = 1; i <= ROUNDS; i++) {
        const before = server ? server.stats.reads + server.stats.atomics : 0;
        const t0 = performance.now();
        const r = await call(t, a, b, i);
        ms.push(performance.now() - t0);
        if (r.status >= 300) throw new Error(`${name} answered ${r.status}`);
        if (server) trips.push(server.stats.reads + server.stats.atomics - before);
        // Writes grouped in the background (the position index, kept rows) settle between calls.
        await new Promise((r) => setTimeout(r, 20));
      }
      out[name] = { ms: pct(ms, 0.5), trips: pct(trips, 0.5) };
    }
  } finally {
    t.close();
  }
  return out;
}

Deno.env.set("DENO_KV_ACCESS_TOKEN", TOKEN);
const local = await measure(undefined);
const results: Record<number, Awaited<ReturnType<typeof measure>>> = {};
for (const rtt of [0, RTT]) {
  const server = await startKvConnect({ path: ":memory:", token: TOKEN, rttMs: rtt });
  try {
    results[rtt] = await measure(server.urlOf(`bench${rtt}`), server);
  } finally {
    await server.close();
  }
}
const rows: Row[] = Object.keys(CALLS).map((call) => ({
  call,
  trips: results[RTT][call].trips,
  localMs: local[call].ms,
  remote0Ms: results[0][call].ms,
  remoteMs: results[RTT][call].ms,
}));
console.log(
  `| call | round trips to the store | local :memory: p50 | remote, 0 ms added, p50 | remote, ${RTT} ms added, p50 |`,
);
console.log("| --- | --- | --- | --- | --- |");
for (const r of rows) {
  console.log(
    `| ${r.call} | ${r.trips} | ${r.localMs.toFixed(1)} ms | ${r.remote0Ms.toFixed(1)} ms | ${
      r.remoteMs.toFixed(1)
    } ms |`,
  );
}
console.log(`load: ${Deno.loadavg().map((x) => x.toFixed(2)).join(" ")}`);
