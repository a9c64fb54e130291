import assert from "node:assert/strict";
import { commitsWhile, kvTest } from "../tests/kv.ts";
import { kv, wrapKv } from "./db.ts";
import { keys } from "./keys.ts";
import { readConversation, sendPrivateMessage } from "./messages.ts";
import { readChatNotification } from "./notifications.ts";
import type { MemberEvent } from "../domain/shapes/events.ts";

/** Every event in the change log, with whom it is for. */
async function loggedEvents(): Promise<{ to: string[]; event: MemberEvent }[]> {
  const entries = await Array.fromAsync(
    kv().list<{ events: { to: string[]; event: MemberEvent }[] }>({ prefix: keys.eventLogAll() }),
  );
  return entries.flatMap((e) => e.value.events);
}

/** The recipient's count of unread messages from `sender` (what their notification says). */
async function unreadCount(recipient: string, sender: string): Promise<number> {
  return Number((await readChatNotification(recipient, sender)).count.value?.value ?? 0n);
}

kvTest(
  "messages - sends at once from many members commit together: each message, row, count and event lands",
  async () => {
    const n = 24;
    const { result, commits } = await commitsWhile(() =>
      Promise.all(Array.from({ length: n }, (_, i) => sendPrivateMessage(`s${i}`, `r${i % 4}`, `hello ${i}`, [])))
    );
    assert.ok(commits < n, `${commits} commits for ${n} messages`);
    for (const [i, m] of result.entries()) {
      assert.equal((await kv().get<{ bodyText: string }>(keys.message(m.id))).value?.bodyText, `hello ${i}`);
      assert.equal((await kv().get(keys.conversationMessage(`r${i % 4}`, `s${i}`, m.id))).value, m.id);
      assert.equal((await kv().get(keys.conversationMessage(`s${i}`, `r${i % 4}`, m.id))).value, m.id);
      assert.equal(await unreadCount(`r${i % 4}`, `s${i}`), 1);
    }
    const events = await loggedEvents();
    assert.deepEqual(
      events.filter((e) => e.event.type === "message").map((e) => (e.event as { id: string }).id).sort(),
      result.map((m) => m.id).sort(),
    );
    assert.equal(events.filter((e) => e.event.type === "notifications").length, n);
  },
);

kvTest("messages - a member's sends at once each count, and each idempotency key keeps one message", async () => {
  const sends = await Promise.all([
    sendPrivateMessage("a", "b", "one", [], { sendKey: "k1" }),
    sendPrivateMessage("a", "b", "one again", [], { sendKey: "k1" }),
    sendPrivateMessage("a", "b", "two", [], { sendKey: "k2" }),
    sendPrivateMessage("a", "b", "three", [], { sendKey: "k3" }),
  ]);
  assert.equal(sends[1].id, sends[0].id, "the retry gets the first message back");
  const rows = await Array.fromAsync(kv().list<string>({ prefix: keys.conversation("b", "a") }));
  assert.equal(rows.length, 3);
  assert.equal(await unreadCount("b", "a"), 3);
});

kvTest(
  "messages - reads of many conversations at once commit together; each marks its own and tells its sender",
  async () => {
    const n = 12;
    const sent = await Promise.all(Array.from({ length: n }, (_, i) => sendPrivateMessage(`s${i}`, `r${i}`, "hi", [])));
    const { result, commits } = await commitsWhile(() =>
      Promise.all(Array.from({ length: n }, (_, i) => readConversation(`r${i}`, `s${i}`)))
    );
    assert.deepEqual(result, Array(n).fill(1));
    assert.ok(commits < n, `${commits} commits for ${n} reads`);
    for (const [i, m] of sent.entries()) {
      assert.equal(
        typeof (await kv().get<{ tsRecipientRead?: number }>(keys.message(m.id))).value?.tsRecipientRead,
        "number",
      );
      assert.equal(await unreadCount(`r${i}`, `s${i}`), 0);
    }
    const reads = (await loggedEvents()).filter((e) => e.event.type === "read");
    assert.deepEqual(reads.map((e) => e.to[0]).sort(), sent.map((_, i) => `s${i}`).sort());
  },
);

kvTest(
  "messages - a read marks every unread message among the reader's own answers, back to the first one read before",
  async () => {
    const first = await sendPrivateMessage("s", "r", "one", []);
    assert.equal(await readConversation("r", "s"), 1);
    const readAt = (await kv().get<{ tsRecipientRead?: number }>(keys.message(first.id))).value?.tsRecipientRead;
    // Unread from s, with r's own answers between them (which a read of s's messages leaves alone).
    const unread = [];
    for (const [from, to, text] of [["s", "r", "two"], ["r", "s", "three"], ["s", "r", "four"], ["r", "s", "five"]]) {
      const m = await sendPrivateMessage(from, to, text, []);
      if (from === "s") unread.push(m.id);
    }
    for (let i = 0; i < 12; i++) unread.push((await sendPrivateMessage("s", "r", `more ${i}`, [])).id);
    assert.equal(await unreadCount("r", "s"), 14);
    assert.equal(await readConversation("r", "s"), 14);
    for (const id of unread) {
      assert.equal(
        typeof (await kv().get<{ tsRecipientRead?: number }>(keys.message(id))).value?.tsRecipientRead,
        "number",
      );
    }
    assert.equal(
      (await kv().get<{ tsRecipientRead?: number }>(keys.message(first.id))).value?.tsRecipientRead,
      readAt,
      "the message read before is left as it was",
    );
    assert.equal(await unreadCount("r", "s"), 0);
    assert.equal(await readConversation("r", "s"), 0);
  },
);

kvTest(
  "messages - a read clears the conversation's notification and its count, reading the notification's record alone",
  async () => {
    for (const text of ["one", "two"]) await sendPrivateMessage("s", "r", text, []);
    assert.equal(await unreadCount("r", "s"), 2);
    // The keys read in batches from here.
    const read: Deno.KvKey[] = [];
    wrapKv((db) =>
      new Proxy(db, {
        get(target, prop) {
          if (prop === "getMany") {
            return (asked: Deno.KvKey[], o?: { consistency?: Deno.KvConsistencyLevel }) => {
              read.push(...asked);
              return target.getMany(asked, o);
            };
          }
          const v = Reflect.get(target, prop, target);
          return typeof v === "function" ? v.bind(target) : v;
        },
      })
    );
    assert.equal(await readConversation("r", "s"), 2);
    const tables = read.map((k) => k[0]);
    assert.ok(tables.includes(keys.notificationsOf("r")[0]), "the notification's record is read (and checked)");
    assert.ok(!tables.includes(keys.notificationCountsOf("r")[0]), "its count is not read");
    // Both are gone: the next message starts a new notification, at 1.
    assert.equal(await unreadCount("r", "s"), 0);
    assert.equal((await Array.fromAsync(kv().list({ prefix: keys.notificationsOf("r") }))).length, 0);
    await sendPrivateMessage("s", "r", "three", []);
    assert.equal(await unreadCount("r", "s"), 1);
  },
);
