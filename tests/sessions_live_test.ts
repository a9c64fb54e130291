/**
 * Sessions kept in the instance (kv/sessions.ts on kv/kept.ts, `startKeptReads`) across instances: two
 * instances on one KV file (a local file's watch sees only its own process, so the other learns
 * through its poll of the change log). A session ended through one stops working on the other
 * within 1 s, though the other had just used it.
 */

import { until } from "./wait.ts";
import assert from "node:assert/strict";
import { type Instance, withTwoInstances } from "./instance.ts";
import { streamText } from "./sse.ts";

async function status(origin: string, cookie: string): Promise<number> {
  const res = await fetch(`${origin}/api/settings`, { headers: { cookie } });
  await res.body?.cancel();
  return res.status;
}

/** A new session of `email` by its password, through `origin`: its cookie. */
async function logInByPassword(origin: string, email: string, password: string): Promise<string> {
  const form = new FormData();
  form.set("username", email);
  form.set("password", password);
  const login = await fetch(`${origin}/api/auth`, { method: "POST", body: form });
  assert.equal(login.status, 200, await login.text());
  return login.headers.getSetCookie().find((c) => /sid=/.test(c))!.split(";")[0];
}

/** Uses `cookie` on `two` (so it keeps the session), runs `end` on the other instance, then asks `two` until it refuses. */
async function endedWithin(two: Instance, cookie: string, end: () => Promise<void>): Promise<number> {
  for (let i = 0; i < 5; i++) assert.equal(await status(two.origin, cookie), 200);
  const t = performance.now();
  await end();
  await until(async () => await status(two.origin, cookie) !== 200, "the session to end (3 s at most)", {
    timeoutMs: 3000,
  });
  const ms = performance.now() - t;
  console.log(`  ended on the other instance after ${ms.toFixed(0)} ms`);
  // Refused for good, not once.
  for (let i = 0; i < 3; i++) assert.equal(await status(two.origin, cookie), 401);
  return ms;
}

/**
 * The cases, each with members of its own, run one after another on one pair of instances (the
 * test at the end): starting an instance is most of what a case costs.
 */
const CASES: [string, (pair: { one: Instance; two: Instance }) => Promise<void>][] = [];

CASES.push([
  "sessions - a logout through one instance ends the session on another that just used it, within 1 s",
  async ({ one, two }) => {
    const a = await one.member("logout-a@example.com");
    const ms = await endedWithin(two, a, async () => {
      const res = await fetch(`${one.origin}/api/auth/logout`, {
        method: "POST",
        headers: { cookie: a, origin: one.origin },
      });
      assert.equal(res.status, 200);
      await res.body?.cancel();
    });
    assert.ok(ms < 1000, `ended after ${ms.toFixed(0)} ms`);
    assert.equal(await status(one.origin, a), 401);
  },
]);

CASES.push([
  "sessions - a new password set through one instance ends the other sessions on another within 1 s",
  async ({ one, two }) => {
    const email = "password-a@example.com";
    const a = await one.member(email);
    const put = (password: string) =>
      fetch(`${one.origin}/api/settings`, {
        method: "PUT",
        headers: { cookie: a, origin: one.origin, "content-type": "application/json" },
        body: JSON.stringify({ name: "A", email, password, currentPassword: "first password" }),
      });
    // A fresh login-link session sets the first password without the current one.
    const first = await put("first password");
    assert.equal(first.status, 200, await first.text());

    // A second session, by password, on the other instance.
    const x = await logInByPassword(two.origin, email, "first password");

    const ms = await endedWithin(two, x, async () => {
      const res = await put("second password");
      assert.equal(res.status, 200, await res.text());
    });
    assert.ok(ms < 1000, `ended after ${ms.toFixed(0)} ms`);
    // The session that changed the password stays, on both.
    assert.equal(await status(one.origin, a), 200);
    assert.equal(await status(two.origin, a), 200);
  },
]);

/** A WebSocket on the event route of `origin` with `cookie`; resolves once the server said ready. */
async function openSocket(origin: string, cookie: string) {
  const ws = new WebSocket(`${origin.replace("http", "ws")}/api/events`, {
    headers: { cookie, origin },
  } as unknown as string[]);
  const closed = new Promise<{ code: number; at: number }>((done) =>
    ws.onclose = (e) => done({ code: e.code, at: performance.now() })
  );
  await new Promise<void>((ready, fail) => {
    ws.onmessage = (m) => JSON.parse(String(m.data)).event === "ready" && ready();
    ws.onerror = () => fail(new Error("socket failed"));
  });
  return { ws, closed };
}

/** An event stream of `cookie`; `ended` resolves with the time the server ended it (and its last words). */
async function openEventStream(origin: string, cookie: string) {
  const events = await streamText(await fetch(`${origin}/api/events`, { headers: { cookie } }));
  assert.equal(events.status, 200);
  assert.ok(await events.until("event: ready"), "the stream is ready");
  const ended = events.ends(10_000).then((at) => ({ at: at ?? Infinity, text: events.text }));
  return { ended, cancel: events.close };
}

CASES.push([
  "sessions - a logout through one instance closes that session's stream and socket on another within 1 s",
  async ({ one, two }) => {
    const a = await one.member("live-logout-a@example.com");
    const b = await one.member("live-logout-b@example.com");
    const stream = await openEventStream(two.origin, a);
    const socket = await openSocket(two.origin, a);
    const others = await openSocket(two.origin, b);
    const t = performance.now();
    const res = await fetch(`${one.origin}/api/auth/logout`, {
      method: "POST",
      headers: { cookie: a, origin: one.origin },
    });
    assert.equal(res.status, 200);
    await res.body?.cancel();
    const [s, w] = await Promise.all([stream.ended, socket.closed]);
    console.log(`  stream ${(s.at - t).toFixed(0)} ms, socket ${(w.at - t).toFixed(0)} ms`);
    assert.ok(s.text.endsWith("event: end\ndata: session\n\n"), "the stream says why");
    assert.equal(w.code, 1008);
    assert.ok(Math.max(s.at, w.at) - t < 1000, "closed within 1 s");
    assert.equal(others.ws.readyState, WebSocket.OPEN, "another member's socket stays open");
    others.ws.close();
    await others.closed;
  },
]);

CASES.push([
  "sessions - 'log out everywhere else' closes the other sessions' sockets on another instance, never its own",
  async ({ one, two }) => {
    const email = "live-others-a@example.com";
    const a = await one.member(email);
    const set = await fetch(`${one.origin}/api/settings`, {
      method: "PUT",
      headers: { cookie: a, origin: one.origin, "content-type": "application/json" },
      body: JSON.stringify({ name: "A", email, password: "first password", currentPassword: "first password" }),
    });
    assert.equal(set.status, 200, await set.text());
    const thief = await logInByPassword(two.origin, email, "first password");
    const theirs = await openSocket(two.origin, thief);
    const mine = await openSocket(two.origin, a);
    const t = performance.now();
    const res = await fetch(`${one.origin}/api/sessions/end-others`, {
      method: "POST",
      headers: { cookie: a, origin: one.origin, "content-type": "application/json" },
      body: JSON.stringify({ currentPassword: "first password" }),
    });
    assert.equal(res.status, 200, await res.text());
    const w = await theirs.closed;
    assert.equal(w.code, 1008);
    assert.ok(w.at - t < 1000, `closed after ${(w.at - t).toFixed(0)} ms`);
    // Their socket was closed on instance two; a request of the session that asked, on two after
    // it, still goes through: an end of this session, had there been one, would be there first.
    assert.equal(await status(two.origin, a), 200, "the session that asked still works on the other instance");
    assert.equal(mine.ws.readyState, WebSocket.OPEN, "the session that asked keeps its socket");
    mine.ws.close();
    await mine.closed;
  },
]);

Deno.test({
  name: "sessions - across two instances on one store",
  sanitizeResources: false,
  async fn(t) {
    await withTwoInstances(async (pair) => {
      for (const [name, run] of CASES) await t.step(name, () => run(pair));
    });
  },
});
