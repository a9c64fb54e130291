import assert from "node:assert/strict";
import { closeKv, kv, openKv } from "./db.ts";
import { keys } from "./keys.ts";
import { createAccount } from "./accounts.ts";
import {
  addPushSubscription,
  markersKnown,
  notePushFailure,
  PUSH_DEVICE_MAX_FAILURES,
  pushReachable,
  removePushSubscription,
} from "./push.ts";
import { startKeptReads } from "./kept.ts";
import { eventBus } from "./events.ts";
import { testApp } from "../tests/api.ts";
import { pushMarked } from "./pushReach.ts";
import { inNewKvDir, kvTest } from "../tests/kv.ts";

const device = (n: number) => ({
  deviceName: `phone ${n}`,
  endpoint: `https://fcm.googleapis.com/fcm/send/d${n}`,
  expirationTime: 0,
  auth_base64: "a",
  p256dh_base64: "p",
});

Deno.test("push reach - a store whose devices were written before their markers is marked once as it opens", () =>
  inNewKvDir(async (path) => {
    await openKv(path);
    const withDevices = [
      (await createAccount({ email: "a@example.com" }))!,
      (await createAccount({ email: "b@example.com" }))!,
    ];
    const without = (await createAccount({ email: "c@example.com" }))!;
    // Devices as an older app wrote them: the subscription alone, and no store-wide flag.
    for (const [i, a] of withDevices.entries()) {
      await kv().set(keys.pushSubscription(a.id, `d${i}`), { id: `d${i}`, ...device(i), tsCreated: 1 });
      await kv().set(keys.pushSubscription(a.id, `e${i}`), { id: `e${i}`, ...device(10 + i), tsCreated: 1 });
    }
    // A store with no device was left unwritten as it opened.
    assert.equal((await kv().get(keys.pushReachableMarked())).versionstamp, null);
    closeKv();

    await openKv(path);
    assert.ok(pushMarked(kv()));
    for (const a of withDevices) {
      assert.equal((await kv().get(keys.pushReachable(a.defaultProfileId))).value, true);
      assert.equal(await pushReachable(a.defaultProfileId), true);
    }
    assert.equal((await kv().get(keys.pushReachable(without.defaultProfileId))).versionstamp, null);
    assert.equal(await pushReachable(without.defaultProfileId), false);
    const flag = await kv().get(keys.pushReachableMarked());
    assert.ok(typeof flag.value === "number");
    closeKv();

    // Marked once: opening again writes nothing.
    await openKv(path);
    assert.equal((await kv().get(keys.pushReachableMarked())).versionstamp, flag.versionstamp);
  }));

kvTest("push reach - the marker comes with the first device and goes with the last, removed or dropped", async () => {
  const a = (await createAccount({ email: "a@example.com" }))!;
  const marker = keys.pushReachable(a.defaultProfileId);
  assert.equal(await pushReachable(a.defaultProfileId), false);
  const one = await addPushSubscription(a.id, device(1));
  const two = await addPushSubscription(a.id, device(2));
  assert.equal(await pushReachable(a.defaultProfileId), true);

  assert.equal(await removePushSubscription(a.id, one.id), true);
  assert.equal(await pushReachable(a.defaultProfileId), true, "one device left");
  assert.equal(await removePushSubscription(a.id, one.id), false, "not there any more");

  // The last device dropped after its failures takes the marker with it.
  for (let i = 1; i < PUSH_DEVICE_MAX_FAILURES; i++) assert.equal(await notePushFailure(a.id, two.id), "kept");
  assert.equal(await notePushFailure(a.id, two.id), "dropped");
  assert.equal((await kv().get(marker)).versionstamp, null);
  assert.equal(await pushReachable(a.defaultProfileId), false);

  // Subscribed again, then unsubscribed by the member.
  const three = await addPushSubscription(a.id, device(3));
  assert.equal(await pushReachable(a.defaultProfileId), true);
  assert.equal(await removePushSubscription(a.id, three.id), true);
  assert.equal((await kv().get(marker)).versionstamp, null);
});

kvTest("push reach - a device added while the last one is removed keeps the marker", async () => {
  const a = (await createAccount({ email: "a@example.com" }))!;
  const one = await addPushSubscription(a.id, device(1));
  // Both at once: whichever commits second sees the other (the removal's check of the marker).
  const [removed, added] = await Promise.all([
    removePushSubscription(a.id, one.id),
    addPushSubscription(a.id, device(2)),
  ]);
  assert.equal(removed, true);
  const left = [];
  for await (const e of kv().list({ prefix: keys.pushSubscriptionsOf(a.id) })) left.push(e.key.at(-1));
  assert.deepEqual(left, [added.id]);
  assert.equal(await pushReachable(a.defaultProfileId), true);
});

kvTest("push reach - two last devices removed at once take the marker with them", async () => {
  const a = (await createAccount({ email: "a@example.com" }))!;
  const [one, two] = [await addPushSubscription(a.id, device(1)), await addPushSubscription(a.id, device(2))];
  // Each sees the other still there as it reads; the check of what it saw makes the second read again.
  assert.deepEqual(
    await Promise.all([removePushSubscription(a.id, one.id), removePushSubscription(a.id, two.id)]),
    [true, true],
  );
  assert.equal((await kv().get(keys.pushReachable(a.defaultProfileId))).versionstamp, null);
  assert.equal(await pushReachable(a.defaultProfileId), false);
});

Deno.test("push reach - an instance that keeps reads knows every member's marker: it reads none that no write touched, and sees every device stored or removed", async () => {
  const t = await testApp();
  // As the server runs: reads kept by the instance, forgotten through its tail of the change log.
  startKeptReads();
  await eventBus().log.tail();
  try {
    const withDevice = (await createAccount({ email: "a@example.com" }))!;
    const without = (await createAccount({ email: "b@example.com" }))!;
    const one = await addPushSubscription(withDevice.id, device(1));
    // Its forget taken in from the log too (a forget after the listing began makes the member read again).
    await eventBus().log.tail();
    // The first ask starts the listing of every marker.
    await pushReachable(withDevice.defaultProfileId);
    await markersKnown();
    const [a, b] = [withDevice.defaultProfileId, without.defaultProfileId];

    // Markers written behind the instance's back (no forget): what it listed answers, nothing is read.
    await kv().delete(keys.pushReachable(a));
    await kv().set(keys.pushReachable(b), true);
    assert.equal(await pushReachable(a), true);
    assert.equal(await pushReachable(b), false);

    // Every write of a marker forgets it: the next ask reads it.
    assert.equal(await removePushSubscription(withDevice.id, one.id), true);
    assert.equal(await pushReachable(a), false, "the last device removed");
    await addPushSubscription(without.id, device(2));
    assert.equal(await pushReachable(b), true, "a device stored");
    const later = (await createAccount({ email: "c@example.com" }))!;
    assert.equal(await pushReachable(later.defaultProfileId), false, "a member who came after the listing");
    await addPushSubscription(later.id, device(3));
    assert.equal(await pushReachable(later.defaultProfileId), true, "their first device");
  } finally {
    await eventBus().stop();
    t.close();
  }
});
