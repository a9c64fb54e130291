import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { deserialize } from "node:v8";
import { testApp } from "../../tests/api.ts";
import { shiftClock } from "../../kv/clock.ts";
import { flushHealthSpends } from "../../kv/healthSpends.ts";
import { VOLUNTEER_WINDOW_DAYS } from "../../domain/games.ts";
import { runDueJobs } from "../../workers/jobs.ts";
import { handlers } from "../../workers/run.ts";
import { DAY, exchange, MAX_DELAY, type Member, member, report } from "../../tests/fixtures/health.ts";

// The notices' longest random delay shortened (see MAX_DELAY).
Deno.env.set("HEALTH_NOTICE_MAX_DELAY_MS", String(MAX_DELAY));

const HOUR = 3_600_000;

/** One row of the KV file as its operator reads it: key, value, commit order and expiry. */
interface FileRow {
  key: unknown[];
  value: unknown;
  /** The commit's place in the file's commit order (what a versionstamp holds). */
  version: number;
  /** The expiry (ms since the epoch), -1 for none: not visible through the KV API, but in the file. */
  expiry: number;
  /** Key and value as searchable text. */
  text: string;
}

/** Decodes a Deno KV key of the file (the tuple encoding: strings, numbers, booleans, bytes). */
function decodeKey(k: Uint8Array): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  while (i < k.length) {
    const tag = k[i++];
    if (tag === 0x01 || tag === 0x02) {
      const bytes: number[] = [];
      while (i < k.length) {
        if (k[i] === 0x00 && k[i + 1] === 0xff) {
          bytes.push(0);
          i += 2;
        } else if (k[i] === 0x00) {
          i++;
          break;
        } else bytes.push(k[i++]);
      }
      out.push(tag === 0x02 ? new TextDecoder().decode(new Uint8Array(bytes)) : bytes);
    } else if (tag === 0x21) {
      const b = k.slice(i, i + 8);
      i += 8;
      if (b[0] & 0x80) b[0] ^= 0x80;
      else for (let j = 0; j < 8; j++) b[j] ^= 0xff;
      out.push(new DataView(b.buffer).getFloat64(0));
    } else if (tag === 0x26 || tag === 0x27) out.push(tag === 0x27);
    else {
      out.push(`?${tag}`); // no other kind of key part is used by the app
      break;
    }
  }
  return out;
}

/** Every row of the KV file at `path`, read as a copy of it would be: through SQLite, not through KV. */
function readStoreFile(path: string): FileRow[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const rows = db.prepare("SELECT k, v, v_encoding, version, expiration_ms FROM kv").all() as {
      k: Uint8Array;
      v: Uint8Array;
      v_encoding: number;
      version: number;
      expiration_ms: number;
    }[];
    return rows.map((r) => {
      const key = decodeKey(r.k);
      const value = r.v_encoding === 1
        ? deserialize(r.v)
        : r.v_encoding === 2
        ? new DataView(r.v.buffer, r.v.byteOffset, 8).getBigUint64(0, true)
        : r.v;
      const text = JSON.stringify([key, value], (_k, v) => typeof v === "bigint" ? v.toString() : v);
      return { key, value, version: Number(r.version), expiry: Number(r.expiration_ms), text };
    });
  } finally {
    db.close();
  }
}

/** The candidate with the least score; ties go to the first in key order (ids sort as they were made). */
function best<T>(xs: T[], score: (x: T) => number): T {
  let out = xs[0], least = Infinity;
  for (const x of xs) {
    const s = score(x);
    if (s < least) [out, least] = [x, s];
  }
  return out;
}

type NoticeRow = FileRow & { key: [string, number, string]; value: { recipient: string } };

/**
 * The operator's guesses, one set per strategy: for each recipient of a pending notice, which
 * sender told them. It knows the senders (whoever has a monthly count), every member's ids (a
 * profile names its account), and how the code writes (the spans its expiries are set with, the
 * longest delay). Times it reads in values and keys are the server's (the test's shifted clock);
 * expiries are the storage engine's, by the real clock.
 */
function operatorGuesses(rows: FileRow[], maxDelay: number): Map<string, Map<string, string>> {
  const profiles = rows.filter((r) => r.key[0] === "profiles" && r.key.length === 2) as (FileRow & {
    value: { id: string; accountId: string };
  })[];
  const names = new Map(profiles.map((p) => [p.value.id, [p.value.id, p.value.accountId]]));
  const isCount = (r: FileRow) => r.key[0] === "health_month_counts" || r.key[0] === "health_report_counts";
  const senders = [
    ...new Set(rows.filter(isCount).map((r) => [...names.keys()].find((id) => r.key.includes(id))!)),
  ].sort();
  const notices = rows.filter((r) => r.key[0] === "health_pending") as NoticeRow[];
  // Each sender's rows: every row that names them (their profile id or their account id).
  const rowsOf = new Map(senders.map((s) => [s, rows.filter((r) => names.get(s)!.some((n) => r.text.includes(n)))]));
  const versionGap = (s: string, v: number, dir: -1 | 0 | 1) =>
    Math.min(
      ...rowsOf.get(s)!.map((r) => r.version - v).filter((d) => dir === 0 || Math.sign(d) === dir).map(Math.abs),
    );
  // The send time an expiry points at: the code sets expiries these spans after a send (or a day).
  const spans = [35, VOLUNTEER_WINDOW_DAYS + 1, VOLUNTEER_WINDOW_DAYS + 2, 90].map((d) => d * DAY);
  const expiryGap = (s: string, visibleAt: number) =>
    Math.min(
      ...rowsOf.get(s)!.filter((r) => r.expiry >= 0).flatMap((r) =>
        spans.map((span) => Math.abs(r.expiry - span - (visibleAt - maxDelay / 2)))
      ),
    );
  // Times in values (last seen, created, granted...): the one nearest the send a notice points at.
  const timesOf = new Map(senders.map((s) => [
    s,
    rowsOf.get(s)!.flatMap((r) => [...r.text.matchAll(/\b1\d{12}\b/g)].map((m) => Number(m[0]))),
  ]));
  const valueGap = (s: string, visibleAt: number) =>
    Math.min(...timesOf.get(s)!.map((x) => Math.abs(x - (visibleAt - maxDelay / 2))));
  // Rank: the n-th notice in commit order goes with the n-th sender by their count's commit.
  const countCommit = (s: string) => Math.max(...rowsOf.get(s)!.filter(isCount).map((r) => r.version));
  const byCount = [...senders].sort((a, b) => countCommit(a) - countCommit(b));
  const noticesInOrder = [...notices].sort((a, b) => a.version - b.version || a.key[1] - b.key[1]);
  const strategies: Record<string, (n: NoticeRow) => string> = {
    sameCommit: (n) => best(senders, (s) => rowsOf.get(s)!.some((r) => r.version === n.version) ? 0 : 1),
    nearestCommit: (n) => best(senders, (s) => versionGap(s, n.version, 0)),
    lastCommitBefore: (n) => best(senders, (s) => versionGap(s, n.version, -1)),
    firstCommitAfter: (n) => best(senders, (s) => versionGap(s, n.version, 1)),
    expiry: (n) => best(senders, (s) => expiryGap(s, n.key[1])),
    timeInValue: (n) => best(senders, (s) => valueGap(s, n.key[1])),
    rank: (n) => byCount[Math.min(byCount.length - 1, noticesInOrder.indexOf(n))],
  };
  // Expiry rank: for each kind of row every sender has that expires, the n-th notice in commit
  // order goes with the n-th sender by that row's expiry (the test's shifted clock moves no expiry,
  // so the expiries' order is what an operator would use here).
  const expiring = (s: string, kind: unknown) =>
    Math.max(...rowsOf.get(s)!.filter((r) => r.key[0] === kind && r.expiry >= 0).map((r) => r.expiry));
  const kinds = new Set(rows.filter((r) => r.expiry >= 0).map((r) => r.key[0]));
  for (const kind of kinds) {
    if (!senders.every((s) => expiring(s, kind) > -Infinity)) continue;
    const byExpiry = [...senders].sort((a, b) => expiring(a, kind) - expiring(b, kind));
    strategies[`expiryRank ${kind}`] = (n) => byExpiry[Math.min(byExpiry.length - 1, noticesInOrder.indexOf(n))];
  }
  const out = new Map<string, Map<string, string>>();
  for (const [name, guess] of Object.entries(strategies)) {
    out.set(name, new Map(notices.map((n) => [n.value.recipient, guess(n)])));
  }
  return out;
}

/** A random order of 0..n-1. */
function randomOrder(n: number): number[] {
  const out = [...Array(n).keys()];
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

Deno.test("health - an operator reading the KV file (keys, values, commit order, expiries) links senders to recipients no better than chance", async () => {
  const N = 6, TRIALS = Number(Deno.env.get("HEALTH_LINK_TRIALS") ?? 20);
  const right = new Map<string, number>();
  for (let trial = 0; trial < TRIALS; trial++) {
    const dir = await Deno.makeTempDir();
    const t = await testApp({ path: `${dir}/app.kv` });
    try {
      t.alignClock(HOUR);
      const senders: Member[] = [], recipients: Member[] = [];
      for (let i = 0; i < N; i++) senders.push(await member(t));
      for (let i = 0; i < N; i++) recipients.push(await member(t));
      // Every recipient wrote with every sender: their conversations tell nothing of who told whom.
      for (const k of randomOrder(N * N)) await exchange(senders[Math.floor(k / N)], recipients[k % N]);
      await runDueJobs(handlers);
      // Each sender tells their own recipient, in a random order, minutes apart, within the hour.
      const told = new Map<string, string>();
      for (const i of randomOrder(N)) {
        shiftClock(60_000 + Math.floor(Math.random() * 4 * 60_000));
        const r = await report(t, senders[i], [recipients[i].profileId]);
        assert.equal(r.status, 202, r.text);
        told.set(recipients[i].profileId, senders[i].profileId);
      }
      // The top of the hour: the flush writes the counts of the period's senders.
      t.alignClock(HOUR);
      await flushHealthSpends();
      const rows = readStoreFile(`${dir}/app.kv`);
      assert.equal(rows.filter((r) => r.key[0] === "health_pending").length, N, "the notices still wait");
      for (const [strategy, guesses] of operatorGuesses(rows, MAX_DELAY)) {
        const hits = [...guesses].filter(([recipient, sender]) => told.get(recipient) === sender).length;
        right.set(strategy, (right.get(strategy) ?? 0) + hits);
      }
    } finally {
      t.close();
      await Deno.remove(dir, { recursive: true });
    }
  }
  const rates = Object.fromEntries([...right].map(([s, hits]) => [s, hits / (N * TRIALS)]));
  console.log(`links guessed right (chance ${(1 / N).toFixed(3)}):`, rates);
  for (const [strategy, rate] of Object.entries(rates)) {
    assert.ok(rate <= 1 / N + 0.15, `${strategy} links ${(rate * 100).toFixed(0)}% of senders to their recipients`);
  }
});
