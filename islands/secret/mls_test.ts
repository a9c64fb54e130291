import assert from "node:assert/strict";
import {
  addDevice,
  applyCommit,
  groupDevices,
  joinChat,
  loadState,
  makeKeyPackages,
  newDevice,
  open,
  readKeyPackage,
  removeDevices,
  safetyCode,
  saveState,
  seal,
  startChat,
} from "./mls.ts";
import { frankingVerifies, fromBase64 } from "../../domain/franking.ts";
import { frankedText, type PictureRef, sealPicture } from "../../domain/secretPictures.ts";

Deno.test("secret chat protocol: two devices start a chat, exchange texts both ways, states survive the store", async () => {
  const alice = await newDevice("m-alice", "d-a1");
  const bob = await newDevice("m-bob", "d-b1");
  const [aliceKp] = await makeKeyPackages(alice, 1);
  const bobKps = await makeKeyPackages(bob, 2);
  assert.notEqual(bobKps[0].ref, bobKps[1].ref, "each key package is a different one-time key");

  // Bob's public key package travels through the server as base64 and comes back whole.
  const fromServer = await readKeyPackage(bobKps[0].publicB64);
  assert.ok(fromServer);
  assert.equal(fromServer.ref, bobKps[0].ref);

  const started = await startChat(aliceKp, [fromServer.keyPackage]);
  let bobState = await joinChat(started.welcomeB64, started.ratchetTreeB64, bobKps[0]);
  let aliceState = loadState(saveState(started.state));
  assert.equal(await safetyCode(aliceState), await safetyCode(bobState), "both sides see the same safety code");
  assert.match(await safetyCode(aliceState), /^\d{5} \d{5} \d{5} \d{5}$/);

  const sent = await seal(aliceState, "Meet at the café at eight?");
  aliceState = sent.state;
  assert.ok(!atob(sent.ciphertextB64).includes("café"), "the ciphertext holds no text");
  const got = await open(bobState, sent.ciphertextB64, sent.commitmentB64);
  bobState = loadState(saveState(got.state));
  assert.equal(got.text, "Meet at the café at eight?");
  assert.ok(await frankingVerifies(fromBase64(got.frankingKeyB64)!, got.text, fromBase64(sent.commitmentB64)!));

  const reply = await seal(bobState, "Yes, see you there");
  const back = await open(aliceState, reply.ciphertextB64, reply.commitmentB64);
  assert.equal(back.text, "Yes, see you there");
});

Deno.test("secret chat protocol: a message whose commitment was swapped is refused", async () => {
  const alice = await newDevice("m-alice", "d-a1");
  const bob = await newDevice("m-bob", "d-b1");
  const [aliceKp] = await makeKeyPackages(alice, 1);
  const [bobKp] = await makeKeyPackages(bob, 1);
  const started = await startChat(aliceKp, [bobKp.publicPackage]);
  const bobState = await joinChat(started.welcomeB64, started.ratchetTreeB64, bobKp);
  const one = await seal(started.state, "first");
  const two = await seal(one.state, "second");
  await assert.rejects(open(bobState, two.ciphertextB64, one.commitmentB64), /commitment/);
});

Deno.test("secret chat protocol: a member's second device, added from the first, reads what comes next; the code changes", async () => {
  const a1 = await newDevice("m-alice", "d-a1");
  const a2 = await newDevice("m-alice", "d-a2");
  const b1 = await newDevice("m-bob", "d-b1");
  const [a1Kp] = await makeKeyPackages(a1, 1);
  const [a2Kp] = await makeKeyPackages(a2, 1);
  const [b1Kp] = await makeKeyPackages(b1, 1);
  const started = await startChat(a1Kp, [b1Kp.publicPackage]);
  let bob = await joinChat(started.welcomeB64, started.ratchetTreeB64, b1Kp);
  const before = await safetyCode(bob);
  const added = await addDevice(started.state, a2Kp.publicPackage);
  bob = await applyCommit(bob, added.commitB64);
  const alice2 = await joinChat(added.welcomeB64, added.ratchetTreeB64, a2Kp);
  assert.notEqual(await safetyCode(bob), before, "a device more: the safety code changes");
  assert.equal(await safetyCode(alice2), await safetyCode(bob));
  const sent = await seal(bob, "hello both of your phones");
  assert.equal((await open(alice2, sent.ciphertextB64, sent.commitmentB64)).text, "hello both of your phones");
  assert.equal((await open(added.state, sent.ciphertextB64, sent.commitmentB64)).text, "hello both of your phones");
});

Deno.test("secret chat protocol: a picture's key, nonce and hash travel inside the message, covered by its franking", async () => {
  const alice = await newDevice("m-alice", "d-a1");
  const bob = await newDevice("m-bob", "d-b1");
  const [aliceKp] = await makeKeyPackages(alice, 1);
  const [bobKp] = await makeKeyPackages(bob, 1);
  const started = await startChat(aliceKp, [bobKp.publicPackage]);
  const bobState = await joinChat(started.welcomeB64, started.ratchetTreeB64, bobKp);
  const sealedPic = await sealPicture(new Uint8Array([1, 2, 3, 4, 5]));
  const ref: PictureRef = {
    id: "p1",
    key: sealedPic.key,
    iv: sealedPic.iv,
    sha256: sealedPic.sha256,
    type: "image/jpeg",
    width: 2,
    height: 1,
  };
  const sent = await seal(started.state, "look", { picture: ref });
  assert.ok(!atob(sent.ciphertextB64).includes(sealedPic.sha256), "the hash is inside the ciphertext");
  const got = await open(bobState, sent.ciphertextB64, sent.commitmentB64);
  assert.deepEqual(got.picture, ref);
  assert.equal(got.text, "look");
  const commitment = fromBase64(sent.commitmentB64)!;
  const key = fromBase64(got.frankingKeyB64)!;
  assert.ok(await frankingVerifies(key, frankedText("look", ref), commitment), "a report reveals text and hash");
  assert.ok(!(await frankingVerifies(key, "look", commitment)), "the text alone does not verify");
});

Deno.test("secret chat protocol: a control (unsend, viewed) travels encrypted and a malformed one is refused", async () => {
  const alice = await newDevice("m-alice", "d-a1");
  const bob = await newDevice("m-bob", "d-b1");
  const [aliceKp] = await makeKeyPackages(alice, 1);
  const [bobKp] = await makeKeyPackages(bob, 1);
  const started = await startChat(aliceKp, [bobKp.publicPackage]);
  let bobState = await joinChat(started.welcomeB64, started.ratchetTreeB64, bobKp);
  const sent = await seal(started.state, "", { control: { do: "unsend", id: "m1" } });
  assert.ok(!atob(sent.ciphertextB64).includes("unsend"));
  const got = await open(bobState, sent.ciphertextB64, sent.commitmentB64);
  bobState = got.state;
  assert.deepEqual(got.control, { do: "unsend", id: "m1" });
  const odd = await seal(sent.state, "", { control: { do: "wipe" as "unsend", id: "m1" } });
  await assert.rejects(open(bobState, odd.ciphertextB64, odd.commitmentB64), /commitment/);
});

Deno.test("secret chat protocol: a device removed by a commit of one that stays reads nothing sent after it", async () => {
  const a1 = await newDevice("m-alice", "d-a1");
  const a2 = await newDevice("m-alice", "d-a2");
  const b1 = await newDevice("m-bob", "d-b1");
  const [a1Kp] = await makeKeyPackages(a1, 1);
  const [a2Kp] = await makeKeyPackages(a2, 1);
  const [b1Kp] = await makeKeyPackages(b1, 1);
  // Alice's two phones and Bob's: the second phone (later logged out) is in the group.
  const started = await startChat(a1Kp, [b1Kp.publicPackage, a2Kp.publicPackage]);
  let bob = await joinChat(started.welcomeB64, started.ratchetTreeB64, b1Kp);
  const lost = await joinChat(started.welcomeB64, started.ratchetTreeB64, a2Kp);
  assert.deepEqual(groupDevices(bob).map((d) => d.identity).sort(), ["m-alice/d-a1", "m-alice/d-a2", "m-bob/d-b1"]);
  const before = await safetyCode(bob);
  assert.equal(await removeDevices(bob, ["m-alice/d-zz"]), undefined, "a device not in the group: no commit");
  // Bob's phone, which stays, removes it.
  const removed = (await removeDevices(bob, ["m-alice/d-a2"]))!;
  bob = removed.state;
  const alice = await applyCommit(started.state, removed.commitB64);
  assert.deepEqual(groupDevices(alice).map((d) => d.identity).sort(), ["m-alice/d-a1", "m-bob/d-b1"]);
  assert.notEqual(await safetyCode(bob), before, "the safety code changes with the devices");
  assert.equal(await safetyCode(alice), await safetyCode(bob));
  // The removed phone, with every key it had, learns from the commit that it was removed, and
  // opens nothing that follows, whether it applied the commit or not.
  const told = await applyCommit(lost, removed.commitB64);
  assert.equal(told.groupActiveState.kind, "removedFromGroup");
  const after = await seal(alice, "Only the two phones still in the chat read this");
  await assert.rejects(open(told, after.ciphertextB64, after.commitmentB64));
  await assert.rejects(open(lost, after.ciphertextB64, after.commitmentB64));
  assert.equal(
    (await open(bob, after.ciphertextB64, after.commitmentB64)).text,
    "Only the two phones still in the chat read this",
  );
});
