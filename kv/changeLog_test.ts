import assert from "node:assert/strict";
import { until as waitUntil } from "../tests/wait.ts";
import { ChangeLogTailer } from "./changeLog.ts";
import { keys } from "./keys.ts";

// Any change log will do: these tests use the member event log's keys with plain numbers as entries.
const LOG = keys.eventLogAll(), VERSION = keys.eventsVersion();

/** Appends `n` as one commit's entry; `bump: false` leaves the version key alone, so no watch fires. */
async function append(db: Deno.Kv, n: number, bump = true): Promise<void> {
  const op = db.atomic().set(keys.eventLog(db.commitVersionstamp()), n);
  if (bump) op.sum(VERSION, 1n);
  assert.ok((await op.commit()).ok);
}

/** A tailer of the log on `db` that collects what it applies. */
function collecting(db: Deno.Kv): { tailer: ChangeLogTailer<number>; got: number[] } {
  const got: number[] = [];
  return {
    tailer: new ChangeLogTailer<number>(db, { log: LOG, version: VERSION, apply: (e) => got.push(e.value) }),
    got,
  };
}

/** Waits until `ok()` holds; fails after `ms`. */
function until(ok: () => boolean, what: string, ms = 3000): Promise<unknown> {
  return waitUntil(ok, what, { timeoutMs: ms, everyMs: 10 });
}

/** Two handles on one KV file, standing in for two instances; closed and removed after `fn`. */
async function twoHandles(fn: (one: Deno.Kv, two: Deno.Kv) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  const one = await Deno.openKv(`${dir}/log.kv`), two = await Deno.openKv(`${dir}/log.kv`);
  try {
    await fn(one, two);
  } finally {
    one.close();
    two.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("change log - a write the watch missed is caught by the poll", async () => {
  await twoHandles(async (one, two) => {
    const polling = collecting(two), watchOnly = collecting(two);
    polling.tailer.start(100);
    watchOnly.tailer.start(60_000);
    try {
      // The watch's first value starts a tail of its own: it is over before the entry is written.
      await Promise.all([polling.tailer.watchStarted(), watchOnly.tailer.watchStarted()]);
      await Promise.all([polling.tailer.tail(), watchOnly.tailer.tail()]);
      await append(one, 1, false);
      await until(() => polling.got.length === 1, "the polling tailer");
      assert.deepEqual(polling.got, [1]);
      // The same entry with no watch to announce it and no poll due: still unseen.
      assert.deepEqual(watchOnly.got, []);
    } finally {
      await polling.tailer.stop();
      await watchOnly.tailer.stop();
    }
  });
});

Deno.test("change log - two tailers on one KV each see every entry once, in commit order", async () => {
  await twoHandles(async (one, two) => {
    const a = collecting(one), b = collecting(two);
    a.tailer.start(100);
    b.tailer.start(100);
    try {
      const written = Array.from({ length: 40 }, (_, i) => i + 1);
      for (const n of written) await append(n % 2 ? one : two, n);
      await until(() => a.got.length >= 40 && b.got.length >= 40, "both tailers");
      await Promise.all([a.tailer.tail(), b.tailer.tail()]);
      assert.deepEqual(a.got, written);
      assert.deepEqual(b.got, written);
      assert.equal(a.tailer.cursor, b.tailer.cursor);
    } finally {
      await a.tailer.stop();
      await b.tailer.stop();
    }
  });
});

Deno.test("change log - a tailer restarted from a saved cursor gets exactly the entries after it", async () => {
  const db = await Deno.openKv(":memory:");
  try {
    for (const n of [1, 2, 3]) await append(db, n);
    const first = collecting(db);
    await first.tailer.read();
    assert.deepEqual(first.got, [1, 2, 3]);
    const saved = JSON.stringify(first.tailer.cursor);
    for (const n of [4, 5, 6]) await append(db, n);
    const again = collecting(db);
    again.tailer.cursor = JSON.parse(saved);
    await again.tailer.read();
    assert.deepEqual(again.got, [4, 5, 6]);
    await again.tailer.read();
    assert.deepEqual(again.got, [4, 5, 6], "a second read applies nothing twice");
    // From the log's end: none of what was there, then what comes.
    const fromEnd = collecting(db);
    fromEnd.tailer.cursor = await fromEnd.tailer.end();
    await append(db, 7);
    await fromEnd.tailer.read();
    assert.deepEqual(fromEnd.got, [7]);
  } finally {
    db.close();
  }
});

Deno.test("change log - calls to tail() while one runs coalesce into one more pass", async () => {
  const db = await Deno.openKv(":memory:");
  try {
    let passes = 0;
    const got: number[] = [];
    const tailer: ChangeLogTailer<number> = new ChangeLogTailer<number>(db, {
      log: LOG,
      version: VERSION,
      apply: (e) => got.push(e.value),
      pass: () => (passes++, tailer.read()),
    });
    await append(db, 1);
    await Promise.all([tailer.tail(), tailer.tail(), tailer.tail(), tailer.tail()]);
    assert.equal(passes, 2);
    assert.deepEqual(got, [1]);
    assert.ok(Number.isFinite(tailer.syncedAt));
  } finally {
    db.close();
  }
});

Deno.test("change log - stop() ends the watch and the poll", async () => {
  const db = await Deno.openKv(":memory:");
  try {
    const { tailer, got } = collecting(db);
    // A second tailer, started alike and left following: when it has the entry, the first would too.
    const witness = collecting(db);
    tailer.start(20);
    witness.tailer.start(20);
    assert.ok(tailer.following);
    await append(db, 1);
    await until(() => got.length === 1, "the first entry");
    await tailer.stop();
    assert.equal(tailer.following, false);
    await append(db, 2);
    await until(() => witness.got.length === 2, "the following tailer to apply the second entry (its watch)");
    // One that no watch wakes: only a poll brings it.
    await append(db, 3, false);
    await until(() => witness.got.length === 3, "the following tailer to apply the third entry (its poll)");
    await witness.tailer.stop();
    assert.deepEqual(got, [1], "nothing applied after stop()");
    // A stopped tailer still reads when asked.
    await tailer.tail();
    assert.deepEqual(got, [1, 2, 3]);
  } finally {
    db.close();
  }
});
