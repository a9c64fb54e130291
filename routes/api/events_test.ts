import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { notify } from "../../kv/notifications.ts";
import { eventStreams } from "../telemetry.ts";
import { closeEventStreams, RECONNECT_HINT_MS } from "./events.ts";
import { eventBus } from "../../kv/events.ts";

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
const openStreams = async () => (await eventStreams.get()).values[0]?.value ?? 0;

/** Waits until at most `count` event streams are open, or `withinMs` have passed; the count then. */
async function streamsDownTo(count: number, withinMs: number): Promise<number> {
  const deadline = Date.now() + withinMs;
  while (await openStreams() > count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
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
    await new Promise((r) => setTimeout(r, 0));
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
