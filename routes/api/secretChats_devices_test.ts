import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
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
import { keys } from "../../kv/keys.ts";
import { removeDevicesOfSessions } from "../../kv/secretChats.ts";
import { memberWithDevice, startThroughApi } from "../../tests/fixtures/secretChats.ts";

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

Deno.test("secret chats - a session's device asked to be removed twice at once (the logout and its own event) is removed once: its chat written and told once", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t), bob = await memberWithDevice(t, 3);
    const { chat } = await startThroughApi(t, alice, bob);
    const bySession = await Array.fromAsync(
      kv().list<{ profileId: string }>({ prefix: ["secret_devices_by_session"] }),
    );
    const sessionId = bySession.find((e) => e.value.profileId === bob.profileId)!.key[1] as string;
    // Every commit with events adds one to the events' version: the chat's "device removed" is one.
    const version = async () => (await kv().get<Deno.KvU64>(keys.eventsVersion())).value?.value ?? 0n;
    const before = await version();
    await Promise.all([removeDevicesOfSessions([sessionId]), removeDevicesOfSessions([sessionId])]);
    assert.equal(await version() - before, 1n, "the chat is written and told once");
    const stored = (await kv().get<{ devices: { profileId: string; removed?: boolean }[] }>(keys.secretChat(chat.id)))
      .value!;
    assert.equal(stored.devices.find((d) => d.profileId === bob.profileId)?.removed, true);
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
