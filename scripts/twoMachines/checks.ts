/**
 * What `deno task two-machines` and tests/two_machines_test.ts check on the two machines, through
 * nginx with real members (scripts/twoMachines/members.ts): each check throws on a failure, naming
 * it, and returns a line of what it measured. They run in order, each building on the members and
 * sockets of those before it; the last one kills machine A.
 */

import { type Member as BurstMember, missingReason, planBurst, send } from "../chaos.ts";
import { mulberry32 } from "../../kv/random.ts";
import type { Machine, TwoMachines } from "./machines.ts";
import { type Answer, call, LiveSocket, type Member, RefusedSocket, register } from "./members.ts";

/** Live delivery across the machines must take no longer than this. */
export const DELIVERY_MS = 1500;

/** What the checks share: the machines, the members registered so far, the sockets to close. */
export interface Run {
  h: TwoMachines;
  /** Messages each way in the delivery check; writes in the kill check are 12 times this (at most 24, or 60 from 5 on). */
  rounds: number;
  /** A member nginx sends to `machine` (registered until one lands there; the others wait in a pool). */
  memberOn(machine: "A" | "B", admin?: boolean): Promise<Member>;
  /** A and B's first members with their sockets through nginx (made by the first check). */
  pair?: { a: Member; b: Member; sa: LiveSocket; sb: LiveSocket };
  sockets: LiveSocket[];
  /** Every message's delivery time across the machines (ms), from the send to the event on the other machine. */
  deliveries: number[];
  /** The part of each after the sender's answer: the other machine's watch of the event log, its read and the socket. */
  afterAnswer: number[];
}

/**
 * The admin emails both instances are given (`ADMIN_EMAILS`): `memberOn(…, true)` registers these
 * until one lands on the machine asked for. A session lands by its cookie's hash, about even odds
 * a try: with 8, all go to the other machine about once in 256 runs; with 24, about
 * once in 17 million.
 */
const ADMINS = Array.from({ length: 24 }, (_, i) => `two-machines-admin-${i}@example.com`);

function check(ok: unknown, message: string): asserts ok {
  if (!ok) throw new Error(message);
}

/** Asks `probe` until it holds; the milliseconds it took (fails past `withinMs`). */
async function within(probe: () => Promise<boolean>, what: string, withinMs = DELIVERY_MS): Promise<number> {
  const t = performance.now();
  for (;;) {
    if (await probe()) return performance.now() - t;
    check(performance.now() - t < withinMs, `${what}: not within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** `call`, checked: the status wanted and the machine that had to serve it. */
async function expect(
  run: Run,
  who: Member,
  method: string,
  path: string,
  want: { status: number; servedBy?: "A" | "B"; json?: unknown; direct?: Machine },
): Promise<Answer> {
  const r = await call(run.h, who, method, path, { json: want.json, direct: want.direct });
  check(r.status === want.status, `${method} ${path} by ${who.email}: ${r.status} ${r.text}, not ${want.status}`);
  const served = want.servedBy ?? (want.direct ? want.direct.name : who.machine);
  check(r.servedBy === served, `${method} ${path} by ${who.email} was served by ${r.servedBy}, not ${served}`);
  return r;
}

/** Milliseconds, rounded, for a line of figures. */
export const ms = (x: number) => `${Math.round(x)} ms`;

/** Sends a message through nginx and waits for it on `to`'s socket; the delivery time. */
async function deliver(run: Run, from: Member, to: Member, socket: LiveSocket, text: string): Promise<number> {
  const t = performance.now();
  const sent = await expect(run, from, "POST", "/api/message", {
    status: 201,
    json: { senderProfileId: from.profileId, recipientProfileId: to.profileId, bodyText: text },
  });
  const answered = performance.now();
  const got = await socket.event((e) => e.type === "message" && e.id === sent.data.id, DELIVERY_MS * 2);
  check(got, `message ${sent.data.id} (${from.machine} to ${to.machine}) never arrived on ${to.email}'s socket`);
  const took = got.t - t;
  check(took < DELIVERY_MS, `message ${from.machine} to ${to.machine} arrived after ${ms(took)}`);
  run.deliveries.push(took);
  run.afterAnswer.push(got.t - answered);
  return took;
}

/** The `q` quantile of `xs` (NaN when empty). */
export function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}

/** One check: a name for its test step, and a run that throws on a failure and returns what it measured. */
export interface Check {
  name: string;
  run(r: Run): Promise<string>;
}

/** The checks, in order (the last one kills machine A). */
export const CHECKS: Check[] = [
  {
    name: "a message sent by a member on A arrives live on a member on B (and back) within 1.5 s",
    async run(run) {
      // A new member may send 10 messages a minute: each pair carries at most four each way.
      const there: number[] = [], back: number[] = [];
      for (let i = 0; i < run.rounds; i += 4) {
        const a = await run.memberOn("A"), b = await run.memberOn("B");
        const sa = await LiveSocket.open(run.h, a), sb = await LiveSocket.open(run.h, b);
        run.sockets.push(sa, sb);
        check(sa.servedBy === "A" && sb.servedBy === "B", `sockets on ${sa.servedBy} and ${sb.servedBy}, not A and B`);
        run.pair ??= { a, b, sa, sb };
        for (let j = i; j < Math.min(i + 4, run.rounds); j++) {
          there.push(await deliver(run, a, b, sb, `from A, ${j}`));
          back.push(await deliver(run, b, a, sa, `from B, ${j}`));
        }
      }
      return `A→B p50 ${ms(quantile(there, 0.5))} max ${ms(Math.max(...there))}; ` +
        `B→A p50 ${ms(quantile(back, 0.5))} max ${ms(Math.max(...back))} (${run.rounds} each way)`;
    },
  },
  {
    name: "typing on A shows live on B; a read receipt on B shows live on A",
    async run(run) {
      const { a, b, sa, sb } = run.pair!;
      let t = performance.now();
      await expect(run, a, "POST", `/api/typing/${b.profileId}`, { status: 204 });
      const typing = await sb.event((e) => e.type === "typing" && e.from === a.profileId, DELIVERY_MS);
      check(typing, "typing on A never showed on B");
      const typingMs = typing.t - t;
      t = performance.now();
      await expect(run, b, "PUT", `/api/messages/read/${a.profileId}`, { status: 200 });
      const read = await sa.event((e) => e.type === "read" && e.by === b.profileId, DELIVERY_MS);
      check(read, "a read receipt on B never showed on A");
      return `typing ${ms(typingMs)}, read receipt ${ms(read.t - t)}`;
    },
  },
  {
    name: "presence: a member connected on B is online to a member asking A; hidden on B, hidden on A",
    async run(run) {
      const { a, b } = run.pair!;
      const presence = async () =>
        (await expect(run, a, "GET", `/api/presence?ids=${b.profileId}`, { status: 200 })).data[b.profileId];
      const online = await within(async () => (await presence())?.online === true, "B's member online on A");
      await expect(run, b, "PUT", "/api/presence", { status: 200, json: { hidden: true } });
      const hidden = await within(async () => (await presence()) === null, "B's member hidden on A");
      await expect(run, b, "PUT", "/api/presence", { status: 200, json: { hidden: false } });
      return `online after ${ms(online)}, hidden after ${ms(hidden)}`;
    },
  },
  {
    name: "positions: each member's report through their machine is in the other's nearest answer",
    async run(run) {
      const { a, b } = run.pair!;
      for (const [m, lon] of [[a, -112.074], [b, -112.07]] as const) {
        await expect(run, m, "PUT", `/api/profile-position/${m.profileId}`, {
          status: 200,
          json: { overrideLat: 33.4484, overrideLon: lon, use: "OVERRIDE", hide: false },
        });
      }
      const sees = (who: Member, other: Member) => async () =>
        ((await expect(run, who, "GET", "/api/profile-briefs/nearest", { status: 200 })).data.items as {
          profileId: string;
        }[]).some((i) => i.profileId === other.profileId);
      const onB = await within(sees(b, a), "A's member in B's nearest");
      const onA = await within(sees(a, b), "B's member in A's nearest");
      return `A's report in B's nearest after ${ms(onB)}, B's in A's after ${ms(onA)}`;
    },
  },
  {
    name: "a session ended on A is refused on B and its socket there closed within 1.5 s, though B had just served it",
    async run(run) {
      const x = await run.memberOn("A");
      const [, b] = run.h.machines;
      // Another page of the member's holds a socket on B (connected to B itself), and B serves the session.
      const socket = await LiveSocket.open(run.h, x, b);
      run.sockets.push(socket);
      for (let i = 0; i < 3; i++) await expect(run, x, "GET", "/api/settings", { status: 200, direct: b });
      const t = performance.now();
      await expect(run, x, "POST", "/api/auth/logout", { status: 200 });
      const refused = await within(
        async () => (await call(run.h, x, "GET", "/api/settings", { direct: b })).status === 401,
        "the ended session refused on B",
      );
      const closed = await Promise.race([socket.closed, new Promise<null>((r) => setTimeout(r, DELIVERY_MS, null))]);
      check(closed, "the ended session's socket on B stayed open");
      check(closed.code === 1008, `the socket on B closed with ${closed.code}, not 1008`);
      await expect(run, x, "GET", "/api/settings", { status: 401 });
      return `refused on B ${ms(refused)} after the logout on A answered; its socket on B closed ${
        ms(closed.t - t)
      } after the logout was sent`;
    },
  },
  {
    name: "a suspension by an admin on A ends the member's socket and session on B within 1.5 s",
    async run(run) {
      const admin = await run.memberOn("A", true);
      const y = await run.memberOn("B");
      const socket = await LiveSocket.open(run.h, y);
      run.sockets.push(socket);
      check(socket.servedBy === "B", `${y.email}'s socket is on ${socket.servedBy}, not B`);
      await expect(run, y, "GET", "/api/settings", { status: 200 });
      const t = performance.now();
      await expect(run, admin, "POST", `/api/admin/members/${y.profileId}/actions`, {
        status: 201,
        json: { kind: "SUSPENSION", days: 1, reason: "Across the machines" },
      });
      const closed = await Promise.race([socket.closed, new Promise<null>((r) => setTimeout(r, DELIVERY_MS, null))]);
      check(closed, "the suspended member's socket on B stayed open");
      check(closed.code === 1008, `the socket closed with ${closed.code}, not 1008`);
      await within(
        async () => (await call(run.h, y, "GET", "/api/settings")).status === 401,
        "the suspended member's session refused on B",
      );
      return `socket on B closed ${ms(closed.t - t)} after the suspension on A; session refused on B ${
        ms(performance.now() - t)
      } after it`;
    },
  },
  {
    name: "feed caps: a member's 11th socket, on A, replaces their oldest, on B",
    async run(run) {
      const z = await run.memberOn("A");
      const [, b] = run.h.machines;
      const sockets: LiveSocket[] = [];
      for (let i = 0; i < 5; i++) sockets.push(await LiveSocket.open(run.h, z, b));
      for (let i = 0; i < 5; i++) sockets.push(await LiveSocket.open(run.h, z));
      run.sockets.push(...sockets);
      check(sockets.every((s, i) => s.servedBy === (i < 5 ? "B" : "A")), "five sockets on B, then five on A");
      const t = performance.now();
      const eleventh = await LiveSocket.open(run.h, z);
      run.sockets.push(eleventh);
      check(eleventh.servedBy === "A", `the 11th socket is on ${eleventh.servedBy}, not A`);
      const closed = await Promise.race([
        sockets[0].closed,
        new Promise<null>((r) => setTimeout(r, DELIVERY_MS, null)),
      ]);
      check(closed, "the oldest socket, on B, stayed open");
      check(closed.code === 4001, `the oldest socket closed with ${closed.code}, not 4001 (replaced)`);
      check(sockets.slice(1).every((s) => s.open), "the other nine stay open");
      return `the oldest, on B, replaced ${ms(closed.t - t)} after the 11th opened on A`;
    },
  },
  {
    name: "feed caps: an address's sockets are counted over both machines; one full is refused on both",
    async run(run) {
      // Two members behind one address (a household, a carrier's NAT), one on each machine.
      const address = "127.0.99.1";
      const on: Partial<Record<"A" | "B", Member>> = {};
      for (let i = 0; i < 8 && !(on.A && on.B); i++) {
        const m = await register(run.h, `two-machines-shared-${i}@example.com`, address);
        on[m.machine] ??= m;
      }
      const { A: onA, B: onB } = on;
      check(onA && onB, "no member behind the shared address landed on each machine");
      const cap = Number(CHECK_ENV.MAX_FEEDS_PER_ADDRESS);
      const sockets: LiveSocket[] = [];
      for (let i = 0; i < cap; i++) sockets.push(await LiveSocket.open(run.h, i % 2 ? onB : onA));
      run.sockets.push(...sockets);
      check(sockets.every((s, i) => s.servedBy === (i % 2 ? "B" : "A")), "the address's sockets alternate A and B");
      const refused = async (m: Member) => {
        try {
          run.sockets.push(await LiveSocket.open(run.h, m));
          return 0;
        } catch (e) {
          if (e instanceof RefusedSocket) return e.status;
          throw e;
        }
      };
      check(await refused(onA) === 429, `the address's socket ${cap + 1}, on A, was not refused with 429`);
      check(await refused(onB) === 429, `the address's socket ${cap + 1}, on B, was not refused with 429`);
      // One closes on A: the address takes one more, on B.
      await sockets[0].close();
      const freed = await within(async () => await refused(onB) === 0, "a place free again on B", 3_000);
      // Closed, so the address's places are free for the next check (a dead machine's sockets
      // would count until their leases lapse: FEED_LEASE_MS, 75 s).
      await Promise.all(run.sockets.filter((s) => s.member === onA || s.member === onB).map((s) => s.close()));
      return `${cap} sockets of one address over A and B; the next refused on both; ` +
        `one closed on A, B took one ${ms(freed)} later`;
    },
  },
  {
    name: "machine A killed mid-burst: no acknowledged write is lost, its members' sockets reconnect to B",
    async run(run) {
      const { a, b } = run.pair!;
      const [machineA] = run.h.machines;
      const openOnA = run.sockets.filter((s) => s.open);
      // Members of their own (a new member may send 10 messages a minute): two on each machine, three for a longer run.
      const members: Member[] = [];
      for (let i = run.rounds >= 5 ? 3 : 2; i > 0; i--) members.push(await run.memberOn("A"), await run.memberOn("B"));
      const burstOf = (m: Member): BurstMember & { m: Member } => ({ ...m, address: m.localAddress, m });
      // A like and a message on each pair at most.
      const writes = planBurst(members.map(burstOf), run.rounds * 12, mulberry32(42), "two-machines");
      const acked: typeof writes = [];
      const servedBy = { A: 0, B: 0, "?": 0 };
      let failed = 0, killedAt = -1;
      const killAfter = Math.floor(writes.length / 3);
      for (let i = 0; i < writes.length; i += 6) {
        const batch = writes.slice(i, i + 6);
        if (i >= killAfter && killedAt < 0) {
          // Mid-burst: the next batch leaves while A dies.
          killedAt = i;
          void machineA.kill();
        }
        await Promise.all(batch.map(async (w) => {
          const from = (w.from as ReturnType<typeof burstOf>).m;
          try {
            const r = await send(from.client, run.h.front, w);
            if (r.status >= 200 && r.status < 300) {
              acked.push(w);
              servedBy[run.h.machineAt(r.headers.get("x-lambda-upstream"))]++;
            } else failed++;
          } catch {
            failed++;
          }
        }));
      }
      await machineA.child?.status;
      // Every acknowledged write is there, read back through nginx (machine B now serves everyone).
      const missing = (await Promise.all(acked.map((w) => {
        const from = (w.from as ReturnType<typeof burstOf>).m;
        return missingReason(from.client, run.h.front, w);
      }))).filter((x): x is string => x !== null);
      check(missing.length === 0, `acknowledged writes missing after A died:\n${missing.join("\n")}`);
      check(servedBy.A > 0 && servedBy.B > 0, `writes acknowledged by A ${servedBy.A}, by B ${servedBy.B}`);

      // Every socket on A ended with A; those on B stay. Each member of A's sockets connects again
      // through nginx, as their page does, and lands on B.
      const onA = openOnA.filter((s) => s.servedBy === "A"), onB = openOnA.filter((s) => s.servedBy === "B");
      const gone = await Promise.race([
        Promise.all(onA.map((s) => s.closed)),
        new Promise<null>((r) => setTimeout(r, 5_000, null)),
      ]);
      check(gone, `${onA.filter((s) => s.open).length} sockets on the killed machine stayed open`);
      check(onB.every((s) => s.open), "a socket on B closed when A died");
      const t = performance.now();
      const again = await Promise.all([...new Set(onA.map((s) => s.member))].map((m) => LiveSocket.open(run.h, m)));
      run.sockets.push(...again);
      const reconnectMs = performance.now() - t;
      check(again.every((s) => s.servedBy === "B"), `sockets reconnected to ${again.map((s) => s.servedBy)}, not B`);
      const aAgain = again.find((s) => s.member === a);
      check(aAgain, "A's first member had no socket on A");
      // B's member's message reaches it there (both on B now).
      const sent = await expect(run, b, "POST", "/api/message", {
        status: 201,
        servedBy: "B",
        json: { senderProfileId: b.profileId, recipientProfileId: a.profileId, bodyText: "after A died" },
      });
      const got = await aAgain.event((e) => e.type === "message" && e.id === sent.data.id, DELIVERY_MS);
      check(got, "a message never reached the reconnected socket on B");
      return `${writes.length} writes, A killed after ${killedAt}: ${acked.length} acknowledged (A ${servedBy.A}, ` +
        `B ${servedBy.B}), ${failed} refused or cut, 0 missing; ${again.length} members' sockets on A ` +
        `(${onA.length}) reconnected to B in ${ms(reconnectMs)}, ${onB.length} on B stayed open`;
    },
  },
];

/** A new run over `h`: the member pool and sockets, for `CHECKS`. */
export function newRun(h: TwoMachines, rounds: number): Run {
  const pool: Member[] = [];
  let n = 0, admins = 0;
  return {
    h,
    rounds,
    sockets: [],
    deliveries: [],
    afterAnswer: [],
    async memberOn(machine, admin = false) {
      for (;;) {
        if (!admin) {
          const i = pool.findIndex((m) => m.machine === machine);
          if (i >= 0) return pool.splice(i, 1)[0];
        }
        check(n < 40 && admins < ADMINS.length, `no member landed on ${machine} after ${n} registrations`);
        const m = await register(h, admin ? ADMINS[admins++] : `two-machines-${Date.now()}-${n++}@example.com`);
        if (admin && m.machine === machine) return m;
        if (!admin) pool.push(m);
      }
    },
  };
}

/** Closes a run's sockets (those still open). */
export async function closeRun(run: Run): Promise<void> {
  await Promise.all(run.sockets.map((s) => s.close().catch(() => {})));
}

/** The environment both instances get for the checks. */
export const CHECK_ENV: Record<string, string> = { ADMIN_EMAILS: ADMINS.join(","), MAX_FEEDS_PER_ADDRESS: "8" };
