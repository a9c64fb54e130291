import assert from "node:assert/strict";
import { ORIGIN, testApp } from "../../tests/api.ts";
import { getBlobMeta } from "../../kv/blobs.ts";
import { deleteSecretPicturesOf, getSecretPicture, secretPictureBlobId } from "../../kv/secretChats.ts";
import {
  frankedText,
  openPicture,
  type PictureRef,
  sealPicture,
  SECRET_PICTURE_MAX_BYTES,
} from "../../domain/secretPictures.ts";
import { listReports } from "../../kv/reports.ts";
import { getNotification, listNotifications } from "../../kv/notifications.ts";
import {
  addDevice,
  applyCommit,
  joinChat,
  makeKeyPackages,
  newDevice,
  open,
  readKeyPackage,
  removeDevices,
  seal,
  startChat,
} from "../../islands/secret/mls.ts";
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

type T = Awaited<ReturnType<typeof testApp>>;

/** A member with a device registered with `stock` key packages. */
async function memberWithDevice(t: T, stock = 3) {
  const m = await t.member();
  const device = await newDevice(m.profileId, crypto.randomUUID().slice(0, 12));
  const kps = await makeKeyPackages(device, stock);
  const r = await t.call("POST", "/api/secret/devices", {
    cookie: m.cookie,
    json: { deviceId: device.deviceId, keyPackages: kps.map((k) => k.publicB64) },
  });
  assert.equal(r.status, 201, r.text);
  return { ...m, device, kps };
}

/** Alice starts a secret chat with Bob through the API, as the page does; Bob joins from the stored Welcome. */
async function startThroughApi(
  t: T,
  alice: Awaited<ReturnType<typeof memberWithDevice>>,
  bob: Awaited<ReturnType<typeof memberWithDevice>>,
) {
  const claim = await t.call("POST", "/api/secret/key-packages/claim", {
    cookie: alice.cookie,
    json: { deviceId: alice.device.deviceId, peerProfileId: bob.profileId },
  });
  assert.equal(claim.status, 200, claim.text);
  const peer = await readKeyPackage(claim.data.devices[0].keyPackage);
  assert.ok(peer);
  const started = await startChat(alice.kps[0], [peer.keyPackage]);
  const created = await t.call("POST", "/api/secret/chats", {
    cookie: alice.cookie,
    json: {
      deviceId: alice.device.deviceId,
      peerProfileId: bob.profileId,
      peerDevices: [claim.data.devices[0].deviceId],
      groupId: started.groupId,
      welcome: started.welcomeB64,
      ratchetTree: started.ratchetTreeB64,
    },
  });
  assert.equal(created.status, 201, created.text);
  const list = await t.call("GET", "/api/secret/chats", { cookie: bob.cookie });
  const chat = list.data.items[0];
  assert.equal(chat.id, created.data.chat.id);
  const bobKp = bob.kps.find((k) => k.ref === peer.ref)!;
  const bobState = await joinChat(chat.welcome, chat.ratchetTree, bobKp);
  return { chat, aliceState: started.state, bobState };
}

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

Deno.test("secret chats - logging out removes the device: its key packages go and it is marked removed in its chats", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t), bob = await memberWithDevice(t, 3);
    const { chat } = await startThroughApi(t, alice, bob);
    const out = await t.call("POST", "/api/auth/logout", { cookie: bob.cookie });
    assert.ok(out.status < 400, out.text);
    const claim = await t.call("POST", "/api/secret/key-packages/claim", {
      cookie: alice.cookie,
      json: { deviceId: alice.device.deviceId, peerProfileId: bob.profileId },
    });
    assert.equal(claim.status, 409, "Bob has no live device left");
    const left = await Array.fromAsync(kv().list({ prefix: ["secret_key_packages", bob.profileId] }));
    assert.equal(left.length, 0, "its key packages are deleted");
    const list = await t.call("GET", "/api/secret/chats", { cookie: alice.cookie });
    const bobsDevice = list.data.items.find((c: { id: string }) => c.id === chat.id).devices
      .find((d: { profileId: string }) => d.profileId === bob.profileId);
    assert.equal(bobsDevice.removed, true);
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

Deno.test("secret chats - 'log out elsewhere' removes the other session's device from secret chats", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t), bob = await memberWithDevice(t, 3);
    const { chat } = await startThroughApi(t, alice, bob);
    // Bob logs in again elsewhere, freshly, and from there ends every other session.
    const token = await t.registerAndGetToken(bob.email);
    const login = await t.call("POST", "/api/auth", { form: { token } });
    const here = t.cookieOf(login.headers);
    const ended = await t.call("POST", "/api/sessions/end-others", { cookie: here, json: {} });
    assert.equal(ended.status, 200, ended.text);
    // The old session's device can no longer send, and no one can add it to a chat.
    const send = await t.call("POST", `/api/secret/chats/${chat.id}/messages`, {
      cookie: here,
      json: { deviceId: bob.device.deviceId, ciphertext: "AAAA", commitment: toBase64(new Uint8Array(32)), epoch: 1 },
    });
    assert.equal(send.status, 403, "the removed device is not this session's");
    const claim = await t.call("POST", "/api/secret/key-packages/claim", {
      cookie: alice.cookie,
      json: { deviceId: alice.device.deviceId, peerProfileId: bob.profileId },
    });
    assert.equal(claim.status, 409);
    assert.equal((await Array.fromAsync(kv().list({ prefix: ["secret_key_packages", bob.profileId] }))).length, 0);
    const list = await t.call("GET", "/api/secret/chats", { cookie: alice.cookie });
    const removed = list.data.items[0].devices.find((d: { profileId: string }) => d.profileId === bob.profileId);
    assert.equal(removed.removed, true);
    // Re-registering the removed id from the new session is refused: the new session makes a device of its own.
    const again = await t.call("POST", "/api/secret/devices", {
      cookie: here,
      json: { deviceId: bob.device.deviceId, keyPackages: [] },
    });
    assert.equal(again.status, 409);
  } finally {
    t.close();
  }
});

Deno.test("secret chats - a second device joins only when a device already in the chat approves it", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t), bob = await memberWithDevice(t);
    const { chat, aliceState, bobState } = await startThroughApi(t, alice, bob);
    // Alice logs in on a second device, which registers and asks to join.
    const token = await t.registerAndGetToken(alice.email);
    const phone2 = t.cookieOf((await t.call("POST", "/api/auth", { form: { token } })).headers);
    const a2 = await newDevice(alice.profileId, "alice-second-phone");
    const a2Kps = await makeKeyPackages(a2, 2);
    await t.call("POST", "/api/secret/devices", {
      cookie: phone2,
      json: { deviceId: a2.deviceId, keyPackages: a2Kps.map((k) => k.publicB64) },
    });
    const asked = await t.call("POST", `/api/secret/chats/${chat.id}/join`, {
      cookie: phone2,
      json: { deviceId: a2.deviceId },
    });
    assert.equal(asked.status, 200, asked.text);
    assert.deepEqual(asked.data.chat.pending.map((d: { deviceId: string }) => d.deviceId), [a2.deviceId]);

    // Bob cannot take Alice's pending device's key package, nor approve it.
    const bobTakes = await t.call("POST", `/api/secret/chats/${chat.id}/pending/${a2.deviceId}/key-package`, {
      cookie: bob.cookie,
    });
    assert.equal(bobTakes.status, 404);
    // The new device cannot approve itself: it is not in the chat.
    const selfApprove = await t.call("POST", `/api/secret/chats/${chat.id}/approve`, {
      cookie: phone2,
      json: {
        deviceId: a2.deviceId,
        newDeviceId: a2.deviceId,
        commit: "AAAA",
        welcome: "AAAA",
        ratchetTree: "AAAA",
        epoch: 2,
      },
    });
    assert.equal(selfApprove.status, 403);

    // Alice's first device approves: it takes the key package and commits the add.
    const kp = await t.call("POST", `/api/secret/chats/${chat.id}/pending/${a2.deviceId}/key-package`, {
      cookie: alice.cookie,
    });
    assert.equal(kp.status, 200, kp.text);
    const read = await readKeyPackage(kp.data.keyPackage);
    const added = await addDevice(aliceState, read!.keyPackage);
    const approved = await t.call("POST", `/api/secret/chats/${chat.id}/approve`, {
      cookie: alice.cookie,
      json: {
        deviceId: alice.device.deviceId,
        newDeviceId: a2.deviceId,
        commit: added.commitB64,
        welcome: added.welcomeB64,
        ratchetTree: added.ratchetTreeB64,
        epoch: 2,
      },
    });
    assert.equal(approved.status, 201, approved.text);
    assert.equal(approved.data.chat.pending.length, 0);
    assert.equal(approved.data.message.kind, "commit");

    // Bob's device applies the commit from the chat's messages; the new device joins from its Welcome.
    const msgs = await t.call("GET", `/api/secret/chats/${chat.id}/messages`, { cookie: bob.cookie });
    const bobNext = await applyCommit(bobState, msgs.data.items[0].ciphertext);
    const join = approved.data.chat.joins.find((j: { deviceId: string }) => j.deviceId === a2.deviceId);
    const a2Kp = a2Kps.find((k) => k.ref === read!.ref)!;
    const a2State = await joinChat(join.welcome, join.ratchetTree, a2Kp);
    const sealed = await seal(bobNext, "to both of your phones");
    assert.equal((await open(a2State, sealed.ciphertextB64, sealed.commitmentB64)).text, "to both of your phones");
    // A commit is not a message one can report.
    const reportCommit = await t.call(
      "POST",
      `/api/secret/chats/${chat.id}/messages/${approved.data.message.id}/report`,
      { cookie: bob.cookie, json: { reason: "spam", text: "x", frankingKey: toBase64(new Uint8Array(32)) } },
    );
    assert.equal(reportCommit.status, 400);
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
function uploadPicture(
  t: T,
  who: { cookie: string; device: { deviceId: string } },
  chatId: string,
  bytes: Uint8Array,
  type = "application/octet-stream",
) {
  return t.call("POST", `/api/secret/pictures?chatId=${chatId}&deviceId=${who.device.deviceId}`, {
    cookie: who.cookie,
    headers: { "content-type": type },
    body: bytes as Uint8Array<ArrayBuffer>,
  });
}

/** A picture's bytes as a member's page fetches them. */
async function downloadPicture(t: T, cookie: string, chatId: string, id: string) {
  const res = await t.app.request(`${ORIGIN}/api/secret/chats/${chatId}/pictures/${id}`, { headers: { cookie } });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

Deno.test("secret chats - a picture travels encrypted: opaque bytes on the server, its key inside the message, opened only by the chat's devices", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t), bob = await memberWithDevice(t), carol = await memberWithDevice(t);
    const { chat, aliceState, bobState } = await startThroughApi(t, alice, bob);
    // The picture as the device has it after redrawing it (any bytes: the server never looks).
    const plain = new TextEncoder().encode("JPEG-LIKE picture of the harbour wall at dawn ".repeat(50));
    const sealedPic = await sealPicture(plain);
    const up = await uploadPicture(t, alice, chat.id, sealedPic.bytes);
    assert.equal(up.status, 201, up.text);
    assert.equal(up.data.picture.size, sealedPic.bytes.length);
    const ref: PictureRef = { id: up.data.picture.id, ...sealedPic, type: "image/jpeg", width: 800, height: 600 };
    delete (ref as Partial<PictureRef & { bytes: unknown }>).bytes;
    const sealed = await seal(aliceState, "", { picture: ref });
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

    // Bob's device opens the message, fetches the blob, checks its hash and decrypts it.
    const got = await t.call("GET", `/api/secret/chats/${chat.id}/messages`, { cookie: bob.cookie });
    const opened = await open(bobState, got.data.items[0].ciphertext, got.data.items[0].commitment);
    assert.deepEqual(opened.picture, ref);
    const fetched = await downloadPicture(t, bob.cookie, chat.id, ref.id);
    assert.equal(fetched.status, 200);
    assert.equal(fetched.headers.get("content-type"), "application/octet-stream");
    assert.match(fetched.headers.get("cache-control") ?? "", /no-store/);
    assert.deepEqual(await openPicture(fetched.bytes, opened.picture!), plain);
    // Altered on the server: the hash in the message refuses it.
    const altered = fetched.bytes.slice();
    altered[0] ^= 1;
    await assert.rejects(openPicture(altered, ref), /does not match/);

    // Only the chat's two members read it; anyone else is told there is none.
    assert.equal((await downloadPicture(t, alice.cookie, chat.id, ref.id)).status, 200);
    assert.equal((await downloadPicture(t, carol.cookie, chat.id, ref.id)).status, 404);
    assert.equal((await t.app.request(`${ORIGIN}/api/secret/chats/${chat.id}/pictures/${ref.id}`)).status, 401);
    // Carol's own chat with Bob does not reach Alice's picture through its path.
    const other = await startThroughApi(t, carol, await memberWithDevice(t));
    assert.equal((await downloadPicture(t, carol.cookie, other.chat.id, ref.id)).status, 404);

    // Nothing in the store holds the picture's bytes or its key: every value, as bytes.
    const needle = "harbour wall";
    for await (const e of kv().list({ prefix: [] })) {
      const v = e.value instanceof Uint8Array ? new TextDecoder().decode(e.value) : JSON.stringify(
        e.value ?? null,
        (_k, x) => typeof x === "bigint" ? String(x) : x,
      );
      assert.ok(!v.includes(needle), `no picture bytes under ${JSON.stringify(e.key)}`);
      assert.ok(!v.includes(ref.key), `no picture key under ${JSON.stringify(e.key)}`);
    }

    // A report of the picture's message verifies the hash it carried.
    const reported = await t.call("POST", `/api/secret/chats/${chat.id}/messages/${sent.data.message.id}/report`, {
      cookie: bob.cookie,
      json: { reason: "harassment", text: frankedText("", ref), frankingKey: opened.frankingKeyB64 },
    });
    assert.equal(reported.status, 201, reported.text);

    // Alice deletes her conversation with Bob: the pictures she sent leave the server.
    const before = await getBlobMeta(secretPictureBlobId(chat.id, ref.id));
    assert.ok(before);
    assert.equal((await t.call("DELETE", `/api/messages/with/${bob.profileId}`, { cookie: alice.cookie })).status, 200);
    assert.equal(await getBlobMeta(secretPictureBlobId(chat.id, ref.id)), null);
    assert.equal((await downloadPicture(t, bob.cookie, chat.id, ref.id)).status, 404);
  } finally {
    t.close();
  }
});

Deno.test("secret chats - picture uploads: wrong type, too small, too large, another's device or chat, a stranger: 4xx that store nothing", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t), bob = await memberWithDevice(t), carol = await memberWithDevice(t);
    const { chat } = await startThroughApi(t, alice, bob);
    const ok = new Uint8Array(64);
    const cases: [string, Promise<{ status: number; text: string }>, number][] = [
      ["as JSON", uploadPicture(t, alice, chat.id, ok, "application/json"), 415],
      ["no type", uploadPicture(t, alice, chat.id, ok, ""), 415],
      ["under a tag's length", uploadPicture(t, alice, chat.id, new Uint8Array(8)), 400],
      ["empty", uploadPicture(t, alice, chat.id, new Uint8Array(0)), 400],
      ["over the limit", uploadPicture(t, alice, chat.id, new Uint8Array(SECRET_PICTURE_MAX_BYTES + 1)), 413],
      ["Bob with Alice's device", uploadPicture(t, { cookie: bob.cookie, device: alice.device }, chat.id, ok), 403],
      ["a stranger to the chat", uploadPicture(t, carol, chat.id, ok), 404],
      ["no such chat", uploadPicture(t, alice, "nochat", ok), 404],
      ["a bad chat id", uploadPicture(t, alice, "../x", ok), 400],
    ];
    for (const [what, call, status] of cases) {
      const r = await call;
      assert.equal(r.status, status, `${what}: ${r.text}`);
    }
    const missing = await t.call("POST", `/api/secret/pictures?chatId=${chat.id}`, {
      cookie: alice.cookie,
      headers: { "content-type": "application/octet-stream" },
      body: ok,
    });
    assert.equal(missing.status, 400);
    for await (const e of kv().list({ prefix: keys.secretPicturesIn(chat.id) })) assert.fail(`stored ${e.key}`);
    assert.equal((await downloadPicture(t, alice.cookie, chat.id, "nopic")).status, 404);
    // At the limit it is taken.
    assert.equal((await uploadPicture(t, alice, chat.id, new Uint8Array(SECRET_PICTURE_MAX_BYTES))).status, 201);
  } finally {
    t.close();
  }
});

Deno.test("secret chats - a chat started again and an account deleted take the chat's picture blobs with them", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t, 4), bob = await memberWithDevice(t, 4);
    const first = await startThroughApi(t, alice, bob);
    const up = await uploadPicture(t, bob, first.chat.id, new Uint8Array(100));
    assert.equal(up.status, 201);
    // A new start replaces the chat: no device can read the old one, its pictures go.
    const second = await startThroughApi(t, alice, bob);
    assert.notEqual(second.chat.id, first.chat.id);
    assert.equal(await getBlobMeta(secretPictureBlobId(first.chat.id, up.data.picture.id)), null);
    const again = await uploadPicture(t, bob, second.chat.id, new Uint8Array(100));
    assert.equal(again.status, 201);
    await deleteSecretPicturesOf(alice.profileId);
    assert.equal(await getBlobMeta(secretPictureBlobId(second.chat.id, again.data.picture.id)), null);
    assert.equal(await getSecretPicture(second.chat.id, again.data.picture.id), null);
  } finally {
    t.close();
  }
});

Deno.test("secret chats - unsend and view once are requests between devices: a control notifies no one, and only a picture's sender deletes it from the server", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t), bob = await memberWithDevice(t);
    const { chat, aliceState, bobState } = await startThroughApi(t, alice, bob);
    const sealedPic = await sealPicture(new Uint8Array(300));
    const up = await uploadPicture(t, alice, chat.id, sealedPic.bytes);
    assert.equal(up.status, 201);
    const ref: PictureRef = {
      id: up.data.picture.id,
      key: sealedPic.key,
      iv: sealedPic.iv,
      sha256: sealedPic.sha256,
      type: "image/jpeg",
      width: 1,
      height: 1,
      once: true,
    };
    const post = async (state: typeof aliceState, extras: Parameters<typeof seal>[2], kind?: string) => {
      const sealed = await seal(state, "", extras);
      const r = await t.call("POST", `/api/secret/chats/${chat.id}/messages`, {
        cookie: alice.cookie,
        json: {
          deviceId: alice.device.deviceId,
          ...(kind ? { kind } : {}),
          ciphertext: sealed.ciphertextB64,
          commitment: sealed.commitmentB64,
          epoch: 1,
        },
      });
      assert.equal(r.status, 201, r.text);
      return { state: sealed.state, message: r.data.message };
    };
    const first = await post(aliceState, { picture: ref });
    assert.equal(first.message.kind, "text");
    const [note] = await listNotifications(bob.profileId);
    await t.call("POST", `/api/secret/chats/${chat.id}/read`, {
      cookie: bob.cookie,
      json: { messageId: first.message.id },
    });
    assert.equal(await getNotification(bob.profileId, note.id), null);
    // Alice's device asks Bob's to delete the message: a control, opened as such, and no new notification.
    const control = await post(first.state, { control: { do: "unsend", id: first.message.id } }, "control");
    assert.equal(control.message.kind, "control");
    assert.equal((await listNotifications(bob.profileId)).length, 0, "a request is no new message");
    const got = await t.call("GET", `/api/secret/chats/${chat.id}/messages`, { cookie: bob.cookie });
    let state = bobState;
    const opened = [];
    for (const m of got.data.items) {
      const o = await open(state, m.ciphertext, m.commitment);
      state = o.state;
      opened.push(o);
    }
    assert.equal(opened[0].picture?.once, true);
    assert.deepEqual(opened[1].control, { do: "unsend", id: first.message.id });
    // A control cannot be reported (it carries no text).
    const report = await t.call(
      "POST",
      `/api/secret/chats/${chat.id}/messages/${control.message.id}/report`,
      { cookie: bob.cookie, json: { reason: "harassment", text: "", frankingKey: opened[1].frankingKeyB64 } },
    );
    assert.equal(report.status, 400);
    // Only the picture's sender deletes it from the server; then it is gone for both.
    const path = `/api/secret/chats/${chat.id}/pictures/${ref.id}`;
    assert.equal((await t.call("DELETE", path, { cookie: bob.cookie })).status, 403);
    assert.equal((await downloadPicture(t, bob.cookie, chat.id, ref.id)).status, 200);
    assert.equal((await t.call("DELETE", path, { cookie: alice.cookie })).status, 200);
    assert.equal((await downloadPicture(t, bob.cookie, chat.id, ref.id)).status, 404);
    assert.equal(await getBlobMeta(secretPictureBlobId(chat.id, ref.id)), null);
    assert.equal((await t.call("DELETE", path, { cookie: alice.cookie })).status, 404);
    // A kind the contract does not know is refused.
    const bad = await t.call("POST", `/api/secret/chats/${chat.id}/messages`, {
      cookie: alice.cookie,
      json: {
        deviceId: alice.device.deviceId,
        kind: "commit",
        ciphertext: "AAAA",
        commitment: toBase64(new Uint8Array(32)),
        epoch: 1,
      },
    });
    assert.equal(bad.status, 400);
  } finally {
    t.close();
  }
});

Deno.test("secret chats - a logged-out device is removed from the chat's MLS group by a device that stays: it reads nothing after", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t), bob = await memberWithDevice(t);
    // Alice's second phone, on a session of its own, registered before the chat starts.
    const token = await t.registerAndGetToken(alice.email);
    const cookie2 = t.cookieOf((await t.call("POST", "/api/auth", { form: { token } })).headers);
    const phone2 = await newDevice(alice.profileId, crypto.randomUUID().slice(0, 12));
    const kps2 = await makeKeyPackages(phone2, 2);
    const reg = await t.call("POST", "/api/secret/devices", {
      cookie: cookie2,
      json: { deviceId: phone2.deviceId, keyPackages: kps2.map((k) => k.publicB64) },
    });
    assert.equal(reg.status, 201, reg.text);
    // Bob starts the chat with both of Alice's phones.
    const claim = await t.call("POST", "/api/secret/key-packages/claim", {
      cookie: bob.cookie,
      json: { deviceId: bob.device.deviceId, peerProfileId: alice.profileId },
    });
    assert.equal(claim.status, 200, claim.text);
    const peers = await Promise.all(
      claim.data.devices.map((d: { keyPackage: string }) => readKeyPackage(d.keyPackage)),
    );
    const started = await startChat(bob.kps[0], peers.map((p) => p!.keyPackage));
    const created = await t.call("POST", "/api/secret/chats", {
      cookie: bob.cookie,
      json: {
        deviceId: bob.device.deviceId,
        peerProfileId: alice.profileId,
        peerDevices: claim.data.devices.map((d: { deviceId: string }) => d.deviceId),
        groupId: started.groupId,
        welcome: started.welcomeB64,
        ratchetTree: started.ratchetTreeB64,
      },
    });
    assert.equal(created.status, 201, created.text);
    const chatId = created.data.chat.id;
    const kpOf = (kps: typeof kps2, ref: string) => kps.find((k) => k.ref === ref);
    const refs = peers.map((p) => p!.ref);
    let aliceState = await joinChat(
      started.welcomeB64,
      started.ratchetTreeB64,
      refs.map((r) => kpOf(alice.kps, r)).find(Boolean)!,
    );
    const lost = await joinChat(
      started.welcomeB64,
      started.ratchetTreeB64,
      refs.map((r) => kpOf(kps2, r)).find(Boolean)!,
    );

    const evict = (who: { cookie: string; device: { deviceId: string } }, commit: string, epoch: number) =>
      t.call("POST", `/api/secret/chats/${chatId}/evict`, {
        cookie: who.cookie,
        json: { deviceId: who.device.deviceId, evicted: [phone2.deviceId], commit, epoch },
      });
    // While the second phone's session is live, nobody removes it.
    const early = await removeDevices(started.state, [`${alice.profileId}/${phone2.deviceId}`]);
    assert.equal((await evict(bob, early!.commitB64, 2)).status, 409);

    // Alice logs out on the second phone: the server marks it removed; Bob's phone removes it from the group.
    assert.ok((await t.call("POST", "/api/auth/logout", { cookie: cookie2 })).status < 400);
    const listed = await t.call("GET", "/api/secret/chats", { cookie: bob.cookie });
    assert.equal(
      listed.data.items[0].devices.find((d: { deviceId: string }) => d.deviceId === phone2.deviceId).removed,
      true,
    );
    const removed = (await removeDevices(started.state, [`${alice.profileId}/${phone2.deviceId}`]))!;
    assert.equal((await evict(bob, removed.commitB64, 3)).status, 409, "an epoch that is not the next");
    assert.equal((await evict(bob, removed.commitB64, 1)).status, 400, "no commit leads to the first epoch");
    const done = await evict(bob, removed.commitB64, 2);
    assert.equal(done.status, 201, done.text);
    assert.equal(
      done.data.chat.devices.find((d: { deviceId: string }) => d.deviceId === phone2.deviceId).evicted,
      true,
    );
    assert.equal((await evict(bob, removed.commitB64, 3)).status, 409, "once");
    // Bob cannot evict Alice's live phone; a stranger cannot reach the chat.
    const live = await t.call("POST", `/api/secret/chats/${chatId}/evict`, {
      cookie: bob.cookie,
      json: { deviceId: bob.device.deviceId, evicted: [alice.device.deviceId], commit: removed.commitB64, epoch: 3 },
    });
    assert.equal(live.status, 409);
    assert.equal(live.data.error.code, "device_live");
    // Alice's first phone applies the commit from the chat's messages, and so moves on with Bob.
    const msgs = await t.call("GET", `/api/secret/chats/${chatId}/messages`, { cookie: alice.cookie });
    const commit = msgs.data.items.find((m: { kind: string }) => m.kind === "commit");
    aliceState = await applyCommit(aliceState, commit.ciphertext);
    const after = await seal(removed.state, "Only your phone that stays reads this");
    assert.equal(
      (await open(aliceState, after.ciphertextB64, after.commitmentB64)).text,
      "Only your phone that stays reads this",
    );
    await assert.rejects(
      open(lost, after.ciphertextB64, after.commitmentB64),
      "the removed phone's keys open nothing new",
    );
  } finally {
    t.close();
  }
});
