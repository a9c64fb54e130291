import assert from "node:assert/strict";
import { commitsWhile, countCommits, kvTest } from "../tests/kv.ts";
import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { addEvent, eventBus } from "./events.ts";
import { commitGrouped, GROUP_MAX, IN_FLIGHT, keyId, turnWhenBusy } from "./groupCommit.ts";
import type { MemberEvent } from "../domain/shapes/events.ts";

kvTest("group commit - concurrent writes all land, in fewer commits than writes", async () => {
  const n = 40;
  const { result, commits } = await commitsWhile(() =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        commitGrouped([["gc", "row", i]], (op) => {
          op.check({ key: ["gc", "row", i], versionstamp: null })
            .set(["gc", "row", i], i).sum(["gc", "count"], 1n);
        })),
    )
  );
  assert.deepEqual(result, Array(n).fill(true));
  assert.ok(commits < n && commits >= Math.ceil(n / GROUP_MAX), `commits ${commits}`);
  const rows = await Array.fromAsync(kv().list<number>({ prefix: ["gc", "row"] }));
  assert.deepEqual(rows.map((r) => r.value).sort((a, b) => a - b), Array.from({ length: n }, (_, i) => i));
  assert.equal((await kv().get<Deno.KvU64>(["gc", "count"])).value?.value, BigInt(n));
});

kvTest("group commit - independent groups commit at once; a write checking a key in flight waits for it", async () => {
  const db = kv();
  const atomic = db.atomic.bind(db);
  let open = 0, most = 0;
  db.atomic = () => {
    const op = atomic();
    const commit = op.commit.bind(op);
    op.commit = async () => {
      most = Math.max(most, ++open);
      try {
        return await commit();
      } finally {
        open--;
      }
    };
    return op;
  };
  try {
    const key = ["gc", "counter"];
    // Each write reads the counter and checks it: in flight together they would all but one fail.
    const bump = async (): Promise<boolean> => {
      const cur = await kv().get<number>(key);
      return await commitGrouped([key], (op) => op.check(cur).set(key, (cur.value ?? 0) + 1)) || bump();
    };
    const results = await Promise.all([
      ...Array.from({ length: 60 }, (_, i) => commitGrouped([["gc", "free", i]], (op) => op.set(["gc", "free", i], i))),
      ...Array.from({ length: 5 }, bump),
    ]);
    assert.deepEqual(results, Array(65).fill(true));
    assert.equal((await kv().get(key)).value, 5);
    assert.ok(most > 1 && most <= IN_FLIGHT, `at most ${most} commits at once`);
  } finally {
    db.atomic = atomic;
  }
});

kvTest(
  "group commit - after a busy group the next waits one turn of the event loop, and the writes of that turn join it",
  async () => {
    const write = (i: number) => commitGrouped([["gc", "turn", i]], (op) => op.set(["gc", "turn", i], i));
    // Busy: the first write goes alone, the eight made meanwhile as the next group.
    assert.deepEqual(await Promise.all(Array.from({ length: 9 }, (_, i) => write(i))), Array(9).fill(true));
    const { result, commits } = await commitsWhile(async () => {
      let later: Promise<boolean[]> = Promise.resolve([]);
      // Writes made in the event loop's next turn (as the next requests' are)...
      const turn = new Promise<void>((resolve) =>
        setTimeout(() => {
          later = Promise.all([10, 11, 12, 13, 14].map(write));
          resolve();
        }, 0)
      );
      // ...after one made now: it waits for them, and they go as one group.
      const first = write(9);
      await turn;
      return [await first, ...await later];
    });
    assert.deepEqual(result, Array(6).fill(true));
    assert.equal(commits, 1);
    const rows = await Array.fromAsync(kv().list<number>({ prefix: ["gc", "turn"] }));
    assert.deepEqual(rows.map((r) => r.value).sort((a, b) => a - b), Array.from({ length: 15 }, (_, i) => i));
  },
);

kvTest(
  "group commit - a turn to wait for company only while writes are being committed, one for all who ask in it",
  async () => {
    const db = kv();
    const atomic = db.atomic.bind(db);
    // The write's commit held in flight until released.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    db.atomic = () => {
      const op = atomic();
      const commit = op.commit.bind(op);
      op.commit = async () => (await released, await commit());
      return op;
    };
    try {
      assert.equal(turnWhenBusy(), null);
      const committed = commitGrouped([["gc", "busy"]], (op) => op.set(["gc", "busy"], 1));
      const turn = turnWhenBusy();
      assert.ok(turn);
      let over = false;
      void turn.then(() => (over = true));
      for (let i = 0; i < 10; i++) await Promise.resolve();
      // Not over within this turn's steps: a caller that asks in them gets the same wait.
      assert.equal(over, false);
      assert.equal(turnWhenBusy(), turn);
      // Over at the next turn of the event loop (a timer set after the wait's comes after it).
      let first = "";
      const timer = new Promise<void>((r) => setTimeout(() => (first ||= "timer", r()), 0));
      await Promise.all([turn.then(() => (first ||= "turn")), timer]);
      assert.equal(first, "turn");
      release();
      assert.equal(await committed, true);
      // Once the group is done, none again.
      await new Promise((r) => setTimeout(r, 0));
      assert.equal(turnWhenBusy(), null);
    } finally {
      release();
      db.atomic = atomic;
    }
  },
);

kvTest("group commit - two writes checking one key never share a group: the second sees the first", async () => {
  const key = ["gc", "once"];
  const write = (value: string) => commitGrouped([key], (op) => op.check({ key, versionstamp: null }).set(key, value));
  // Both read "absent" before either commits (as two requests would): only the first may win.
  const [first, second] = await Promise.all([write("a"), write("b")]);
  assert.equal(first, true);
  assert.equal(second, false);
  assert.equal((await kv().get(key)).value, "a");
});

kvTest("group commit - a stale write fails alone; the others of its group still commit", async () => {
  await kv().set(["gc", "taken"], "already");
  const results = await Promise.all([
    commitGrouped([["gc", "x"]], (op) => op.check({ key: ["gc", "x"], versionstamp: null }).set(["gc", "x"], 1)),
    commitGrouped(
      [["gc", "taken"]],
      (op) => op.check({ key: ["gc", "taken"], versionstamp: null }).set(["gc", "taken"], "stolen"),
    ),
    commitGrouped([["gc", "y"]], (op) => op.check({ key: ["gc", "y"], versionstamp: null }).set(["gc", "y"], 2)),
  ]);
  assert.deepEqual(results, [true, false, true]);
  assert.equal((await kv().get(["gc", "taken"])).value, "already");
  assert.equal((await kv().get(["gc", "x"])).value, 1);
  assert.equal((await kv().get(["gc", "y"])).value, 2);
});

kvTest("group commit - the events of writes grouped together all reach their members", async () => {
  const bus = eventBus();
  await bus.start();
  const got: MemberEvent[] = [];
  const arrived = new Promise<void>((resolve) => {
    const stop = bus.subscribe("m", (e) => {
      got.push(e);
      if (got.length === 3) (stop(), resolve());
    });
  });
  await Promise.all(["l1", "l2", "l3"].map((id) =>
    commitGrouped([["gc", "like", id]], (op) => {
      op.set(["gc", "like", id], true);
      addEvent(op, ["m"], { type: "message", id, from: id, to: "m" });
    })
  ));
  await arrived;
  assert.deepEqual(got.map((e) => e.type === "message" && e.id).sort(), ["l1", "l2", "l3"]);
});

kvTest(
  "group commit - a group writes its events as one log entry, set once, and bumps the log's version once",
  async () => {
    const db = kv();
    const atomic = db.atomic.bind(db);
    let logSets = 0, commits = 0;
    db.atomic = () => {
      const op = atomic();
      const set = op.set.bind(op), commit = op.commit.bind(op);
      op.set = (key, value, options) => {
        if (key[0] === keys.eventLogAll()[0]) logSets++;
        set(key, value, options);
        return op;
      };
      op.commit = () => (commits++, commit());
      return op;
    };
    try {
      const n = 12;
      await Promise.all(Array.from({ length: n }, (_, i) =>
        commitGrouped([["gc", "ev", i]], (op) => {
          op.set(["gc", "ev", i], i);
          addEvent(op, [`m${i}`], { type: "notifications" });
          addEvent(op, [`m${i}`, "other"], { type: "notifications" });
        })));
      const entries = await Array.fromAsync(kv().list<{ events: { to: string[] }[] }>({ prefix: keys.eventLogAll() }));
      // Every event is in the log once, in the entry of the commit that carried it.
      assert.deepEqual(
        entries.flatMap((e) => e.value.events.map((ev) => ev.to.join())).sort(),
        Array.from({ length: n }, (_, i) => [`m${i}`, `m${i},other`]).flat().sort(),
      );
      assert.ok(commits < n, `commits ${commits}`);
      assert.equal(entries.length, commits);
      assert.equal(logSets, commits);
      assert.equal((await kv().get<Deno.KvU64>(keys.eventsVersion())).value?.value, BigInt(commits));
    } finally {
      db.atomic = atomic;
    }
  },
);

kvTest(
  "group commit - writes that may wait, asked for close together, wait for company rather than commit alone",
  async () => {
    const rounds = 10, each = 10;
    const { result, commits } = await commitsWhile(async () => {
      const written: boolean[] = [];
      // Each round asks for its writes at once and waits for them; the next round comes after. Without
      // the wait the first write of a round finds nothing in flight and commits alone, the rest after
      // it: two commits a round.
      for (let r = 0; r < rounds; r++) {
        written.push(
          ...await Promise.all(Array.from({ length: each }, (_, i) => {
            const key = ["gc", "round", r, i];
            return commitGrouped([key], (op) => op.set(key, i), { linger: true });
          })),
        );
      }
      return written;
    });
    assert.deepEqual(result, Array(rounds * each).fill(true));
    // The first round comes before writes are known to come close together: two commits; then one a round.
    assert.ok(commits <= rounds + 1, `commits ${commits} for ${rounds} rounds`);
    assert.equal((await Array.fromAsync(kv().list({ prefix: ["gc", "round"] }))).length, rounds * each);
  },
);

kvTest("group commit - a write that may wait but comes alone is committed at once", async () => {
  const commits = countCommits();
  try {
    for (let i = 0; i < 3; i++) {
      const written = commitGrouped([["gc", "alone", i]], (op) => op.set(["gc", "alone", i], i), { linger: true });
      // Its commit began as it was asked for: nothing comes often enough to wait for.
      assert.equal(commits.count(), i + 1);
      assert.equal(await written, true);
      // Until its group is done with (no write queued or in flight): the next then comes alone too.
      for (let turn = turnWhenBusy(); turn; turn = turnWhenBusy()) await turn;
    }
  } finally {
    commits.stop();
  }
});

kvTest("group commit - a write that throws fails its own caller only", async () => {
  const results = await Promise.allSettled([
    commitGrouped([["gc", "ok"]], (op) => op.set(["gc", "ok"], 1)),
    commitGrouped([["gc", "bad"]], () => {
      throw new Error("bad build");
    }),
  ]);
  assert.equal(results[0].status, "fulfilled");
  assert.equal(results[1].status, "rejected");
  assert.equal((await kv().get(["gc", "ok"])).value, 1);
});

Deno.test("keyId - keys are the same id exactly when their parts are the same, type and value", () => {
  const keys: Deno.KvKey[] = [
    ["likes", "a", "b"],
    ["likes", "a,b"],
    ["likes", "a\u0000b"],
    ["likes", 'a"', "b"],
    ["n", 1],
    ["n", "1"],
    ["n", 1n],
    ["n", true],
    ["n", "true"],
    ["n", new Uint8Array([1, 2])],
    ["n", new Uint8Array([1]), new Uint8Array([2])],
    ["n", 1.5],
    [],
  ];
  const ids = keys.map(keyId);
  assert.equal(new Set(ids).size, keys.length, ids.join(" | "));
  assert.equal(keyId(["likes", "a", "b"]), keyId(["likes", "a", "b"]));
  assert.equal(keyId(["n", new Uint8Array([1, 2])]), keyId(["n", new Uint8Array([1, 2])]));
});
