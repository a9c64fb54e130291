/**
 * The read path at HTTP speed (issue 14): the app in a subprocess on a seeded local KV file,
 * driven by autocannon, each call beside a bare `Deno.serve` JSON answer (the ceiling) measured in
 * the same run, with the load average. Members call with their own session cookies and addresses
 * (TRUST_PROXY), so the per-account and per-address limits are not what is measured.
 *
 * Run: `deno run -A bench/http.ts [--members 10000] [--seconds 8] [--connections 50]`.
 */

import autocannon from "autocannon";
import { closeKv, kv, openKv } from "../kv/db.ts";
import { keys } from "../kv/keys.ts";
import { type Account, createAccount } from "../kv/accounts.ts";
import { createSession } from "../kv/sessions.ts";
import { importPositions } from "../kv/positions.ts";
import { updateProfile } from "../kv/profiles.ts";
import { mulberry32 as rng } from "../kv/random.ts";

function arg(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && Deno.args[i + 1] ? Deno.args[i + 1] : fallback;
}
const MEMBERS = Number(arg("members", "10000"));
const SECONDS = Number(arg("seconds", "8"));
const CONNECTIONS = Number(arg("connections", "50"));
const VIEWERS = 500;
const HOME = { lat: 40.7, lon: -74.0 };

const dir = await Deno.makeTempDir({ prefix: "http-bench-" });
const path = `${dir}/app.kv`;

// --- seed: members around one city with profiles; viewers with sessions, Pro (no daily like limit)
await openKv(path);
const rand = rng(5);
const ids: string[] = [];
const viewers: { id: string; cookie: string }[] = [];
const old = Date.now() - 3 * 24 * 3_600_000;
for (let i = 0; i < MEMBERS; i++) {
  const viewer = i < VIEWERS;
  const a = (await createAccount({
    email: `h${i}@bench.invalid`,
    name: `Member ${i}`,
    roles: viewer ? ["USER", "PRO"] : ["USER"],
  }))!;
  await kv().set(keys.account(a.id), { ...a, tsCreated: old } satisfies Account);
  await updateProfile(a.defaultProfileId, { birthdate: "1990-05-01", description: "Coffee, hikes and old films." });
  ids.push(a.defaultProfileId);
  if (viewer) {
    viewers.push({ id: a.defaultProfileId, cookie: `sid=${(await createSession(a.id, true, "bench")).token}` });
  }
}
await importPositions(ids.map((id) => ({
  profileId: id,
  lat: HOME.lat + (rand() - 0.5) * 0.3,
  lon: HOME.lon + (rand() - 0.5) * 0.3,
  use: "OVERRIDE" as const,
  hide: false,
})));
closeKv();
console.log(`${MEMBERS.toLocaleString("en-US")} members seeded, ${VIEWERS} viewers with sessions`);

async function spawn(args: string[], env: Record<string, string>, re: RegExp) {
  const child = new Deno.Command(Deno.execPath(), { args, env, stdout: "piped", stderr: "inherit" }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!re.test(out)) {
    const r = await reader.read();
    if (r.done) throw new Error(`ended: ${out}`);
    out += r.value;
  }
  void (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  return { child, port: Number(out.match(re)![1]) };
}

interface Call {
  name: string;
  method?: string;
  path: () => string;
  body?: () => string;
}

async function drive(port: number, call: Call) {
  let n = 0;
  const r = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [{
      setupRequest(req: Record<string, unknown>) {
        const v = viewers[n++ % viewers.length];
        return {
          ...req,
          method: call.method ?? "GET",
          path: call.path(),
          headers: {
            cookie: v.cookie,
            "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
            "content-type": "application/json",
          },
          ...(call.body ? { body: call.body().replace("$VIEWER", v.id) } : {}),
        };
      },
    }],
  });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

const pick = () => ids[VIEWERS + Math.floor(rand() * (ids.length - VIEWERS))];
const CALLS: Call[] = [
  { name: "GET /api/ping", path: () => "/api/ping" },
  { name: "GET /api/profile/{id}", path: () => `/api/profile/${pick()}` },
  {
    name: "PUT /api/profile-like",
    method: "PUT",
    path: () => "/api/profile-like",
    body: () =>
      JSON.stringify({
        likerProfileId: "$VIEWER",
        likedProfileId: pick(),
        likeType: rand() < 0.5 ? "LIKE" : "DISLIKE",
      }),
  },
  { name: "GET /api/profile-briefs/nearest", path: () => "/api/profile-briefs/nearest" },
  {
    name: "GET /api/profile-briefs/by-bounds (800)",
    path: () => `/api/profile-briefs/by-bounds?latMin=40.62&latMax=40.78&lonMin=-74.1&lonMax=-73.9&size=800`,
  },
];

const rows: string[] = [];
try {
  // The ceiling: a bare Deno.serve answering JSON, in a process of its own like the app.
  const bare = await spawn(
    [
      "eval",
      `Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: ({ port }) => console.log("port " + port) }, () => Response.json({ pong: true, ts: Date.now() }));`,
    ],
    {},
    /port (\d+)/,
  );
  const ceiling = await drive(bare.port, { name: "bare Deno.serve JSON (ceiling)", path: () => "/" });
  bare.child.kill("SIGKILL");
  await bare.child.status;
  rows.push(row("bare Deno.serve JSON (ceiling)", ceiling, ceiling.rps));

  const app = await spawn(
    ["run", "-A", new URL("../main.ts", import.meta.url).pathname],
    { PORT: "0", KV_PATH: path, WORKERS: "0", LOG_REQUESTS: "0", TRUST_PROXY: "1", NO_COLOR: "1" },
    /listening on http:\/\/localhost:(\d+)/,
  );
  for (const call of CALLS) {
    await drive(app.port, { ...call }).catch(() => null); // warm up
    rows.push(row(call.name, await drive(app.port, call), ceiling.rps));
  }
  app.child.kill("SIGKILL");
  await app.child.status;

  console.log(`\n| call | c=${CONNECTIONS} requests/s | p50 | p99 | of the ceiling | non-2xx |`);
  console.log("|---|---|---|---|---|---|");
  for (const r of rows) console.log(r);
  const [l1, l5, l15] = Deno.loadavg();
  console.log(
    `\n${
      MEMBERS.toLocaleString("en-US")
    } members, ${SECONDS} s per call, ${navigator.hardwareConcurrency} cores; load average ${l1} ${l5} ${l15}`,
  );
} finally {
  await Deno.remove(dir, { recursive: true });
}

function row(name: string, r: { rps: number; p50: number; p99: number; non2xx: number }, ceiling: number) {
  return `| ${name} | ${Math.round(r.rps).toLocaleString("en-US")} | ${r.p50} ms | ${r.p99} ms | ${
    (100 * r.rps / ceiling).toFixed(0)
  }% | ${r.non2xx} |`;
}
