import assert from "node:assert/strict";
import { pause, until } from "../../tests/wait.ts";
import { streamText } from "../../tests/sse.ts";
import { testApp } from "../../tests/api.ts";
import { notify } from "../../kv/notifications.ts";
import { eventStreams } from "../telemetry.ts";
import { closeEventStreams, RECONNECT_HINT_MS } from "./events.ts";
import { eventBus } from "../../kv/events.ts";
import { LOG_START } from "../../kv/changeLog.ts";
import { MAX_FEEDS_PER_ADDRESS, MAX_FEEDS_PER_MEMBER } from "../memberFeed.ts";

Deno.test("events - the event stream carries a member's notification event at once", async () => {
  const t = await testApp();
  try {
    const a = await t.member();
    const res = await t.app.request("http://localhost/api/events", { headers: { cookie: a.cookie } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type")!, /text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("event: ready")) text += (await reader.read()).value;
    const before = performance.now();
    await notify(a.profileId, { bodyText: "Hi" });
    while (!text.includes('event: member\ndata: {"type":"notifications"}\n')) text += (await reader.read()).value;
    assert.ok(performance.now() - before < 1000, "well under a second");
    await reader.cancel();
    assert.equal((await t.app.request("http://localhost/api/events")).status, 401);
  } finally {
    t.close();
  }
});

/** How many event streams this instance holds open (the telemetry gauge). */
const openStreams = () => Promise.resolve(eventStreams.open);

/** Waits until at most `count` event streams are open, or `withinMs` have passed; the count then. */
async function streamsDownTo(count: number, withinMs: number): Promise<number> {
  await until(async () => await openStreams() <= count, "the streams to end", { timeoutMs: withinMs }).catch(() => {});
  return await openStreams();
}

Deno.test("events - an event stream whose client never reads ends at shutdown instead of waiting for ever", async () => {
  const t = await testApp();
  try {
    const a = await t.member();
    const before = await openStreams();
    // A client that vanished unnoticed: its answer is never read, so the first write waits for a taker.
    const res = await t.app.request("http://localhost/api/events", { headers: { cookie: a.cookie } });
    assert.equal(res.status, 200);
    // The event reaches this listener after the stream's own (subscribed first), so once it is
    // here the stream is writing it to the client that never reads: the write that waits.
    const delivered = new Promise<void>((done) => {
      const off = eventBus().subscribe(a.profileId, () => (off(), done()));
    });
    await notify(a.profileId, { bodyText: "Hi" });
    await delivered;
    await pause(0); // a turn: the stream's write has started
    assert.equal(await openStreams(), before + 1);
    closeEventStreams();
    assert.equal(await streamsDownTo(before, 1000), before, "the stream ended");
    // Its answer ends too (nothing holds the server's shutdown).
    const reader = res.body!.getReader();
    while (!(await reader.read()).done) { /* what was written before the end */ }
  } finally {
    t.close();
  }
});

Deno.test("events - at shutdown, a stream whose client took nothing since it opened ends once the reconnect hint has waited its bound", async () => {
  const t = await testApp();
  try {
    const a = await t.member();
    const before = await openStreams();
    // Nothing read, nothing pending: the reconnect hint is the write that waits, for at most its bound.
    await t.app.request("http://localhost/api/events", { headers: { cookie: a.cookie } });
    assert.equal(await openStreams(), before + 1);
    closeEventStreams();
    assert.equal(await streamsDownTo(before, RECONNECT_HINT_MS + 2000), before, "the stream ended");
  } finally {
    t.close();
  }
});

/** An open event stream of `cookie`, read as text; `after` names the last event seen (Last-Event-ID). */
async function openStream(
  t: Awaited<ReturnType<typeof testApp>>,
  cookie: string,
  opts: { after?: string; address?: string } = {},
) {
  const headers: Record<string, string> = { cookie };
  if (opts.after) headers["last-event-id"] = opts.after;
  const env = opts.address ? { remoteAddr: { hostname: opts.address, port: 40000, transport: "tcp" } } : undefined;
  const res = await t.app.request("http://localhost/api/events", { headers }, env);
  const s = await streamText(res);
  if (s.status === 200) await s.until("event: ready");
  return s;
}

const sendMessage = (
  t: Awaited<ReturnType<typeof testApp>>,
  from: { cookie: string; profileId: string },
  to: string,
  text: string,
) =>
  t.call("POST", "/api/message", {
    cookie: from.cookie,
    json: { senderProfileId: from.profileId, recipientProfileId: to, bodyText: text, profilePicIds: [] },
  });

Deno.test("events - a page that reconnects with the last event it saw gets what it missed, once, then the live ones", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    const first = await openStream(t, b.cookie);
    const one = (await sendMessage(t, a, b.profileId, "before the drop")).data.id;
    assert.ok(await first.until(one));
    const seen = first.text.match(/data: [^\n]*"id":"([^"]+)"[^\n]*\nid: ([0-9a-f]{20})/)!;
    assert.equal(seen[1], one);
    await first.close();

    // While the page is away: two messages and a read of its own.
    const two = (await sendMessage(t, a, b.profileId, "while away 1")).data.id;
    const three = (await sendMessage(t, a, b.profileId, "while away 2")).data.id;
    const back = await openStream(t, b.cookie, { after: seen[2] });
    assert.ok(await back.until(three), "the missed messages come first");
    assert.ok(!back.text.includes("event: reset"), `the cursor it saw is still in the log:\n${back.text}`);
    assert.ok(back.text.includes(`"id":"${two}"`), `the first missed message comes too:\n${back.text}`);
    assert.ok(back.text.indexOf(two) < back.text.indexOf(three), "in order");
    assert.ok(!back.text.includes(`"id":"${one}"`), "nothing it saw comes again");
    const four = (await sendMessage(t, a, b.profileId, "live again")).data.id;
    assert.ok(await back.until(four), "then the live events");
    assert.equal(back.text.split(`"id":"${two}"`).length, 2, "each once");
    await back.close();

    // A cursor that left the log: the page is told to read its data again; a malformed one is refused.
    const gone = await openStream(t, b.cookie, { after: "0".repeat(19) + "1" });
    assert.ok(await gone.until("event: reset"));
    await gone.close();
    const bad = await t.app.request("http://localhost/api/events", {
      headers: { cookie: b.cookie, "last-event-id": "not-a-cursor" },
    });
    assert.equal(bad.status, 400);
    await bad.body?.cancel();
  } finally {
    t.close();
  }
});

/** The cursor a member's page names for its first feed (its `events-after` meta). */
async function pageCursor(t: Awaited<ReturnType<typeof testApp>>, cookie: string, path: string): Promise<string> {
  const res = await t.app.request(`http://localhost${path}`, { headers: { cookie } });
  assert.equal(res.status, 200);
  const cursor = (await res.text()).match(/<meta name="events-after" content="([0-9a-f]{20})"/)?.[1];
  assert.ok(cursor, `${path} names the cursor its feed starts from`);
  return cursor;
}

Deno.test("events - a page's first feed gets what was written while the page loaded, with the log empty or not", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    // Nothing in the log yet; a like comes after the page was read and before its feed opens.
    const empty = await pageCursor(t, b.cookie, "/notifications");
    assert.equal(empty, LOG_START, "the log held nothing as the page was read");
    const liked = await t.call("PUT", "/api/profile-like", {
      cookie: a.cookie,
      json: { likerProfileId: a.profileId, likedProfileId: b.profileId, likeType: "LIKE" },
    });
    assert.equal(liked.status, 200);
    const first = await openStream(t, b.cookie, { after: empty });
    assert.ok(await first.until('"type":"notifications"'), `the like's notification comes first:\n${first.text}`);
    assert.ok(!first.text.includes("event: reset"), first.text);
    await first.close();

    // With events in the log and this instance's tail past them (the page's cursor is then a real
    // entry's): a message written after the conversations page was read comes first too.
    await eventBus().tail();
    const later = await pageCursor(t, b.cookie, "/chat/personal");
    assert.notEqual(later, LOG_START);
    const id = (await sendMessage(t, a, b.profileId, "while the page loads")).data.id;
    const second = await openStream(t, b.cookie, { after: later });
    assert.ok(await second.until(id), `the message comes first:\n${second.text}`);
    assert.ok(!second.text.includes("event: reset"), second.text);
    await second.close();
  } finally {
    t.close();
  }
});

Deno.test("events - a member holds at most 10 streams (the oldest ends), an address at most 100", async () => {
  const t = await testApp();
  try {
    const a = await t.member();
    const streams = [];
    for (let i = 0; i < MAX_FEEDS_PER_MEMBER; i++) streams.push(await openStream(t, a.cookie, { address: "10.1.1.1" }));
    const eleventh = await openStream(t, a.cookie, { address: "10.1.1.1" });
    assert.ok(await streams[0].until("event: end\ndata: replaced"), "the oldest ends, saying why");
    assert.ok(!(await streams[1].until("event: end", 300)), "the others stay");
    for (const s of [...streams, eleventh]) await s.close();

    // Many members behind one address (a carrier's NAT) share its cap.
    const open = [];
    const members = [];
    for (let i = 0; i < MAX_FEEDS_PER_ADDRESS / MAX_FEEDS_PER_MEMBER; i++) {
      members.push(await t.member(undefined, { address: `10.9.0.${i}` }));
    }
    for (const m of members) {
      for (let i = 0; i < MAX_FEEDS_PER_MEMBER; i++) open.push(await openStream(t, m.cookie, { address: "10.2.2.2" }));
    }
    const over = await openStream(t, a.cookie, { address: "10.2.2.2" });
    assert.equal(over.status, 429);
    const elsewhere = await openStream(t, a.cookie, { address: "10.3.3.3" });
    assert.equal(elsewhere.status, 200);
    await elsewhere.close();
    for (const s of open) await s.close();
  } finally {
    t.close();
  }
});
