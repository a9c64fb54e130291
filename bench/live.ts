/**
 * The live layer at scale: what an open event stream costs the server, and how fast a
 * message reaches it, with the app's one event bus per instance beside the old way (a `kv.watch`
 * per stream), measured in the same run on the same machine.
 *
 * Phases, each on a fresh local KV file seeded with `--streams` members and their sessions:
 * 1. the app (`main.ts` in a subprocess): RSS idle and with every member's `GET /api/events` open,
 *    as server-sent events and then as WebSockets; messages sent through `POST /api/message` at
 *    `--rate` per second for `--seconds`, each timed from before the call to the event on the
 *    recipient's stream;
 *    then (after the other phases) WebSockets on the live listener (`LIVE_PORT`, routes/live.ts);
 *    each server's RSS is read again once the streams have idled 20 s after the messages
 *    ("settled": what the opening's garbage cost is given back);
 * 2. two instances on one KV file: streams open on B, messages sent through A;
 * 3. the old way: a server (this file with `--serve-old`) whose every stream holds its own
 *    `kv.watch` on the member's inbox key, and a send that writes that key;
 * 4. with `--soak-minutes M`: the app with the streams open and messages flowing for M minutes,
 *    sampling RSS and the event log's size (old events expire) every 30 s.
 *
 * Run: `deno run -A bench/live.ts [--streams 10000] [--rate 100] [--seconds 20] [--soak-minutes 0]`.
 */

import { closeKv, kv, openKv } from "../kv/db.ts";
import { keys } from "../kv/keys.ts";
import { arg, type Member, pct, seedMembers, sleep, spawn, startApp } from "./kit.ts";

// --- the old way's server: a kv.watch per stream (run as a subprocess of this file)
if (Deno.args[0] === "--serve-old") {
  const db = await Deno.openKv(Deno.args[1]);
  const enc = new TextEncoder();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: ({ port }) => console.log(`port ${port}`) },
    async (req) => {
      const url = new URL(req.url);
      const who = url.searchParams.get("m") ?? "";
      if (req.method === "POST") {
        await db.set(["bench_inbox", who], { from: url.searchParams.get("from"), ts: Date.now() });
        return new Response("ok");
      }
      const watch = db.watch([["bench_inbox", who]]);
      const body = watch.pipeThrough(
        new TransformStream<Deno.KvEntryMaybe<unknown>[], Uint8Array>({
          transform(entries, out) {
            const v = entries[0].value as { from: string } | null;
            out.enqueue(
              enc.encode(
                v ? `event: member\ndata: ${JSON.stringify({ from: v.from, to: who })}\n\n` : `event: ready\ndata:\n\n`,
              ),
            );
          },
        }),
      );
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    },
  );
  await server.finished;
  Deno.exit(0);
}

const STREAMS = Number(arg("streams", "10000"));
const RATE = Number(arg("rate", "100"));
const SECONDS = Number(arg("seconds", "20"));
const SOAK_MINUTES = Number(arg("soak-minutes", "0"));
const CROSS_STREAMS = Math.min(STREAMS, 500);
/** How long the streams idle after the messages before the settled RSS is read. */
const SETTLE_MS = 20_000;

/** The server's RSS after `SETTLE_MS` with its streams open and no messages. */
async function settled(pid: number): Promise<number> {
  await sleep(SETTLE_MS);
  return rssKb(pid);
}

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

function rssKb(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(status.match(/VmRSS:\s+(\d+)/)![1]);
}

/** Open event streams, reconnecting when the server ends one; `onEvent` gets each member event. */
class Streams {
  #abort = new AbortController();
  ready = 0;
  onEvent: (e: { from: string; to: string }) => void = () => {};

  open(url: (m: Member) => string, members: Member[], concurrency = 200): Promise<void> {
    let next = 0;
    const all: Promise<void>[] = [];
    return new Promise((resolve) => {
      const launch = () => {
        while (next < members.length && next - this.ready < concurrency) {
          const m = members[next++];
          all.push(this.#run(url(m), m, () => {
            if (this.ready === members.length) resolve();
            launch();
          }));
        }
      };
      launch();
    });
  }

  /** WebSockets instead of server-sent events (`ws://.../api/events`). */
  sockets = false;
  #open = new Set<WebSocket>();

  #runSocket(url: string, m: Member, onReady: () => void): Promise<void> {
    return new Promise((done) => {
      let first = true;
      const connect = () => {
        if (this.#abort.signal.aborted) return done();
        const ws = new WebSocket(url.replace(/^http/, "ws"), { headers: { cookie: m.cookie } } as unknown as string[]);
        this.#open.add(ws);
        ws.onmessage = (msg) => {
          const e = JSON.parse(String(msg.data));
          if (e.event === "ready" && first) {
            first = false;
            this.ready++;
            onReady();
          } else if (e.event === "member" && e.data.type === "message") this.onEvent(e.data);
        };
        ws.onclose = () => {
          this.#open.delete(ws);
          setTimeout(connect, 200);
        };
        ws.onerror = () => {};
      };
      connect();
    });
  }

  async #run(url: string, m: Member, onReady: () => void) {
    if (this.sockets) return this.#runSocket(url, m, onReady);
    const dec = new TextDecoder();
    let first = true;
    while (!this.#abort.signal.aborted) {
      try {
        const res = await fetch(url, { headers: { cookie: m.cookie }, signal: this.#abort.signal });
        let buf = "";
        for await (const chunk of res.body!) {
          buf += dec.decode(chunk, { stream: true });
          let cut;
          while ((cut = buf.indexOf("\n\n")) >= 0) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            if (block.startsWith("event: ready")) {
              if (first) {
                first = false;
                this.ready++;
                onReady();
              }
            } else if (block.startsWith("event: member")) {
              // The data line (an event also carries its id: line, the cursor a reconnect names).
              const data = block.split("\n").find((l) => l.startsWith("data: "))!.slice(6);
              const e = JSON.parse(data);
              if (e.type === undefined || e.type === "message") this.onEvent(e);
            }
          }
        }
      } catch {
        if (this.#abort.signal.aborted) return;
        await sleep(200);
      }
    }
  }

  close() {
    this.#abort.abort();
    for (const ws of this.#open) ws.close();
  }
}

/** Sends `rate` messages a second for `seconds` with `send`, and times each to its event. */
async function deliveries(
  streams: Streams,
  members: Member[],
  rate: number,
  seconds: number,
  send: (from: Member, to: Member) => Promise<void>,
): Promise<{ times: number[]; lost: number }> {
  const sentAt = new Map<string, number>();
  const times: number[] = [];
  streams.onEvent = (e) => {
    const t0 = sentAt.get(`${e.from}>${e.to}`);
    if (t0 !== undefined) {
      times.push(performance.now() - t0);
      sentAt.delete(`${e.from}>${e.to}`);
    }
  };
  const total = rate * seconds;
  const start = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    const to = members[i % members.length],
      from = members[(i * 7 + 1 + Math.floor(i / members.length)) % members.length];
    if (from === to) continue;
    sentAt.set(`${from.profileId}>${to.profileId}`, performance.now());
    pending.push(send(from, to).catch(() => {}));
  }
  await Promise.all(pending);
  await sleep(2000);
  return { times, lost: sentAt.size };
}

const appSend = (origin: string) => async (from: Member, to: Member) => {
  const r = await fetch(`${origin}/api/message`, {
    method: "POST",
    headers: { cookie: from.cookie, origin, "content-type": "application/json" },
    body: JSON.stringify({ senderProfileId: from.profileId, recipientProfileId: to.profileId, bodyText: "hi there" }),
  });
  await r.body?.cancel();
  if (r.status !== 201) throw new Error(`send ${r.status}`);
};

interface Row {
  name: string;
  streams: number;
  idleKb: number;
  openKb: number;
  /** RSS once the open streams have idled `SETTLE_MS` after the messages (the opening's garbage collected). */
  settledKb: number;
  times: number[];
  lost: number;
}
const rows: Row[] = [];

/**
 * One instance's memory and delivery: its RSS idle (after a first request), with the members'
 * streams open at `base` (the app's origin or its live listener), and settled after a run of
 * messages sent through the app; adds the row and leaves the streams open.
 */
async function measureApp(
  app: Awaited<ReturnType<typeof startApp>>,
  base: string,
  sockets: boolean,
  members: Member[],
  name: string,
): Promise<Streams> {
  await (await fetch(`${app.origin}/api/ping`)).body?.cancel();
  await sleep(500);
  const idleKb = rssKb(app.child.pid);
  const streams = new Streams();
  streams.sockets = sockets;
  await streams.open((_) => `${base}/api/events`, members);
  await sleep(2000);
  const openKb = rssKb(app.child.pid);
  const d = await deliveries(streams, members, RATE, SECONDS, appSend(app.origin));
  const settledKb = await settled(app.child.pid);
  rows.push({ name, streams: members.length, idleKb, openKb, settledKb, ...d });
  return streams;
}
const dir = await Deno.makeTempDir({ prefix: "live-bench-" });

try {
  // 1. The app: one event bus per instance.
  {
    const path = `${dir}/app.kv`;
    const members = await seedMembers(path, STREAMS, "live");
    let a = await startApp(path);
    const sse = await measureApp(a, a.origin, false, members, "the app, SSE: one event bus per instance");
    sse.close();
    a.child.kill("SIGKILL");
    await a.child.status;

    // 1b. The same app and bus (a fresh instance: freed memory stays with a process), the streams as WebSockets.
    a = await startApp(path);
    const sockets = await measureApp(
      a,
      a.origin,
      true,
      members,
      "the app, WebSocket: one event bus per instance",
    );

    // 2. Two instances on one KV file: streams on B, sends through A.
    const b = await startApp(path);
    const onB = new Streams();
    const cross = members.slice(0, CROSS_STREAMS);
    await onB.open((_) => `${b.origin}/api/events`, cross);
    const dx = await deliveries(onB, cross, Math.min(RATE, 50), SECONDS, appSend(a.origin));
    rows.push({
      name: "two instances: sent via A, streams on B",
      streams: CROSS_STREAMS,
      idleKb: 0,
      openKb: 0,
      settledKb: 0,
      ...dx,
    });
    onB.close();
    b.child.kill("SIGKILL");
    await b.child.status;

    // 4. Soak: the cost stays flat while events flow and old ones expire.
    if (SOAK_MINUTES > 0) {
      console.log(`\nsoak: ${STREAMS} streams, ${RATE} messages/s for ${SOAK_MINUTES} min`);
      console.log(`| minute | server RSS | event log entries |`);
      console.log(`|---|---|---|`);
      const end = performance.now() + SOAK_MINUTES * 60_000;
      const stop = { now: false };
      const sender = (async () => {
        while (!stop.now) await deliveries(sockets, members, RATE, 10, appSend(a.origin));
      })();
      while (performance.now() < end) {
        await openKv(path);
        let log = 0;
        for await (const _ of kv().list({ prefix: keys.eventLogAll() })) log++;
        closeKv();
        const minute = (SOAK_MINUTES - (end - performance.now()) / 60_000).toFixed(1);
        console.log(`| ${minute} | ${mb(rssKb(a.child.pid))} | ${log} |`);
        await sleep(30_000);
      }
      stop.now = true;
      await sender;
    }
    sockets.close();
    a.child.kill("SIGKILL");
    await a.child.status;

    await sleep(3000);
    // 1c. The same, the sockets on the live listener (LIVE_PORT: node:http and the ws library),
    // once the other phases closed theirs.
    {
      const l = await startApp(path, { LIVE_PORT: "0" });
      const live = await measureApp(l, l.live, true, members, "the app, WebSocket on the live listener (LIVE_PORT)");
      live.close();
      l.child.kill("SIGKILL");
      await l.child.status;
    }
  }

  // 3. The old way: a kv.watch per stream.
  {
    const path = `${dir}/old.kv`;
    const members = Array.from({ length: STREAMS }, (_, i) => ({ profileId: `m${i}`, cookie: "" }));
    const old = await spawn(["run", "-A", new URL(import.meta.url).pathname, "--serve-old", path], {}, /port (\d+)/);
    const origin = `http://127.0.0.1:${old.match[1]}`;
    await (await fetch(`${origin}/events?m=warm`)).body?.cancel();
    await sleep(500);
    const idleKb = rssKb(old.child.pid);
    const streams = new Streams();
    await streams.open((m) => `${origin}/events?m=${m.profileId}`, members);
    await sleep(2000);
    const openKb = rssKb(old.child.pid);
    const d = await deliveries(streams, members, RATE, SECONDS, async (from, to) => {
      const r = await fetch(`${origin}/send?m=${to.profileId}&from=${from.profileId}`, { method: "POST" });
      await r.body?.cancel();
    });
    const settledKb = await settled(old.child.pid);
    rows.push({ name: "the old way: a kv.watch per stream", streams: STREAMS, idleKb, openKb, settledKb, ...d });
    streams.close();
    old.child.kill("SIGKILL");
    await old.child.status;
  }

  console.log(
    `\n| how | streams | server RSS idle → open → settled | per stream open | settled | delivery p50 | p99 | lost |`,
  );
  console.log(`|---|---|---|---|---|---|---|---|`);
  const perStream = (kb: number, r: Row) => `${((kb - r.idleKb) / r.streams).toFixed(1)} KB`;
  for (const r of rows) {
    const per = r.openKb ? `${perStream(r.openKb, r)} | ${perStream(r.settledKb, r)}` : "— | —";
    const rss = r.openKb ? `${mb(r.idleKb)} → ${mb(r.openKb)} → ${mb(r.settledKb)}` : "—";
    console.log(
      `| ${r.name} | ${r.streams} | ${rss} | ${per} | ${pct(r.times, 0.5).toFixed(1)} ms | ${
        pct(r.times, 0.99).toFixed(1)
      } ms | ${r.lost} |`,
    );
  }
  const [l1, l5, l15] = Deno.loadavg();
  console.log(`\n${RATE} messages/s for ${SECONDS} s; ${Deno.build.os}, load average ${l1} ${l5} ${l15}`);
} finally {
  await Deno.remove(dir, { recursive: true });
}
