import assert from "node:assert/strict";
import { until } from "../tests/wait.ts";
import { kvTest } from "../tests/kv.ts";
import { kv, kvIsRemote, wrapKv } from "./db.ts";
import { wrapCalls } from "./handleProxy.ts";
import { addEvent, EventBus, eventBus, publishEvent } from "./events.ts";
import type { MemberEvent } from "../domain/shapes/events.ts";

/** Resolves with the first `n` events `fn` subscribes to, or rejects after `ms`. */
function collect(bus: EventBus, profileId: string, n: number, ms = 3000): Promise<MemberEvent[]> {
  return new Promise((resolve, reject) => {
    const got: MemberEvent[] = [];
    const timer = setTimeout(() => (stop(), reject(new Error(`got ${JSON.stringify(got)}`))), ms);
    const stop = bus.subscribe(profileId, (e) => {
      got.push(e);
      if (got.length === n) {
        clearTimeout(timer);
        stop();
        resolve(got);
      }
    });
  });
}

kvTest(
  "events - a member's listeners get the events written for them, in commit order, and nobody else's",
  async () => {
    const bus = eventBus();
    await bus.start();
    const mine = collect(bus, "a", 3);
    let others = 0;
    const stop = bus.subscribe("c", () => others++);
    const op = kv().atomic();
    addEvent(op, ["a", "b"], { type: "message", id: "m1", from: "b", to: "a" });
    addEvent(op, ["a"], { type: "notifications" });
    await op.commit();
    await publishEvent(["a"], { type: "read", by: "b", of: "a" });
    assert.deepEqual(await mine, [
      { type: "message", id: "m1", from: "b", to: "a" },
      { type: "notifications" },
      { type: "read", by: "b", of: "a" },
    ]);
    assert.equal(others, 0);
    stop();
    assert.equal(bus.listeners, 0);
    await bus.stop();
  },
);

kvTest(
  "events - an event committed on this instance reaches its listeners at once, long before the poll (a local file: without a watch)",
  async () => {
    const bus = eventBus();
    // A poll once a minute: only the commit itself (or a remote store's watch) can start the tail in time.
    await bus.start(60_000);
    assert.equal(bus.watching, kvIsRemote());
    const arrived = collect(bus, "a", 2, 3000);
    await publishEvent(["a"], { type: "notifications" });
    const op = kv().atomic();
    addEvent(op, ["a"], { type: "read", by: "b", of: "a" });
    await op.commit();
    assert.deepEqual(await arrived, [{ type: "notifications" }, { type: "read", by: "b", of: "a" }]);
    await bus.stop();
  },
);

kvTest(
  "events - on a handle whose store calls are wrapped (tracing, the benches' counter), an atomic with events commits once and reaches its listeners at once",
  async () => {
    let commits = 0;
    wrapKv((db) =>
      wrapCalls(db, {
        call: (name, run) => {
          if (name === "commit") commits++;
          return run();
        },
        list: (it) => it,
      })
    );
    const bus = eventBus();
    await bus.start(60_000);
    const arrived = collect(bus, "a", 1, 3000);
    const op = kv().atomic();
    addEvent(op, ["a"], { type: "read", by: "b", of: "a" });
    assert.equal((await op.commit()).ok, true);
    assert.deepEqual(await arrived, [{ type: "read", by: "b", of: "a" }]);
    assert.equal(commits, 1);
    await bus.stop();
  },
);

kvTest("events - an atomic that does not commit writes no event", async () => {
  const bus = eventBus();
  await bus.start();
  const got: string[] = [];
  const stop = bus.subscribe("a", (e) => got.push(e.type));
  await kv().set(["x"], 1);
  const op = kv().atomic().check({ key: ["x"], versionstamp: null });
  addEvent(op, ["a"], { type: "notifications" });
  assert.equal((await op.commit()).ok, false);
  await publishEvent(["a"], { type: "picture", id: "p" });
  // Events arrive in the order they were written: once the later one is here, the other would be too.
  await until(() => got.includes("picture"), "the event written after");
  assert.deepEqual(got, ["picture"]);
  stop();
  await bus.stop();
});

Deno.test("events - two instances on one KV file: an event written through one reaches the other's listeners", async () => {
  const dir = await Deno.makeTempDir();
  const one = await Deno.openKv(`${dir}/app.kv`), two = await Deno.openKv(`${dir}/app.kv`);
  const busOne = new EventBus(one), busTwo = new EventBus(two);
  try {
    await Promise.all([busOne.start(200), busTwo.start(200)]);
    const arrived = collect(busTwo, "a", 1);
    const t = performance.now();
    const op = one.atomic();
    // addEvent writes through kv(): write the same log entry shape through the first handle.
    op.set(["events_log", one.commitVersionstamp()], {
      ts: 0,
      events: [{ to: ["a"], event: { type: "notifications" } }],
    })
      .sum(["events_version"], 1n);
    await op.commit();
    assert.deepEqual(await arrived, [{ type: "notifications" }]);
    assert.ok(performance.now() - t < 1500, "within the poll");
  } finally {
    await busOne.stop();
    await busTwo.stop();
    one.close();
    two.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("events - a bus whose store closes under it stops following at its next pass: no poll left running", async () => {
  for (const watching of [false, true]) {
    const db = await Deno.openKv(":memory:");
    const bus = new EventBus(db, { watching });
    await bus.start();
    assert.equal(bus.log.following, true);
    db.close();
    await bus.tail();
    assert.equal(bus.log.following, false, watching ? "with a watch" : "polling");
  }
});

Deno.test("events - a bus whose store closes while it starts ends quietly: no rejection reaches the process", async () => {
  const db = await Deno.openKv(":memory:");
  const bus = new EventBus(db);
  const started = bus.start();
  db.close();
  await started;
  // Started again on a closed store: quiet again, and nothing is left following it.
  await bus.start();
  assert.equal(bus.log.following, false);
});
