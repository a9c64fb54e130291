import assert from "node:assert/strict";
import { pause } from "../tests/wait.ts";
import { DatabaseSync } from "node:sqlite";
import { busyStats, isBusy, patientKv, retryBusy } from "./busy.ts";

const LOCKED = () => new TypeError("database is locked");

/** A KV file, and a second SQLite connection to it that can hold its write lock (as another process does). */
async function sharedFile() {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/app.kv`;
  const raw = await Deno.openKv(path);
  await raw.set(["n"], new Deno.KvU64(0n));
  // Deno KV writes its own housekeeping just after it opens a file: taking the lock waits its turn.
  const other = new DatabaseSync(path, { timeout: 10_000 });
  return {
    raw,
    /** Takes the write lock for `ms`. */
    holdLock(ms: number): Promise<void> {
      other.exec("BEGIN IMMEDIATE");
      // sleep-ok: a lock held for a set time is the case tested.
      return pause(ms).then(() => void other.exec("COMMIT"));
    },
    async close() {
      other.close();
      raw.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("busy - a checked commit that meets another connection's write lock fails at once without the wrapper", async () => {
  const f = await sharedFile();
  try {
    const held = f.holdLock(300);
    const entry = await f.raw.get(["n"]);
    await assert.rejects(() => f.raw.atomic().check(entry).sum(["n"], 1n).commit(), /database is locked/);
    await held;
    assert.equal((await f.raw.get<Deno.KvU64>(["n"])).value?.value, 0n, "the failed commit applied nothing");
  } finally {
    await f.close();
  }
});

Deno.test("busy - the same commit through the wrapper waits for the lock and is applied once", async () => {
  const f = await sharedFile();
  try {
    const db = patientKv(f.raw);
    const held = f.holdLock(300);
    const entry = await db.get(["n"]);
    const t = performance.now();
    const res = await db.atomic().check(entry).sum(["n"], 1n).commit();
    assert.equal(res.ok, true);
    assert.ok(performance.now() - t >= 250, "it waited for the lock");
    await held;
    assert.equal((await db.get<Deno.KvU64>(["n"])).value?.value, 1n);
  } finally {
    await f.close();
  }
});

Deno.test("busy - a lock held past the budget: the error is thrown as it was, nothing applied", async () => {
  const f = await sharedFile();
  try {
    const db = patientKv(f.raw, 200);
    const held = f.holdLock(1_000);
    const entry = await db.get(["n"]);
    const gaveUp = busyStats.gaveUp;
    const t = performance.now();
    await assert.rejects(() => db.atomic().check(entry).sum(["n"], 1n).commit(), /database is locked/);
    assert.ok(performance.now() - t < 900, "it gave up near its budget");
    assert.equal(busyStats.gaveUp, gaveUp + 1);
    await held;
    assert.equal((await db.get<Deno.KvU64>(["n"])).value?.value, 0n);
  } finally {
    await f.close();
  }
});

Deno.test("busy - other errors are not retried", async () => {
  let calls = 0;
  await assert.rejects(() =>
    retryBusy("get", () => {
      calls++;
      return Promise.reject(new TypeError("Key too large"));
    }), /Key too large/);
  assert.equal(calls, 1);
  assert.ok(isBusy(LOCKED()));
  assert.ok(!isBusy(new Error("Database is closed.")));
});

Deno.test("busy - a listing whose batch reads meet the lock gives every entry once, in order", async () => {
  const real = await Deno.openKv(":memory:");
  try {
    for (let i = 0; i < 25; i++) await real.set(["l", i], i);
    // A handle whose list iterators fail on some of their reads, leaving their state as it was
    // (as Deno's iterator does when a batch read fails).
    let reads = 0;
    const flaky = new Proxy(real, {
      get(target, prop) {
        if (prop !== "list") return Reflect.get(target, prop, target);
        return (sel: Deno.KvListSelector, opts: Deno.KvListOptions) => {
          const it = target.list(sel, opts);
          return new Proxy(it, {
            get(t, p) {
              if (p === "next") return () => ++reads % 4 === 2 ? Promise.reject(LOCKED()) : t.next();
              if (p === Symbol.asyncIterator) return () => it;
              const v = Reflect.get(t, p, t);
              return typeof v === "function" ? v.bind(t) : v;
            },
          });
        };
      },
    }) as Deno.Kv;
    const seen: number[] = [];
    for await (const e of patientKv(flaky).list<number>({ prefix: ["l"] }, { batchSize: 5 })) seen.push(e.value);
    assert.deepEqual(seen, Array.from({ length: 25 }, (_, i) => i));
    assert.ok(reads > 25, "some reads failed and were made again");
  } finally {
    real.close();
  }
});

Deno.test("busy - a watch stream that fails with the lock is opened again", async () => {
  let opened = 0;
  const fake = {
    watch: () => {
      opened++;
      const n = opened;
      return new ReadableStream({
        pull(ctl) {
          if (n === 1) ctl.error(LOCKED());
          else ctl.enqueue([{ key: ["w"], value: n, versionstamp: "1" }]);
        },
      });
    },
  } as unknown as Deno.Kv;
  const reader = patientKv(fake).watch([["w"]]).getReader();
  const first = await reader.read();
  assert.equal(first.value?.[0].value, 2);
  assert.equal(opened, 2);
  await reader.cancel();
});
