import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { listReports } from "../../kv/reports.ts";
import { getNotification, listNotifications } from "../../kv/notifications.ts";
import { makeKeyPackages, newDevice, open, seal } from "../../islands/secret/mls.ts";
import { toBase64 } from "../../domain/franking.ts";
import { kv } from "../../kv/db.ts";
import { pauseSending } from "../../kv/moderation.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { SECRET_TEXTS } from "../../domain/secretChats.ts";
import { keys } from "../../kv/keys.ts";
import { createSession } from "../../kv/sessions.ts";
import { getAccountByEmail } from "../../kv/accounts.ts";
import { eventBus } from "../../kv/events.ts";
import type { MemberEvent } from "../../domain/shapes/events.ts";
import { memberWithDevice, startThroughApi } from "../../tests/fixtures/secretChats.ts";

Deno.test("secret chats - two members start one, exchange ciphertext, the store and the notification hold no text", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t), bob = await memberWithDevice(t);
    const bus = eventBus();
    await bus.start();
    const told: Record<string, MemberEvent[]> = { [alice.profileId]: [], [bob.profileId]: [] };
    const stops = Object.keys(told).map((id) => bus.subscribe(id, (e) => told[id].push(e)));
    const { chat, aliceState, bobState } = await startThroughApi(t, alice, bob);
    const sealed = await seal(aliceState, "Meet me behind the old mosque at nine");
    const sent = await t.call("POST", `/api/secret/chats/${chat.id}/messages`, {
      cookie: alice.cookie,
      json: {
        deviceId: alice.device.deviceId,
        ciphertext: sealed.ciphertextB64,
        commitment: sealed.commitmentB64,
        epoch: 1,
      },
    });
    assert.equal(sent.status, 201, sent.text);
    // Both members' open pages hear of the chat and of the message live, by the chat's id alone.
    await bus.tail();
    stops.forEach((stop) => stop());
    for (const id of [alice.profileId, bob.profileId]) {
      const secret = told[id].filter((e) => e.type === "secret");
      assert.deepEqual(secret, [
        { type: "secret", chatId: chat.id, what: "chat" },
        { type: "secret", chatId: chat.id, what: "message" },
      ]);
    }
    const got = await t.call("GET", `/api/secret/chats/${chat.id}/messages`, { cookie: bob.cookie });
    assert.equal(got.data.items.length, 1);
    const opened = await open(bobState, got.data.items[0].ciphertext, got.data.items[0].commitment);
    assert.equal(opened.text, "Meet me behind the old mosque at nine");

    const [note] = await listNotifications(bob.profileId);
    assert.equal(note.bodyText, "New secret message");
    // Nothing in the store reads as the text: every value of every key, as bytes.
    for await (const e of kv().list({ prefix: [] })) {
      assert.ok(
        !JSON.stringify(e.value ?? null, (_k, v) => typeof v === "bigint" ? String(v) : v).includes("mosque"),
        `no text under ${JSON.stringify(e.key)}`,
      );
    }
    // Nobody else reads the chat.
    const eve = await memberWithDevice(t);
    const peek = await t.call("GET", `/api/secret/chats/${chat.id}/messages`, { cookie: eve.cookie });
    assert.equal(peek.status, 404);
  } finally {
    t.close();
  }
});

Deno.test("secret chats - a report with the franking key verifies and reaches the admin queue; forged or altered ones are refused", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t), bob = await memberWithDevice(t);
    const { chat, aliceState, bobState } = await startThroughApi(t, alice, bob);
    const sealed = await seal(aliceState, "Send me money or I tell your family");
    const sent = await t.call("POST", `/api/secret/chats/${chat.id}/messages`, {
      cookie: alice.cookie,
      json: {
        deviceId: alice.device.deviceId,
        ciphertext: sealed.ciphertextB64,
        commitment: sealed.commitmentB64,
        epoch: 1,
      },
    });
    const opened = await open(bobState, sealed.ciphertextB64, sealed.commitmentB64);
    const url = `/api/secret/chats/${chat.id}/messages/${sent.data.message.id}/report`;

    const altered = await t.call("POST", url, {
      cookie: bob.cookie,
      json: { reason: "harassment", text: "Send me money or I hurt you", frankingKey: opened.frankingKeyB64 },
    });
    assert.equal(altered.status, 422);
    assert.equal(altered.data.error.code, "franking_mismatch");
    const forgedKey = await t.call("POST", url, {
      cookie: bob.cookie,
      json: {
        reason: "harassment",
        text: opened.text,
        frankingKey: toBase64(crypto.getRandomValues(new Uint8Array(32))),
      },
    });
    assert.equal(forgedKey.status, 422);
    assert.equal((await listReports()).length, 0, "no forged report filed");

    const byAuthor = await t.call("POST", url, {
      cookie: alice.cookie,
      json: { reason: "harassment", text: opened.text, frankingKey: opened.frankingKeyB64 },
    });
    assert.equal(byAuthor.status, 400);

    const ok = await t.call("POST", url, {
      cookie: bob.cookie,
      json: { reason: "harassment", text: opened.text, frankingKey: opened.frankingKeyB64 },
    });
    assert.equal(ok.status, 201, ok.text);
    const [report] = await listReports(alice.profileId);
    assert.equal(report.text, "[Verified secret message] Send me money or I tell your family");
    assert.equal(report.reporterProfileId, bob.profileId);
  } finally {
    t.close();
  }
});

Deno.test("secret chats - key packages are one-time, claimed per device; a member without a device cannot be added", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t), bob = await memberWithDevice(t, 1);
    const carol = await t.member();
    const none = await t.call("POST", "/api/secret/key-packages/claim", {
      cookie: alice.cookie,
      json: { deviceId: alice.device.deviceId, peerProfileId: carol.profileId },
    });
    assert.equal(none.status, 409);
    assert.equal(none.data.error.code, "peer_not_ready");
    assert.match(none.data.error.message, /cannot take part in a secret chat yet/);

    const first = await t.call("POST", "/api/secret/key-packages/claim", {
      cookie: alice.cookie,
      json: { deviceId: alice.device.deviceId, peerProfileId: bob.profileId },
    });
    assert.equal(first.status, 200);
    const second = await t.call("POST", "/api/secret/key-packages/claim", {
      cookie: alice.cookie,
      json: { deviceId: alice.device.deviceId, peerProfileId: bob.profileId },
    });
    assert.equal(second.status, 409, "Bob's only key package was used once");

    // Bob's device replenishes its stock.
    const more = await makeKeyPackages(bob.device, 2);
    const refill = await t.call("POST", `/api/secret/devices/${bob.device.deviceId}/key-packages`, {
      cookie: bob.cookie,
      json: { keyPackages: more.map((k) => k.publicB64) },
    });
    assert.equal(refill.status, 200);
    assert.equal(refill.data.stock, 2);
  } finally {
    t.close();
  }
});

Deno.test("secret chats - a claim refused because one of the member's devices has no key package left uses up none of the others'", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t), bob = await memberWithDevice(t, 2);
    // Bob's second device, on another session, with no key package.
    const account = (await getAccountByEmail(bob.email))!;
    const other = await createSession(account.id, true, "Tablet", "link");
    // Its id sorts after the phone's: the phone's key package would be taken first.
    const tablet = await newDevice(bob.profileId, `zz${crypto.randomUUID().slice(0, 10)}`);
    const reg = await t.call("POST", "/api/secret/devices", {
      cookie: `__Host-sid=${other.token}`,
      json: { deviceId: tablet.deviceId, keyPackages: [] },
    });
    assert.equal(reg.status, 201, reg.text);
    const claim = await t.call("POST", "/api/secret/key-packages/claim", {
      cookie: alice.cookie,
      json: { deviceId: alice.device.deviceId, peerProfileId: bob.profileId },
    });
    assert.equal(claim.status, 409);
    assert.equal(claim.data.error.code, "peer_not_ready");
    const left = await Array.fromAsync(
      kv().list({ prefix: keys.secretKeyPackagesOf(bob.profileId, bob.device.deviceId) }),
    );
    assert.equal(left.length, 2, "the phone's key packages are all still there");
  } finally {
    t.close();
  }
});

Deno.test("secret chats - ownership and bad input: another's device or key package, garbage, strangers: 4xx", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t), bob = await memberWithDevice(t);
    // Key packages made for Bob's device cannot be uploaded by Alice, nor for another device id.
    const bobsKp = (await makeKeyPackages(bob.device, 1))[0].publicB64;
    const asAlice = await t.call("POST", `/api/secret/devices/${alice.device.deviceId}/key-packages`, {
      cookie: alice.cookie,
      json: { keyPackages: [bobsKp] },
    });
    assert.equal(asAlice.status, 400);
    const othersDevice = await t.call("POST", `/api/secret/devices/${bob.device.deviceId}/key-packages`, {
      cookie: alice.cookie,
      json: { keyPackages: [bobsKp] },
    });
    assert.equal(othersDevice.status, 403);
    const cases: [string, string, unknown, number][] = [
      ["POST", "/api/secret/devices", { deviceId: "x", keyPackages: ["not base64!"] }, 400],
      ["POST", "/api/secret/devices", { deviceId: "x", keyPackages: [toBase64(new Uint8Array(40))] }, 400],
      ["POST", "/api/secret/key-packages/claim", { deviceId: bob.device.deviceId, peerProfileId: bob.profileId }, 403],
      [
        "POST",
        "/api/secret/key-packages/claim",
        { deviceId: alice.device.deviceId, peerProfileId: alice.profileId },
        400,
      ],
      ["POST", "/api/secret/chats/nochat/messages", { deviceId: alice.device.deviceId }, 404],
    ];
    for (const [method, path, json, status] of cases) {
      const r = await t.call(method, path, { cookie: alice.cookie, json });
      assert.equal(r.status, status, `${path} ${JSON.stringify(json)}: ${r.text}`);
    }
    const anon = await t.call("GET", "/api/secret/chats");
    assert.equal(anon.status, 401);

    const { chat } = await startThroughApi(t, alice, bob);
    // Bob cannot send as Alice's device; a commitment must be 32 bytes.
    const asOther = await t.call("POST", `/api/secret/chats/${chat.id}/messages`, {
      cookie: bob.cookie,
      json: { deviceId: alice.device.deviceId, ciphertext: "AAAA", commitment: toBase64(new Uint8Array(32)), epoch: 1 },
    });
    assert.equal(asOther.status, 403);
    const shortCommitment = await t.call("POST", `/api/secret/chats/${chat.id}/messages`, {
      cookie: bob.cookie,
      json: { deviceId: bob.device.deviceId, ciphertext: "AAAA", commitment: toBase64(new Uint8Array(8)), epoch: 1 },
    });
    assert.equal(shortCommitment.status, 400);
  } finally {
    t.close();
  }
});

Deno.test("secret chats - one notification per chat until read; reading sends the receipt and clears it", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t), bob = await memberWithDevice(t);
    const { chat, aliceState } = await startThroughApi(t, alice, bob);
    let state = aliceState;
    const ids: string[] = [];
    for (const text of ["one", "two"]) {
      const sealed = await seal(state, text);
      state = sealed.state;
      const r = await t.call("POST", `/api/secret/chats/${chat.id}/messages`, {
        cookie: alice.cookie,
        json: {
          deviceId: alice.device.deviceId,
          ciphertext: sealed.ciphertextB64,
          commitment: sealed.commitmentB64,
          epoch: 1,
        },
      });
      ids.push(r.data.message.id);
    }
    const notes = await listNotifications(bob.profileId);
    assert.deepEqual(notes.map((n) => n.bodyText), ["New secret message"], "one for the chat, not one per message");
    const inSpanish = await getNotification(bob.profileId, notes[0].id, "es");
    assert.equal(inSpanish?.bodyText, "Nuevo mensaje secreto", "in the reader's language, as the push says it");

    const before = await t.call("GET", `/api/secret/chats/${chat.id}/messages`, { cookie: alice.cookie });
    assert.equal(before.data.otherReadUpTo, null);
    const own = await t.call("POST", `/api/secret/chats/${chat.id}/read`, {
      cookie: alice.cookie,
      json: { messageId: ids[1] },
    });
    assert.equal(own.status, 404, "a member reads the other's messages, not their own");
    const bus = eventBus();
    await bus.start();
    const told: MemberEvent[] = [];
    const stop = bus.subscribe(alice.profileId, (e) => told.push(e));
    const read = await t.call("POST", `/api/secret/chats/${chat.id}/read`, {
      cookie: bob.cookie,
      json: { messageId: ids[1] },
    });
    assert.equal(read.status, 200);
    await bus.tail();
    stop();
    assert.deepEqual(
      told.filter((e) => e.type === "secret"),
      [{ type: "secret", chatId: chat.id, what: "read" }],
      "the sender's open screen hears of the receipt live",
    );
    const after = await t.call("GET", `/api/secret/chats/${chat.id}/messages`, { cookie: alice.cookie });
    assert.equal(after.data.otherReadUpTo, ids[1]);
    assert.equal((await listNotifications(bob.profileId)).length, 0, "read: the notification is gone");
    // A receipt never goes back.
    await t.call("POST", `/api/secret/chats/${chat.id}/read`, { cookie: bob.cookie, json: { messageId: ids[0] } });
    const still = await t.call("GET", `/api/secret/chats/${chat.id}/messages`, { cookie: alice.cookie });
    assert.equal(still.data.otherReadUpTo, ids[1]);
  } finally {
    t.close();
  }
});

Deno.test("secret chats - where being gay is a crime, a conversation suggests a secret chat; elsewhere it does not", async () => {
  const t = await testApp();
  try {
    const atRisk = await t.member(), safe = await t.member(), other = await t.member();
    await reportPosition(atRisk.profileId, { lat: -1.2864, lon: 36.8172, use: "OVERRIDE", hide: false }); // Nairobi
    await reportPosition(safe.profileId, { lat: 52.52, lon: 13.405, use: "OVERRIDE", hide: false }); // Berlin
    await reportPosition(other.profileId, { lat: 52.53, lon: 13.41, use: "OVERRIDE", hide: false });
    const page = (cookie: string) => t.call("GET", `/profile/${other.profileId}`, { cookie });
    const there = await page(atRisk.cookie);
    assert.equal(there.status, 200);
    assert.ok(there.text.includes(SECRET_TEXTS.suggest), "the suggestion shows under the chat's header");
    const here = await page(safe.cookie);
    assert.equal(here.status, 200);
    assert.ok(!here.text.includes(SECRET_TEXTS.suggest));
  } finally {
    t.close();
  }
});

Deno.test("secret chats - a paused sender cannot send or start one; members who blocked each other cannot either", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t), bob = await memberWithDevice(t, 4);
    const { chat, aliceState } = await startThroughApi(t, alice, bob);
    const sealed = await seal(aliceState, "hi");
    const msg = {
      deviceId: alice.device.deviceId,
      ciphertext: sealed.ciphertextB64,
      commitment: sealed.commitmentB64,
      epoch: 1,
    };
    await pauseSending(alice.profileId, "test");
    const paused = await t.call("POST", `/api/secret/chats/${chat.id}/messages`, { cookie: alice.cookie, json: msg });
    assert.equal(paused.status, 403);
    assert.equal(paused.data.error.code, "sending_paused");
    const start = await t.call("POST", "/api/secret/key-packages/claim", {
      cookie: alice.cookie,
      json: { deviceId: alice.device.deviceId, peerProfileId: bob.profileId },
    });
    assert.equal(start.data.error.code, "sending_paused");

    const bobBlocks = await t.call("PUT", "/api/profile-like", {
      cookie: bob.cookie,
      json: { likerProfileId: bob.profileId, likedProfileId: alice.profileId, likeType: "UNDETERMINED", blocked: true },
    });
    assert.ok(bobBlocks.status < 300, bobBlocks.text);
    const toBlocked = await seal(aliceState, "still there?");
    const blocked = await t.call("POST", `/api/secret/chats/${chat.id}/messages`, {
      cookie: bob.cookie,
      json: {
        deviceId: bob.device.deviceId,
        ciphertext: toBlocked.ciphertextB64,
        commitment: toBlocked.commitmentB64,
        epoch: 1,
      },
    });
    assert.equal(blocked.status, 404, "Bob blocked Alice: no secret message to her");
  } finally {
    t.close();
  }
});

Deno.test("secret chats - the conversations list marks the conversation that has a secret chat, and says nothing of it", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t), bob = await memberWithDevice(t), carl = await memberWithDevice(t);
    for (const to of [bob, carl]) {
      const r = await t.call("POST", "/api/message", {
        cookie: alice.cookie,
        json: { senderProfileId: alice.profileId, recipientProfileId: to.profileId, bodyText: "hi", profilePicIds: [] },
      });
      assert.equal(r.status, 201, r.text);
    }
    const before = await t.call("GET", `/api/messages/most-recent-with/${alice.profileId}`, { cookie: alice.cookie });
    assert.equal(before.data.items.length, 2);
    assert.equal(before.data.secretWith, undefined, "no secret chat yet: no marker");

    await startThroughApi(t, alice, bob);
    for (const [me, other] of [[alice, bob], [bob, alice]] as const) {
      const list = await t.call("GET", `/api/messages/most-recent-with/${me.profileId}`, { cookie: me.cookie });
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(list.data.secretWith, [other.profileId], "only the conversation with the secret chat");
    }
    // The page's first render says the same.
    const page = await t.call("GET", "/chat/personal", { cookie: alice.cookie });
    assert.equal(page.status, 200);
    assert.equal(page.text.split("secret-marker").length - 1, 1, "one lock, on Bob's conversation");
    assert.ok(page.text.includes('aria-label="Secret chat"'));
  } finally {
    t.close();
  }
});

/** Uploads encrypted picture bytes to a chat as the page does. */
