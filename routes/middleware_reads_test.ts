import assert from "node:assert/strict";
import { testApp } from "../tests/api.ts";
import { forgetHere, startKeptReads } from "../kv/kept.ts";
import { eventBus } from "../kv/events.ts";
import { accountHint } from "../kv/sessions.ts";
import { sha256Hex } from "../kv/ids.ts";
import { CACHE_ID_HEADER } from "../islands/sw/caches.ts";
import { resetClock, shiftClock } from "../kv/clock.ts";

/** The store calls made while `fn` runs, as the store sees them (below kv/coalesce.ts's gathering). */
async function storeCalls(fn: () => Promise<unknown>): Promise<string[]> {
  const proto = Deno.Kv.prototype;
  const [get, getMany] = [proto.get, proto.getMany];
  const calls: string[] = [];
  proto.get = function (this: Deno.Kv, ...a: Parameters<Deno.Kv["get"]>) {
    calls.push("get");
    return get.apply(this, a);
  } as Deno.Kv["get"];
  proto.getMany = function (this: Deno.Kv, ...a: Parameters<Deno.Kv["getMany"]>) {
    calls.push(`getMany(${a[0].length})`);
    return getMany.apply(this, a);
  } as Deno.Kv["getMany"];
  try {
    await fn();
    return calls;
  } finally {
    [proto.get, proto.getMany] = [get, getMany];
  }
}

Deno.test("session reads - a signed-in call whose kept session and account ran out reads both in one store call", async () => {
  const t = await testApp();
  // As the server runs: reads kept by the instance.
  startKeptReads();
  await eventBus().log.tail();
  try {
    const me = await t.member();
    assert.equal((await t.call("GET", "/api/ping", { cookie: me.cookie })).status, 200);
    // The kept copies gone (their life ended, or a write forgot them); the token's hash is still known.
    const token = decodeURIComponent(me.cookie.slice(me.cookie.indexOf("=") + 1));
    forgetHere("session", [await sha256Hex(token)]);
    forgetHere("account", [accountHint(token)!]);
    let status = 0;
    const calls = await storeCalls(async () => {
      status = (await t.call("GET", "/api/ping", { cookie: me.cookie })).status;
    });
    assert.equal(status, 200);
    // The session, the account and its grants in one getMany.
    assert.deepEqual(calls, ["getMany(3)"]);
  } finally {
    await eventBus().stop();
    t.close();
  }
});

Deno.test("session reads - a call whose session and account are kept reads nothing, answers as its own caller with its caches named; a sign-out ends it at once", async () => {
  const t = await testApp();
  startKeptReads();
  await eventBus().log.tail();
  try {
    const [me, other] = [await t.member(), await t.member()];
    const cacheOf = async (cookie: string) =>
      (await t.call("GET", "/offline", { cookie })).headers.get(CACHE_ID_HEADER);
    const [mine, theirs] = [await cacheOf(me.cookie), await cacheOf(other.cookie)];
    assert.match(mine ?? "", /^[0-9a-f]{24}$/);
    const current = async (cookie: string) => {
      const r = await t.call("GET", "/api/sessions", { cookie });
      assert.equal(r.status, 200);
      return (r.data as { id: string; current: boolean }[]).find((s) => s.current)?.id;
    };
    const [mySession, theirSession] = [await current(me.cookie), await current(other.cookie)];
    assert.ok(mySession && theirSession && mySession !== theirSession);
    let ping: Awaited<ReturnType<typeof t.call>> | undefined;
    const calls = await storeCalls(async () => {
      ping = await t.call("GET", "/api/ping", { cookie: me.cookie });
    });
    assert.deepEqual(calls, [], "the session and account as kept");
    assert.equal(ping!.status, 200);
    assert.equal(ping!.headers.get(CACHE_ID_HEADER), mine, "an API answer names the caller's caches as their pages do");
    const discreet = await t.call("GET", "/api/ping", { cookie: `${me.cookie}; discreet=1` });
    assert.equal(discreet.headers.get(CACHE_ID_HEADER), await cacheOf(`${me.cookie}; discreet=1`));
    assert.notEqual(discreet.headers.get(CACHE_ID_HEADER), mine);
    const missing = await t.call("GET", "/api/no-such-call", { cookie: other.cookie });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get(CACHE_ID_HEADER), theirs, "an error answer names them too");
    assert.equal((await t.call("GET", "/api/ping")).headers.get(CACHE_ID_HEADER), null, "nobody's names none");
    assert.equal(await current(me.cookie), mySession, "each caller as themselves, call after call");
    assert.equal(await current(other.cookie), theirSession);
    assert.equal((await t.call("POST", "/api/auth/logout", { cookie: me.cookie })).status, 200);
    assert.equal((await t.call("GET", "/api/settings", { cookie: me.cookie })).status, 401, "signed out at once");
    assert.equal((await t.call("GET", "/api/settings", { cookie: other.cookie })).status, 200);
  } finally {
    await eventBus().stop();
    t.close();
  }
});

Deno.test("session reads - static files, the service worker and the build's version read no session: nothing touched, no member's cache named; a tile reads no page's notice", async () => {
  const t = await testApp();
  try {
    const me = await t.member();
    const cache = (await t.call("GET", "/offline", { cookie: me.cookie })).headers.get(CACHE_ID_HEADER);
    assert.match(cache ?? "", /^[0-9a-f]{24}$/);
    const lastSeen = async () => {
      const r = await t.call("GET", "/api/sessions", { cookie: me.cookie });
      assert.equal(r.status, 200);
      return (r.data as { current: boolean; lastSeen: number }[]).find((s) => s.current)!.lastSeen;
    };
    const before = await lastSeen();
    // Past the time after which any request that reads the session writes its lastSeen again.
    shiftClock(10 * 60_000);
    for (const path of ["/static/app.css", "/static/sw.js", "/static/build/none-ABCDEFGH.js"]) {
      let answer: Awaited<ReturnType<typeof t.call>> | undefined;
      const calls = await storeCalls(async () => {
        answer = await t.call("GET", path, { cookie: me.cookie });
      });
      assert.deepEqual(calls, [], `${path}: no store read`);
      assert.ok(answer!.status < 500, `${path}: ${answer!.status}`);
      assert.equal(answer!.headers.get(CACHE_ID_HEADER), null, `${path} names nobody's caches`);
    }
    // A minute on: had a static file written lastSeen, the next call would find it fresh and write none.
    shiftClock(60_000);
    // A tile is for members only, read as an API call reads its caller: no page's notice or feed cursor.
    const api = await storeCalls(() => t.call("GET", "/api/ping", { cookie: me.cookie }));
    const tile = await storeCalls(async () => {
      const r = await t.call("GET", "/tiles/20/0/0", { cookie: me.cookie });
      assert.equal(r.status, 400, "an address out of range, as the member's");
    });
    assert.deepEqual(tile, api);
    const version = await t.call("GET", "/version_frontend.json", { cookie: me.cookie });
    assert.equal(version.status, 200);
    assert.equal(version.headers.get(CACHE_ID_HEADER), null);
    const page = await t.call("GET", "/offline", { cookie: me.cookie });
    assert.equal(page.headers.get(CACHE_ID_HEADER), cache, "a page is still the member's");
    const after = await lastSeen();
    assert.ok(after - before >= 11 * 60_000, "lastSeen written by the call after the static files, not by them");
  } finally {
    resetClock();
    t.close();
  }
});
