import assert from "node:assert/strict";
import { decodeValue, encodeValue } from "./codec.ts";
import {
  type DeviceIdentity,
  joinChat,
  type KeyPackagePair,
  loadState,
  makeKeyPackages,
  newDevice,
  open,
  saveState,
  seal,
  startChat,
} from "./mls.ts";

Deno.test("secret store codec: bytes, big integers and nested values come back equal", () => {
  const value = { a: new Uint8Array([0, 1, 255]), n: 2n ** 70n, list: [1, "x", null, true, new Uint8Array()], o: {} };
  const back = decodeValue<typeof value>(encodeValue(value));
  assert.deepEqual(back, value);
  assert.ok(back.a instanceof Uint8Array);
  assert.equal(typeof back.n, "bigint");
});

Deno.test("secret store codec: a device's identity, key packages and group state survive it and still work", async () => {
  const alice = decodeValue<DeviceIdentity>(encodeValue(await newDevice("m-alice", "d-a1")));
  const bob = await newDevice("m-bob", "d-b1");
  const [aliceKp] = (await makeKeyPackages(alice, 1)).map((k) => decodeValue<KeyPackagePair>(encodeValue(k)));
  const [bobKp] = (await makeKeyPackages(bob, 1)).map((k) => decodeValue<KeyPackagePair>(encodeValue(k)));
  const started = await startChat(aliceKp, [bobKp.publicPackage]);
  const bobState = await joinChat(started.welcomeB64, started.ratchetTreeB64, bobKp);
  const kept = decodeValue<{ state: Uint8Array }>(encodeValue({ state: saveState(started.state) }));
  const sent = await seal(loadState(kept.state), "through the store and back");
  assert.equal((await open(bobState, sent.ciphertextB64, sent.commitmentB64)).text, "through the store and back");
});
