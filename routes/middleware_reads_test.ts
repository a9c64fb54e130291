import assert from "node:assert/strict";
import { testApp } from "../tests/api.ts";
import { forgetHere, startKeptReads } from "../kv/kept.ts";
import { eventBus } from "../kv/events.ts";
import { accountHint } from "../kv/sessions.ts";
import { sha256Hex } from "../kv/ids.ts";

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
