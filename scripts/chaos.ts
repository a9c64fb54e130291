/**
 * `deno task chaos [--rounds 5] [--writes 500]`: crash durability. Each round starts the real
 * server as a subprocess on a fresh local KV file, registers members through the API (login links
 * from the dev outbox), fires a burst of concurrent likes and messages, kills the server with
 * SIGKILL mid-burst (a third of the likes change a like made before, moving it from one type's
 * indexes to the other's), restarts it on the same file and checks:
 *
 * - every acknowledged (2xx) write is there, read back through the restarted server's API;
 * - every like record has its indexes and every index entry its record; role counts (Deno.KvU64
 *   sums) equal their indexes; every message has both sides of its conversation.
 *
 * Prints one line per round and exits 1 if anything is missing. tests/security/crash_test.ts runs
 * one short round in `deno task test`.
 */

import { keys } from "../kv/keys.ts";
import { mulberry32 } from "../kv/random.ts";
import { ACKNOWLEDGEMENTS } from "../domain/texts.ts";

const ROOT = new URL("../", import.meta.url).pathname;

export interface ChaosOptions {
  /** Writes in the burst: half likes, half messages. */
  writes: number;
  /** Seed of the burst's order and of the moment of the kill. */
  seed?: number;
  log?: (line: string) => void;
}

/** The outcome of one round. */
export interface RoundResult {
  members: number;
  writes: number;
  /** Answered 2xx before the kill. */
  acked: number;
  /** Answered with another status (e.g. a limit). */
  refused: number;
  /** Sent but not answered: in flight when the server died. */
  unanswered: number;
  /** Acknowledged writes not found after the restart. */
  missing: string[];
  /** Counters that differ from their records, records without their indexes, and the reverse. */
  inconsistent: string[];
  restartMs: number;
  ms: number;
}

/** A server subprocess on a KV file. */
export interface Server {
  origin: string;
  child: Deno.ChildProcess;
  logs: Promise<void>;
}

export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/**
 * The server (`main.ts`) on `kvPath`, its output appended to `logPath`; `env` adds to or overrides
 * its settings. A free port can be taken by another process between asking for it and listening:
 * a server that could not listen for that is started again on another port (three tries).
 */
export async function startServer(
  kvPath: string,
  port: number,
  logPath: string,
  env: Record<string, string> = {},
): Promise<Server> {
  for (let tries = 1;; tries++) {
    const server = await spawnServer(kvPath, port, logPath, env);
    if (server) return server;
    if (tries === 3) throw new Error(`the server found no free port in ${tries} tries: see ${logPath}`);
    port = freePort();
  }
}

/** One start of the server on `port`: null when it exited because the port was taken. */
async function spawnServer(
  kvPath: string,
  port: number,
  logPath: string,
  env: Record<string, string>,
): Promise<Server | null> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: ROOT,
    env: {
      KV_PATH: kvPath,
      PORT: String(port),
      // One process: the chaos run kills and restarts it as a whole.
      WEB_INSTANCES: "1",
      // Members register from addresses of their own (X-Forwarded-For), as behind a proxy.
      TRUST_PROXY: "1",
      WORKERS: "1",
      LOG_REQUESTS: "0",
      DEV_OUTBOX_PRINT: "0",
      KV_URL: "",
      SMTP_URL: "",
      PUBLIC_ORIGIN: "",
      ADMIN_EMAILS: "",
      ...env,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const log = await Deno.open(logPath, { write: true, create: true, append: true });
  const out = child.stdout.pipeTo(new WritableStream({ write: (b) => void log.writeSync(b) }));
  const err = child.stderr.pipeTo(new WritableStream({ write: (b) => void log.writeSync(b) }));
  const logs = Promise.allSettled([out, err]).then(() => log.close());
  const origin = `http://127.0.0.1:${port}`;
  const t = performance.now();
  let exited: Deno.CommandStatus | undefined;
  void child.status.then((status) => exited = status);
  for (;;) {
    if (exited) {
      await logs;
      if (/AddrInUse/.test(await Deno.readTextFile(logPath))) return null;
      throw new Error(`the server exited with code ${exited.code} before answering: see ${logPath}`);
    }
    try {
      const r = await fetch(`${origin}/api/ping`);
      await r.body?.cancel();
      if (r.ok) break;
    } catch { /* not listening yet */ }
    if (performance.now() - t > 30_000) {
      child.kill("SIGKILL");
      await child.status;
      await logs;
      throw new Error(`the server did not start: see ${logPath}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { origin, child, logs };
}

export async function kill(server: Server): Promise<void> {
  try {
    server.child.kill("SIGKILL");
  } catch { /* already gone */ }
  await server.child.status;
  await server.logs;
}

/** One call; the body read whole (JSON when it is). */
export async function call(
  client: Deno.HttpClient,
  origin: string,
  method: string,
  path: string,
  init: { cookie?: string; json?: unknown; form?: Record<string, string>; address?: string } = {},
): Promise<{ status: number; data: unknown; text: string; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (init.cookie) headers.cookie = init.cookie;
  // As the members' browsers do on every write.
  if (method !== "GET") headers.origin = origin;
  if (init.address) headers["x-forwarded-for"] = init.address;
  let body: BodyInit | undefined;
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  } else if (init.form) {
    body = new URLSearchParams(init.form);
  }
  // `client` is Deno's extension of RequestInit (the dom lib's type does not list it).
  const res = await fetch(origin + path, { method, headers, body, client } as RequestInit);
  const text = await res.text();
  let data: unknown = text;
  try {
    data = JSON.parse(text);
  } catch { /* not JSON */ }
  return { status: res.status, data, text, headers: res.headers };
}

export interface Member {
  email: string;
  address: string;
  cookie: string;
  profileId: string;
}

/** Registers `n` members through the API and logs each in with the link from the dev outbox. */
export async function registerMembers(
  client: Deno.HttpClient,
  origin: string,
  n: number,
  tag: string,
): Promise<Member[]> {
  const acks = ACKNOWLEDGEMENTS.map((a) => a.text);
  const wanted = Array.from({ length: n }, (_, i) => ({
    email: `chaos-${tag}-${i}@example.com`,
    address: `10.77.${i >> 8}.${(i & 255) + 1}`,
  }));
  await Promise.all(wanted.map(async (w) => {
    const r = await call(client, origin, "POST", "/api/auth/register", {
      json: { email: w.email, acknowledgements: acks },
      address: w.address,
    });
    if (r.status !== 202) throw new Error(`register ${w.email}: ${r.status} ${r.text}`);
  }));
  // The workers mail the links; the dev outbox (this machine only) lists them.
  const tokens = new Map<string, string>();
  const emails = new Set(wanted.map((w) => w.email));
  const t = performance.now();
  while (tokens.size < n) {
    if (performance.now() - t > 30_000) throw new Error(`only ${tokens.size} of ${n} login links arrived`);
    await new Promise((r) => setTimeout(r, 100));
    // Through the stand-in proxy as someone on this machine (TRUST_PROXY=1 believes the one hop).
    const page = await call(client, origin, "GET", "/dev/outbox", { address: "127.0.0.1" });
    for (const item of page.text.split("<li").slice(1)) {
      const email = item.match(/chaos-[\w-]+@example\.com/)?.[0];
      const token = item.match(/#token=([A-Za-z0-9_-]+)/)?.[1];
      if (email && token && emails.has(email)) tokens.set(email, token);
    }
  }
  return await Promise.all(wanted.map(async (w) => {
    const r = await call(client, origin, "POST", "/api/auth", {
      form: { token: tokens.get(w.email)! },
      address: w.address,
    });
    if (r.status !== 200) throw new Error(`login ${w.email}: ${r.status} ${r.text}`);
    const sid = r.headers.get("set-cookie")?.match(/((?:__Host-)?sid)=([^;]+)/);
    if (!sid) throw new Error(`no session cookie for ${w.email}`);
    return { ...w, cookie: `${sid[1]}=${sid[2]}`, profileId: (r.data as { profileId: string }).profileId };
  }));
}

export type Write =
  | { kind: "like"; from: Member; to: Member; likeType: "LIKE" | "DISLIKE" }
  | { kind: "message"; from: Member; to: Member; text: string };

/** The burst: half likes, half messages, each on a pair of its own, in a seeded order. */
export function planBurst(members: Member[], writes: number, random: () => number, tag: string): Write[] {
  const pairs: [Member, Member][] = [];
  for (const a of members) for (const b of members) if (a !== b) pairs.push([a, b]);
  const shuffle = <T>(xs: T[]) => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [xs[i], xs[j]] = [xs[j], xs[i]];
    }
    return xs;
  };
  const likes = Math.ceil(writes / 2), messages = writes - likes;
  const likePairs = shuffle([...pairs]).slice(0, likes);
  const messagePairs = shuffle([...pairs]).slice(0, messages);
  return shuffle([
    ...likePairs.map(([from, to]): Write => ({
      kind: "like",
      from,
      to,
      likeType: random() < 0.7 ? "LIKE" : "DISLIKE",
    })),
    ...messagePairs.map(([from, to], i): Write => ({ kind: "message", from, to, text: `chaos ${tag} message ${i}` })),
  ]);
}

/** One write of the burst, from its member's own address (as behind a proxy: one client each, not one for all). */
export function send(client: Deno.HttpClient, origin: string, w: Write) {
  return w.kind === "like"
    ? call(client, origin, "PUT", "/api/profile-like", {
      cookie: w.from.cookie,
      address: w.from.address,
      json: { likerProfileId: w.from.profileId, likedProfileId: w.to.profileId, likeType: w.likeType },
    })
    : call(client, origin, "POST", "/api/message", {
      cookie: w.from.cookie,
      address: w.from.address,
      json: { senderProfileId: w.from.profileId, recipientProfileId: w.to.profileId, bodyText: w.text },
    });
}

/** Reads an acknowledged write back through the API; a reason when it is not there. */
export async function missingReason(client: Deno.HttpClient, origin: string, w: Write): Promise<string | null> {
  if (w.kind === "like") {
    const q = `likerProfileId=${w.from.profileId}&likedProfileId=${w.to.profileId}`;
    const r = await call(client, origin, "GET", `/api/profile-like?${q}`, { cookie: w.from.cookie });
    const got = (r.data as { likeType?: string }).likeType;
    return r.status === 200 && got === w.likeType
      ? null
      : `like ${w.from.email} -> ${w.to.email} ${w.likeType}: ${r.status} ${got}`;
  }
  const r = await call(client, origin, "GET", `/api/messages/between/${w.from.profileId}/${w.to.profileId}`, {
    cookie: w.from.cookie,
  });
  const items = (r.data as { items?: { bodyText: string }[] }).items ?? [];
  return r.status === 200 && items.some((m) => m.bodyText === w.text)
    ? null
    : `message ${w.from.email} -> ${w.to.email} "${w.text}": ${r.status}, ${items.length} messages`;
}

/** Up to `n` calls at a time. */
export async function inBatches<T, R>(xs: T[], n: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < xs.length; i += n) out.push(...await Promise.all(xs.slice(i, i + n).map(fn)));
  return out;
}

/** `checkConsistency` on the KV file at `path`, opened for the check alone. */
export async function checkStoreFile(path: string): Promise<string[]> {
  const db = await Deno.openKv(path);
  try {
    return await checkConsistency(db);
  } finally {
    db.close();
  }
}

/**
 * Every counter against its records, straight from the KV file: each like's two index entries (and
 * no index entry without its like), role counts against the role index, and both sides of every
 * private message.
 */
export async function checkConsistency(db: Deno.Kv): Promise<string[]> {
  const problems: string[] = [];
  const all = async <T>(prefix: Deno.KvKey) => {
    const out: Deno.KvEntry<T>[] = [];
    for await (const e of db.list<T>({ prefix })) out.push(e);
    return out;
  };
  const u64 = (v: unknown) => v instanceof Deno.KvU64 ? v.value : 0n;
  const compare = (what: string, counted: Map<string, bigint>, stored: Map<string, bigint>) => {
    for (const k of new Set([...counted.keys(), ...stored.keys()])) {
      const [c, s] = [counted.get(k) ?? 0n, stored.get(k) ?? 0n];
      if (c !== s) problems.push(`${what} ${k}: counter ${s}, records ${c}`);
    }
  };
  const bump = (m: Map<string, bigint>, k: string) => m.set(k, (m.get(k) ?? 0n) + 1n);

  // Profile likes.
  type PL = { likerProfileId: string; likedProfileId: string; likeType: string; seq: string };
  const likes = await all<PL>(keys.all("profile_likes"));
  for (const { value: l } of likes) {
    const byLiker = keys.profileLikeByLiker(l.likerProfileId, l.likeType, l.seq, l.likedProfileId);
    const byLiked = keys.profileLikeByLiked(l.likedProfileId, l.likeType, l.seq, l.likerProfileId);
    if (!(await db.get(byLiker)).value) problems.push(`like ${l.likerProfileId}->${l.likedProfileId}: no given index`);
    if (!(await db.get(byLiked)).value) {
      problems.push(`like ${l.likerProfileId}->${l.likedProfileId}: no received index`);
    }
  }
  const likeKey = (liker: string, liked: string) => `${liker}->${liked}`;
  const likeByPair = new Map(likes.map((e) => [likeKey(e.value.likerProfileId, e.value.likedProfileId), e.value]));
  for (const e of await all<PL>(keys.all("profile_likes_by_liked"))) {
    const [, liked, type, seq, liker] = e.key as string[];
    const l = likeByPair.get(likeKey(liker, liked));
    if (!l || l.likeType !== type || l.seq !== seq) problems.push(`stale received index ${e.key.join("/")}`);
  }
  for (const e of await all<PL>(keys.all("profile_likes_by_liker"))) {
    const [, liker, type, seq, liked] = e.key as string[];
    const l = likeByPair.get(likeKey(liker, liked));
    if (!l || l.likeType !== type || l.seq !== seq) problems.push(`stale given index ${e.key.join("/")}`);
  }

  // Roles.
  const roleCounts = new Map<string, bigint>();
  for (const e of await all(keys.all("accounts_by_role"))) bump(roleCounts, String(e.key[1]));
  compare(
    "role count",
    roleCounts,
    new Map((await all(keys.all("role_counts"))).map((e) => [String(e.key[1]), u64(e.value)])),
  );

  // Private messages: both sides of the conversation, and no side without its message.
  type M = { id: string; senderProfileId: string; recipientProfileId?: string };
  const messages = await all<M>(keys.all("messages"));
  const ids = new Set(messages.map((e) => e.value.id));
  for (const { value: m } of messages) {
    if (!m.recipientProfileId) continue;
    for (const [me, other] of [[m.senderProfileId, m.recipientProfileId], [m.recipientProfileId, m.senderProfileId]]) {
      if (!(await db.get(keys.conversationMessage(me, other, m.id))).value) {
        problems.push(`message ${m.id}: not in ${me}'s conversation`);
      }
    }
  }
  for (const e of await all<string>(keys.all("conversations"))) {
    if (!ids.has(e.value)) problems.push(`conversation entry ${e.key.join("/")} without its message`);
  }
  return problems;
}

/** One round: start, register, burst, kill -9 mid-burst, restart, check. */
export async function chaosRound(opts: ChaosOptions): Promise<RoundResult> {
  const t0 = performance.now();
  const seed = opts.seed ?? Date.now();
  const random = mulberry32(seed);
  const tag = seed.toString(36);
  const dir = await Deno.makeTempDir({ prefix: "chaos-" });
  const kvPath = `${dir}/chaos.kv`;
  const logPath = `${dir}/server.log`;
  const client = Deno.createHttpClient({});
  let server: Server | undefined;
  try {
    // Enough members that every write has a pair of its own: n(n-1) >= writes/2.
    const members = Math.ceil((1 + Math.sqrt(1 + 2 * opts.writes)) / 2);
    server = await startServer(kvPath, freePort(), logPath);
    const people = await registerMembers(client, server.origin, members, tag);
    const burst = planBurst(people, opts.writes, random, tag);
    // A third of the liked pairs already have the other type: the burst moves their counts.
    const before = burst.filter((w) => w.kind === "like").filter((_, i) => i % 3 === 0)
      .map((w): Write => ({ ...w, likeType: w.likeType === "LIKE" ? "DISLIKE" : "LIKE" } as Write));
    for (const r of await inBatches(before, 50, (w) => send(client, server!.origin, w))) {
      if (r.status !== 200) throw new Error(`a like before the burst: ${r.status} ${r.text}`);
    }

    // Kill when 30-70 % of the burst has been answered: the rest is in flight.
    const killAt = Math.floor(burst.length * (0.3 + 0.4 * random()));
    let answered = 0;
    const dying = server;
    const outcomes = await Promise.allSettled(burst.map(async (w) => {
      const r = await send(client, dying.origin, w);
      if (++answered === killAt) dying.child.kill("SIGKILL");
      return r.status;
    }));
    await kill(server);
    const acked = burst.filter((_, i) => {
      const o = outcomes[i];
      return o.status === "fulfilled" && o.value >= 200 && o.value < 300;
    });
    const refused = outcomes.filter((o) => o.status === "fulfilled" && (o.value < 200 || o.value >= 300)).length;
    const unanswered = outcomes.filter((o) => o.status === "rejected").length;

    const t1 = performance.now();
    server = await startServer(kvPath, freePort(), logPath);
    const restartMs = performance.now() - t1;
    const missing = (await inBatches(acked, 20, (w) => missingReason(client, server!.origin, w)))
      .filter((m): m is string => m !== null);
    await kill(server);
    server = undefined;

    const inconsistent = await checkStoreFile(kvPath);
    const result: RoundResult = {
      members,
      writes: burst.length,
      acked: acked.length,
      refused,
      unanswered,
      missing,
      inconsistent,
      restartMs,
      ms: performance.now() - t0,
    };
    if (missing.length || inconsistent.length) {
      opts.log?.(`server log: ${logPath}`);
    } else {
      await Deno.remove(dir, { recursive: true });
    }
    return result;
  } finally {
    if (server) await kill(server);
    client.close();
  }
}

/** A round as one line. */
export function describe(n: number, r: RoundResult): string {
  return `round ${n}: ${r.writes} writes by ${r.members} members: ${r.acked} acknowledged, ${r.refused} refused, ` +
    `${r.unanswered} in flight at the kill; after the restart (${r.restartMs.toFixed(0)} ms): ` +
    `${r.missing.length} acknowledged missing, ${r.inconsistent.length} counters or indexes off ` +
    `(${(r.ms / 1000).toFixed(1)} s)`;
}

if (import.meta.main) {
  const arg = (name: string, fallback: number) => {
    const i = Deno.args.indexOf(`--${name}`);
    return i >= 0 ? Number(Deno.args[i + 1]) : fallback;
  };
  const rounds = arg("rounds", 5), writes = arg("writes", 500);
  let failed = false;
  const totals = { writes: 0, acked: 0, unanswered: 0, missing: 0, inconsistent: 0 };
  for (let n = 1; n <= rounds; n++) {
    const r = await chaosRound({ writes, seed: Date.now() + n, log: console.log });
    console.log(describe(n, r));
    for (const m of [...r.missing, ...r.inconsistent].slice(0, 20)) console.log(`  ${m}`);
    failed ||= r.missing.length > 0 || r.inconsistent.length > 0;
    totals.writes += r.writes;
    totals.acked += r.acked;
    totals.unanswered += r.unanswered;
    totals.missing += r.missing.length;
    totals.inconsistent += r.inconsistent.length;
  }
  console.log(
    `${rounds} rounds: ${totals.writes} writes, ${totals.acked} acknowledged, ${totals.unanswered} in flight at kills, ` +
      `${totals.missing} acknowledged missing, ${totals.inconsistent} counters or indexes off`,
  );
  Deno.exit(failed ? 1 : 0);
}
