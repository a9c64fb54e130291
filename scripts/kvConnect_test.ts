/**
 * The KV Connect test server, as `Deno.openKv(url)` sees it: reads, writes, checks, sums, watch,
 * large values, the added round trip, and denokv's error answers (asked with raw requests where
 * the Deno client refuses to send them).
 */

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { decodeMessage, encodeMessage, ERRORS, type KvConnectServer, PB, startKvConnect } from "./kvConnect.ts";
import { encodeAnswer } from "./kvConnect/protocol.ts";
import { pause } from "../tests/wait.ts";

const TOKEN = "test-token-kvconnect";
/** Deep equality (node:assert's, typed for a plain call). */
function assertEquals(actual: unknown, expected: unknown): void {
  assert.deepEqual(actual, expected);
}

/** The error `fn` rejects with (fails when it does not). */
async function assertRejects(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}

/** A test with its own server (`:memory:`) and a client on it. */
function remoteTest(name: string, fn: (kv: Deno.Kv, server: KvConnectServer) => Promise<void>, rttMs = 0) {
  Deno.test(name, async () => {
    const server = await startKvConnect({ path: ":memory:", token: TOKEN, rttMs });
    Deno.env.set("DENO_KV_ACCESS_TOKEN", TOKEN);
    const kv = await Deno.openKv(server.url);
    try {
      await fn(kv, server);
    } finally {
      kv.close();
      await server.close();
    }
  });
}

/** A raw data path request: its status and (decoded or text) answer. */
async function dataPath(
  server: KvConnectServer,
  op: "snapshot_read" | "atomic_write" | "watch",
  body: Uint8Array<ArrayBuffer>,
  headers: Record<string, string> = {},
) {
  const meta = await (await fetch(server.url, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ supportedVersions: [1, 2, 3] }),
  })).json();
  const res = await fetch(new URL(meta.endpoints[0].url + "/" + op, server.url), {
    method: "POST",
    headers: {
      authorization: `Bearer ${TOKEN}`,
      "content-type": "application/x-protobuf",
      "x-denokv-version": "3",
      "x-denokv-database-id": meta.databaseId,
      ...headers,
    },
    body,
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, bytes, text: new TextDecoder().decode(bytes) };
}

remoteTest("get, getMany and list read back what was set, in key order, forward and reverse", async (kv) => {
  for (let i = 0; i < 12; i++) await kv.set(["item", i], { n: i, label: `item ${i}` });
  await kv.set(["other"], "x");
  assertEquals((await kv.get(["item", 3])).value, { n: 3, label: "item 3" });
  assertEquals((await kv.get(["missing"])).versionstamp, null);
  const many = await kv.getMany([["item", 1], ["missing"], ["other"]]);
  assertEquals(many.map((e) => e.value), [{ n: 1, label: "item 1" }, null, "x"]);
  const all = await Array.fromAsync(kv.list<{ n: number }>({ prefix: ["item"] }));
  assertEquals(all.map((e) => e.value.n), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  const back = await Array.fromAsync(kv.list<{ n: number }>({ prefix: ["item"] }, { reverse: true, limit: 3 }));
  assertEquals(back.map((e) => e.value.n), [11, 10, 9]);
  const range = await Array.fromAsync(kv.list<{ n: number }>({ start: ["item", 4], end: ["item", 7] }));
  assertEquals(range.map((e) => e.value.n), [4, 5, 6]);
  // Small batches: the client pages through the server with its own cursors.
  const batched = await Array.fromAsync(kv.list<{ n: number }>({ prefix: ["item"] }, { batchSize: 5 }));
  assertEquals(batched.map((e) => e.value.n), all.map((e) => e.value.n));
});

remoteTest("a listing goes on from its cursor, forward and reverse", async (kv) => {
  for (let i = 0; i < 10; i++) await kv.set(["c", i], i);
  const first = kv.list<number>({ prefix: ["c"] }, { limit: 4 });
  const seen = (await Array.fromAsync(first)).map((e) => e.value);
  assertEquals(seen, [0, 1, 2, 3]);
  const rest = await Array.fromAsync(kv.list<number>({ prefix: ["c"] }, { cursor: first.cursor }));
  assertEquals(rest.map((e) => e.value), [4, 5, 6, 7, 8, 9]);
  const rev = kv.list<number>({ prefix: ["c"] }, { limit: 3, reverse: true });
  assertEquals((await Array.fromAsync(rev)).map((e) => e.value), [9, 8, 7]);
  const revRest = await Array.fromAsync(kv.list<number>({ prefix: ["c"] }, { reverse: true, cursor: rev.cursor }));
  assertEquals(revRest.map((e) => e.value), [6, 5, 4, 3, 2, 1, 0]);
});

remoteTest("keys of every part type list in the order a local Deno KV lists them", async (kv) => {
  const keys: Deno.KvKey[] = [
    [new Uint8Array([0])],
    [new Uint8Array([0, 0])],
    [new Uint8Array([1])],
    [""],
    ["a"],
    ["a\u0000"],
    ["a", 1],
    ["b"],
    [-5],
    [0],
    [2.5],
    [-1n],
    [7n],
    [false],
    [true],
  ];
  const local = await Deno.openKv(":memory:");
  try {
    for (const k of keys) {
      await kv.set(k, 1);
      await local.set(k, 1);
    }
    const remote = (await Array.fromAsync(kv.list({ prefix: [] }))).map((e) => e.key);
    const there = (await Array.fromAsync(local.list({ prefix: [] }))).map((e) => e.key);
    assertEquals(remote, there);
    const remoteBack = (await Array.fromAsync(kv.list({ prefix: [] }, { reverse: true }))).map((e) => e.key);
    assertEquals(remoteBack, [...there].reverse());
  } finally {
    local.close();
  }
});

Deno.test("a write with expireIn reaches the backing store with its expiry time", async () => {
  const dir = await Deno.makeTempDir();
  const server = await startKvConnect({ path: `${dir}/backing.kv`, token: TOKEN });
  Deno.env.set("DENO_KV_ACCESS_TOKEN", TOKEN);
  const kv = await Deno.openKv(server.url);
  try {
    const before = Date.now();
    await kv.set(["short"], "soon gone", { expireIn: 60_000 });
    await kv.set(["long"], "stays");
    assertEquals((await kv.get(["short"])).value, "soon gone");
    // Deno KV (a local file and denokv alike) removes an expired entry in its own time: what the
    // store must hold is the expiry time, which its SQLite table shows.
    const db = new DatabaseSync(`${dir}/backing.kv`, { readOnly: true });
    try {
      const rows = db.prepare("SELECT expiration_ms FROM kv ORDER BY k").all() as { expiration_ms: number }[];
      assertEquals(rows.length, 2);
      const expiries = rows.map((r) => Number(r.expiration_ms)).sort((a, b) => a - b);
      assertEquals(expiries[0], -1);
      assert(expiries[1] >= before + 60_000 - 50 && expiries[1] <= Date.now() + 60_000 + 50, String(expiries));
    } finally {
      db.close();
    }
  } finally {
    kv.close();
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

remoteTest("an atomic with checks commits once, and a conflicting one answers ok: false", async (kv) => {
  const first = await kv.set(["acct"], { balance: 10 });
  const entry = await kv.get<{ balance: number }>(["acct"]);
  assertEquals(entry.versionstamp, first.versionstamp);
  const ok = await kv.atomic().check(entry).set(["acct"], { balance: 5 }).set(["log", 1], "paid 5").commit();
  assert(ok.ok);
  // The same check again: the entry changed since.
  const stale = await kv.atomic().check(entry).set(["acct"], { balance: 0 }).commit();
  assertEquals(stale.ok, false);
  assertEquals((await kv.get(["acct"])).value, { balance: 5 });
  // "Must not exist" checks.
  assert((await kv.atomic().check({ key: ["fresh"], versionstamp: null }).set(["fresh"], 1).commit()).ok);
  assertEquals((await kv.atomic().check({ key: ["fresh"], versionstamp: null }).set(["fresh"], 2).commit()).ok, false);
  // Versionstamps grow with each commit.
  const later = await kv.set(["acct2"], 1);
  assert(later.versionstamp > first.versionstamp);
});

remoteTest("sum, min and max work on Deno.KvU64 values; a sum on another value is refused", async (kv) => {
  await kv.atomic().sum(["n"], 5n).commit();
  await kv.atomic().sum(["n"], 7n).min(["lo"], 9n).max(["hi"], 9n).commit();
  await kv.atomic().min(["lo"], 4n).max(["hi"], 20n).commit();
  await kv.atomic().min(["lo"], 6n).max(["hi"], 11n).commit();
  const [n, lo, hi] = await kv.getMany<Deno.KvU64[]>([["n"], ["lo"], ["hi"]]);
  assertEquals([n.value?.value, lo.value?.value, hi.value?.value], [12n, 4n, 20n]);
  // Wraps as u64 does.
  await kv.set(["w"], new Deno.KvU64(0xffffffffffffffffn));
  await kv.atomic().sum(["w"], 2n).commit();
  assertEquals((await kv.get<Deno.KvU64>(["w"])).value?.value, 1n);
  await kv.set(["text"], "not a number");
  const err = await assertRejects(() => kv.atomic().sum(["text"], 1n).commit());
  assert(
    String(err).includes("Failed to perform 'sum' mutation on a non-U64 value in the database"),
    String(err),
  );
});

remoteTest("a key ending in kv.commitVersionstamp() ends in the commit's versionstamp, in commit order", async (kv) => {
  const results: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await kv.atomic().set(["log", kv.commitVersionstamp()], { i }).sum(["log_version"], 1n).commit();
    assert(res.ok);
    results.push(res.versionstamp);
  }
  const log = await Array.fromAsync(kv.list<{ i: number }>({ prefix: ["log"] }));
  assertEquals(log.map((e) => e.key), results.map((vs) => ["log", vs]));
  assertEquals(log.map((e) => e.versionstamp), results);
  assertEquals(log.map((e) => e.value.i), [0, 1, 2]);
  // Read after a cursor, as the app's change logs do.
  const after = await Array.fromAsync(kv.list<{ i: number }>({ prefix: ["log"], start: ["log", results[0] + "\0"] }));
  assertEquals(after.map((e) => e.value.i), [1, 2]);
  const before = await Array.fromAsync(
    kv.list<{ i: number }>({ prefix: ["log"], end: ["log", results[2]] }, { reverse: true }),
  );
  assertEquals(before.map((e) => e.value.i), [1, 0]);
});

remoteTest("values of every encoding come back as they were set, up to the largest", async (kv) => {
  const big = new Uint8Array(65536).map((_, i) => i % 251);
  const jpegLike = new Uint8Array(60_000).map((_, i) => i === 0 ? 0xff : i % 7);
  const tagged = new Uint8Array([0xfe, 1, 2]);
  const object = {
    text: "ü".repeat(20_000),
    when: new Date(1_700_000_000_000),
    big: 12n,
    inner: new Uint8Array([1, 2, 3]),
    map: new Map([["a", 1]]),
  };
  await kv.set(["big"], big);
  await kv.set(["jpeg"], jpegLike);
  await kv.set(["tagged"], tagged);
  await kv.set(["empty"], new Uint8Array());
  await kv.set(["object"], object);
  await kv.set(["u64"], new Deno.KvU64(42n));
  await kv.set(["undef"], undefined);
  const got = await kv.getMany([["big"], ["jpeg"], ["tagged"], ["empty"], ["object"], ["u64"], ["undef"]]);
  assertEquals(got[0].value, big);
  assertEquals(got[1].value, jpegLike);
  assertEquals(got[2].value, tagged);
  assertEquals(got[3].value, new Uint8Array());
  assertEquals(got[4].value, object);
  assertEquals((got[5].value as Deno.KvU64).value, 42n);
  assertEquals(got[6].value, undefined);
  assertEquals(got[6].versionstamp !== null, true);
});

remoteTest("a watch gives the current values, then each change", async (kv) => {
  await kv.set(["w", 1], "one");
  const reader = kv.watch([["w", 1], ["w", 2]]).getReader();
  try {
    const first = await reader.read();
    assertEquals(first.value?.map((e) => e.value), ["one", null]);
    await kv.set(["w", 2], "two");
    let next = await reader.read();
    while (next.value?.[1].value !== "two") next = await reader.read();
    assertEquals(next.value?.map((e) => e.value), ["one", "two"]);
    await kv.delete(["w", 1]);
    next = await reader.read();
    while (next.value?.[0].value !== null) next = await reader.read();
    assertEquals(next.value?.map((e) => e.value), [null, "two"]);
  } finally {
    await reader.cancel();
  }
});

remoteTest("--rtt-ms answers every request that much later", async (kv) => {
  await kv.set(["warm"], 1);
  const t0 = performance.now();
  for (let i = 0; i < 5; i++) await kv.get(["warm"]);
  const perCall = (performance.now() - t0) / 5;
  assert(perCall >= 40, `a read took ${perCall.toFixed(1)} ms`);
}, 40);

remoteTest("each named database is its own", async (kv, server) => {
  await kv.set(["where"], "default");
  const a = await Deno.openKv(server.urlOf("a"));
  const b = await Deno.openKv(server.urlOf("b"));
  try {
    await a.set(["where"], "a");
    assertEquals((await b.get(["where"])).value, null);
    assertEquals((await a.get(["where"])).value, "a");
    assertEquals((await kv.get(["where"])).value, "default");
  } finally {
    a.close();
    b.close();
  }
});

Deno.test("a wrong access token is refused with denokv's answer", async () => {
  const server = await startKvConnect({ path: ":memory:", token: TOKEN });
  try {
    const post = (headers: Record<string, string>, body?: string) =>
      fetch(server.url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body })
        .then(async (r) => [r.status, await r.text()]);
    const versions = JSON.stringify({ supportedVersions: [1, 2, 3] });
    assertEquals(await post({ authorization: "Bearer wrong-token-123" }, versions), [...ERRORS.invalidAccessToken]);
    assertEquals(await post({ authorization: "Bearer" }, versions), [...ERRORS.malformedAuthorization]);
    assertEquals(await post({}, versions), [...ERRORS.malformedAuthorization]);
    Deno.env.set("DENO_KV_ACCESS_TOKEN", "wrong-token-123");
    const err = await assertRejects(() => Deno.openKv(server.url));
    assert(String(err).includes("status 401 Unauthorized: Invalid access token."), String(err));
  } finally {
    await server.close();
  }
});

Deno.test("a protocol version it does not speak is refused with denokv's answer", async () => {
  const server = await startKvConnect({ path: ":memory:", token: TOKEN });
  try {
    const meta = (body?: string) =>
      fetch(server.url, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body,
      }).then(async (r) => [r.status, await r.text()]);
    assertEquals(await meta(), [...ERRORS.minimumProtocolVersion]);
    assertEquals(await meta(JSON.stringify({ supportedVersions: [1] })), [...ERRORS.noMatchingProtocolVersion]);
    const v3 = await fetch(server.url, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ supportedVersions: [1, 2, 3] }),
    }).then((r) => r.json());
    assertEquals(v3.version, 3);
    assertEquals(v3.endpoints, [{ url: "/v2", consistency: "strong" }]);
    const read = encodeMessage("SnapshotRead", { ranges: [] });
    for (const version of ["1", "4"]) {
      const r = await dataPath(server, "snapshot_read", read, { "x-denokv-version": version });
      assertEquals([r.status, r.text], [...ERRORS.invalidProtocolVersion]);
    }
    const wrongDb = await dataPath(server, "snapshot_read", read, {
      "x-denokv-database-id": crypto.randomUUID(),
    });
    assertEquals([wrongDb.status, wrongDb.text], [...ERRORS.invalidDatabaseId]);
    const nowhere = await fetch(new URL("/v2/nothing", server.url), { method: "POST" });
    assertEquals([nowhere.status, await nowhere.text()], [...ERRORS.notFound]);
    // A route with a query is still the route (read as URL reads it).
    const queried = await fetch(`${server.url}/v2/snapshot_read?at=1`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "x-denokv-version": "3", "x-denokv-database-id": "none" },
      body: read,
    });
    assertEquals([queried.status, await queried.text()], [...ERRORS.invalidDatabaseId]);
  } finally {
    await server.close();
  }
});

Deno.test("an atomic past denokv's limits, a check failure and bad requests get denokv's answers", async () => {
  const server = await startKvConnect({ path: ":memory:", token: TOKEN });
  try {
    const key = (s: string) => new Uint8Array([0x02, ...new TextEncoder().encode(s), 0x00]);
    const v8 = (n: number) => new Uint8Array([0xff, 0x0f, 0x49, n * 2]); // the V8 bytes of a small integer
    const value = new Uint8Array(65536).fill(7);
    const tooLarge = encodeMessage("AtomicWrite", {
      mutations: Array.from({ length: 13 }, (_, i) => ({
        key: key(`k${i}`),
        value: { data: value, encoding: PB.VE_BYTES },
        mutation_type: PB.M_SET,
      })),
    });
    const big = await dataPath(server, "atomic_write", tooLarge);
    assertEquals([big.status, big.text], [...ERRORS.atomicWriteTooLarge]);

    const tooBigValue = encodeMessage("AtomicWrite", {
      mutations: [{ key: key("v"), value: { data: new Uint8Array(65537), encoding: PB.VE_BYTES }, mutation_type: 1 }],
    });
    const bigValue = await dataPath(server, "atomic_write", tooBigValue);
    assertEquals([bigValue.status, bigValue.text], [...ERRORS.valueTooLong]);

    const set = encodeMessage("AtomicWrite", {
      checks: [{ key: key("once"), versionstamp: new Uint8Array() }],
      mutations: [{ key: key("once"), value: { data: v8(1), encoding: PB.VE_V8 }, mutation_type: PB.M_SET }],
    });
    const ok = decodeMessage("AtomicWriteOutput", (await dataPath(server, "atomic_write", set)).bytes);
    assertEquals([ok.status, ok.versionstamp.length], [PB.AW_SUCCESS, 10]);
    const again = decodeMessage("AtomicWriteOutput", (await dataPath(server, "atomic_write", set)).bytes);
    assertEquals([again.status, again.failed_checks], [PB.AW_CHECK_FAILURE, []]);

    const read = decodeMessage(
      "SnapshotReadOutput",
      (await dataPath(
        server,
        "snapshot_read",
        encodeMessage("SnapshotRead", { ranges: [{ start: key("once"), end: [...key("once"), 0], limit: 1 }] }),
      )).bytes,
    );
    assertEquals(read.status, 1);
    assertEquals(read.read_is_strongly_consistent, true);
    assertEquals(new Uint8Array(read.ranges[0].values[0].value), v8(1));
    assertEquals(read.ranges[0].values[0].encoding, PB.VE_V8);
    assertEquals(new Uint8Array(read.ranges[0].values[0].versionstamp), new Uint8Array(ok.versionstamp));

    const badCheck = encodeMessage("AtomicWrite", { checks: [{ key: key("x"), versionstamp: new Uint8Array(3) }] });
    const vs = await dataPath(server, "atomic_write", badCheck);
    assertEquals([vs.status, vs.text], [...ERRORS.invalidVersionstamp]);

    // A range of a shape the Deno client never asks for ([key, key's prefix + 0xFF), the key
    // itself in it) reads right all the same.
    const prefixOnly = key("r");
    for (const part of ["r", "r1", "r2"]) {
      const k = part === "r" ? prefixOnly : new Uint8Array([...prefixOnly, ...key(part)]);
      await dataPath(
        server,
        "atomic_write",
        encodeMessage("AtomicWrite", {
          mutations: [{ key: k, value: { data: v8(1), encoding: PB.VE_V8 }, mutation_type: PB.M_SET }],
        }),
      );
    }
    const oddOut = decodeMessage(
      "SnapshotReadOutput",
      (await dataPath(
        server,
        "snapshot_read",
        encodeMessage("SnapshotRead", { ranges: [{ start: prefixOnly, end: [...prefixOnly, 0xff], limit: 10 }] }),
      )).bytes,
    );
    assertEquals(oddOut.ranges[0].values.length, 3);

    const manyRanges = encodeMessage("SnapshotRead", {
      ranges: Array.from({ length: 11 }, () => ({ start: key("a"), end: key("b"), limit: 1 })),
    });
    const mr = await dataPath(server, "snapshot_read", manyRanges);
    assertEquals([mr.status, mr.text], [...ERRORS.tooManyReadRanges]);
    const hugeLimit = encodeMessage("SnapshotRead", { ranges: [{ start: key("a"), end: key("b"), limit: 1001 }] });
    const hl = await dataPath(server, "snapshot_read", hugeLimit);
    assertEquals([hl.status, hl.text], [...ERRORS.readRangeTooLarge]);
    const zero = encodeMessage("SnapshotRead", { ranges: [{ start: key("a"), end: key("b"), limit: 0 }] });
    const z = await dataPath(server, "snapshot_read", zero);
    assertEquals([z.status, z.text], [...ERRORS.invalidReadRangeLimit]);

    const watch11 = encodeMessage("Watch", { keys: Array.from({ length: 11 }, (_, i) => ({ key: key(`w${i}`) })) });
    const w = await dataPath(server, "watch", watch11);
    assertEquals([w.status, w.text], [...ERRORS.tooManyWatchedKeys]);

    const garbage = await dataPath(server, "atomic_write", new Uint8Array([0x0a, 0xff, 0xff, 0xff]));
    assertEquals(garbage.status, 400);
    assert(garbage.text.startsWith("Request protobuf is invalid: "), garbage.text);
  } finally {
    await server.close();
  }
});

remoteTest("the Deno client's own limits hold before a request is sent (a watch of 11 keys)", async (kv) => {
  const keys = Array.from({ length: 11 }, (_, i) => ["w", i]);
  // The client refuses at once or the server answers denokv's text: either way the member of the
  // app would see the same error as on Deno Deploy.
  const err = await assertRejects(async () => {
    const reader = kv.watch(keys).getReader();
    try {
      await reader.read();
    } finally {
      await reader.cancel().catch(() => {});
    }
  });
  assert(/too many|Too many keys watched/i.test(String(err)), String(err));
});

Deno.test("a named database nobody used is closed, its requests then refused (never answered empty); a watched one and the default one stay open", async () => {
  const server = await startKvConnect({ path: ":memory:", token: TOKEN, idleCloseMs: 200 });
  Deno.env.set("DENO_KV_ACCESS_TOKEN", TOKEN);
  const idle = await Deno.openKv(server.urlOf("idle"));
  const watched = await Deno.openKv(server.urlOf("watched"));
  const main = await Deno.openKv(server.url);
  const reader = watched.watch([["w"]]).getReader();
  try {
    await idle.set(["x"], 1);
    await watched.set(["w"], 1);
    await main.set(["m"], 1);
    // Its first message: the watch is open on the server.
    await reader.read();
    await pause(1_000); // sleep-ok: being unused for a time is the case tested
    const refused = await assertRejects(() => idle.get(["x"]));
    assert.match(String(refused), /Invalid database id/);
    assertEquals((await watched.get(["w"])).value, 1);
    assertEquals((await main.get(["m"])).value, 1);
  } finally {
    await reader.cancel();
    idle.close();
    watched.close();
    main.close();
    await server.close();
  }
});

Deno.test("the server's answers are the bytes protobufjs's fromObject would give them", () => {
  const entry = (n: number) => ({
    key: Uint8Array.of(2, 97 + n, 0),
    value: new Uint8Array(n * 7).fill(0xff),
    encoding: PB.VE_V8,
    versionstamp: Uint8Array.of(0, 0, 0, 0, 0, 0, 0, n, 0, 0),
  });
  const answers: [Parameters<typeof encodeAnswer>[0], Record<string, unknown>][] = [
    ["SnapshotReadOutput", {
      ranges: [{ values: [entry(1), entry(2)] }, { values: [] }, { values: [entry(0)] }],
      read_disabled: false,
      read_is_strongly_consistent: true,
      status: PB.SR_SUCCESS,
    }],
    ["SnapshotReadOutput", { ranges: [], read_disabled: false, read_is_strongly_consistent: true, status: 1 }],
    ["AtomicWriteOutput", { status: PB.AW_SUCCESS, versionstamp: entry(3).versionstamp, failed_checks: [] }],
    ["AtomicWriteOutput", { status: PB.AW_CHECK_FAILURE, failed_checks: [] }],
    ["WatchOutput", {
      status: PB.SR_SUCCESS,
      keys: [{ changed: true, entry_if_changed: entry(4) }, { changed: true, entry_if_changed: undefined }],
    }],
  ];
  for (const [type, value] of answers) assertEquals(encodeAnswer(type, value), encodeMessage(type, value));
});
