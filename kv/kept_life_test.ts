/**
 * An instance that keeps reads (kv/kept.ts) keeps sessions, accounts, profiles, block lists, time-outs,
 * 'Keep my best picture first' and whether a member has a push device a minute: what makes that safe
 * is that every write of them forgets the kept copies. Each write
 * below must show at the next read of the same instance; a write that forgets nothing would not
 * (the first test).
 */

import assert from "node:assert/strict";
import { testApp } from "../tests/api.ts";
import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { startKeptReads } from "./kept.ts";
import { eventBus } from "./events.ts";
import {
  type Account,
  adoptProfileName,
  defaultAccountName,
  dismissNotice,
  getAccountByEmail,
  setLanguage,
  setOnboarding,
  setQuietHours,
  setRoles,
  updateSettings,
} from "./accounts.ts";
import { accountWithGrants, grantRoleOps } from "./roles.ts";
import { createSession, endOtherSessions, endSession, endSessionById, getSession } from "./sessions.ts";
import { now } from "./clock.ts";
import { forgetCachedProfile, profileChanged, updateProfile, viewedProfile } from "./profiles.ts";
import { addPicture, deletePicture } from "./pictures.ts";
import { endVerification } from "./games/identify.ts";
import { deleteMemberStep, startDeletion } from "./memberDeletion.ts";
import { putProfileLike } from "./likes.ts";
import { blockedSet, isBlockedEither } from "./blocks.ts";
import { adminConfirmed, appealStay, decideAppeal, endStay, restrictionOf, takeQuiz } from "./games/dungeon.ts";
import { hotLiked, keepBestView, setKeepBest, undoKeepBest } from "./games/hotOrNot.ts";
import { saveReport } from "./reports.ts";
import { SYSTEM } from "./audit.ts";
import {
  addPushSubscription,
  notePushFailure,
  PUSH_DEVICE_MAX_FAILURES,
  pushReachable,
  removePushSubscription,
} from "./push.ts";
import { QUIZ_ANSWERS } from "../domain/dungeon.ts";
import type { HotKeepBest } from "../domain/shapes/hotOrNot.ts";
import { normalizeUpload } from "../images/pipeline.ts";
import { portrait } from "../tests/fixtures/pictures.ts";
import type { Profile } from "../domain/shapes/profiles.ts";

async function keeping() {
  const t = await testApp();
  // As the server runs: reads kept by the instance, forgotten through its tail of the change log.
  startKeptReads();
  await eventBus().log.tail();
  const m = await t.member();
  const account = (await getAccountByEmail(m.email))!;
  return {
    t,
    id: account.id,
    profileId: m.profileId,
    async close() {
      await eventBus().stop();
      t.close();
    },
  };
}

/** A check of one writer: reads (so a copy is kept), writes, and asserts what the next read sees. */
function showsAtNextRead<T>(read: () => Promise<T>) {
  return async (what: string, write: () => Promise<unknown>, seen: (value: T) => boolean) => {
    await read();
    await write();
    assert.ok(seen(await read()), `${what}: not seen by the next read`);
  };
}

Deno.test("kept reads - the copies are kept: a write that forgets nothing is not seen by the next read", async () => {
  const k = await keeping();
  try {
    const before = (await accountWithGrants(k.id))!;
    const entry = await kv().get<Account>(keys.account(k.id));
    await kv().set(entry.key, { ...entry.value!, name: "Written behind its back" });
    assert.equal((await accountWithGrants(k.id))!.name, before.name);
    const profile = (await viewedProfile(k.profileId))!;
    await kv().set(keys.profile(k.profileId), { ...profile, profilename: "Written behind its back" });
    assert.equal((await viewedProfile(k.profileId))!.profilename, profile.profilename);
    assert.equal(await restrictionOf(k.profileId), null);
    await kv().set(keys.dungeonCurrent(k.profileId), { stayId: "behind-its-back", until: now() + 60_000 });
    assert.equal(await restrictionOf(k.profileId), null);
    assert.equal(await pushReachable(k.profileId), false);
    await kv().set(keys.pushReachable(k.profileId), true);
    assert.equal(await pushReachable(k.profileId), false);
  } finally {
    await k.close();
  }
});

Deno.test("kept reads - every write of an account or a grant shows at the next read", async () => {
  const k = await keeping();
  try {
    const read = async () => (await accountWithGrants(k.id))!;
    const shows = showsAtNextRead(read);
    await shows("language", () => setLanguage(k.id, "fr"), (a) => a.language === "fr");
    await shows(
      "quiet hours",
      () => setQuietHours(k.id, { from: "22:00", to: "07:00", timeZone: "Europe/Paris" }),
      (a) => a.quietHours?.from === "22:00",
    );
    await shows("a dismissed notice", () => dismissNotice(k.id, "banner"), (a) => !!a.dismissed?.includes("banner"));
    await shows("an onboarding step", () => setOnboarding(k.id, "picture"), (a) => a.onboarding === "picture");
    await shows("onboarding ended", () => setOnboarding(k.id, null), (a) => a.onboarding === undefined);
    await shows("roles", () => setRoles(k.id, ["USER", "ADMIN"]), (a) => a.roles.includes("ADMIN"));
    const email = (await read()).email;
    await shows(
      "the name in settings",
      () => updateSettings(k.id, { name: "Rowan", email }),
      (a) => a.name === "Rowan",
    );
    await shows("the name back to the default", async () => {
      const entry = await kv().get<Account>(keys.account(k.id));
      await updateSettings(k.id, { name: defaultAccountName(entry.value!.email), email });
    }, (a) => a.name === defaultAccountName(email));
    await shows(
      "the profile's name adopted",
      () => adoptProfileName(k.id, k.profileId, "Sam"),
      (a) => a.name === "Sam",
    );
    await shows("a grant", async () => {
      const op = kv().atomic();
      grantRoleOps(op, k.id, "VOLUNTEER", now() + 60_000);
      assert.ok((await op.commit()).ok);
    }, (a) => a.roles.includes("VOLUNTEER"));
  } finally {
    await k.close();
  }
});

Deno.test("kept reads - a session ended in any way is refused at the next read", async () => {
  const k = await keeping();
  try {
    const open = async () => {
      const { token } = await createSession(k.id, false, "test");
      assert.ok(await getSession(token), "a new session is read");
      return token;
    };
    const a = await open();
    await endSession(a);
    assert.equal(await getSession(a), null, "logout");
    const b = await open();
    const session = (await getSession(b))!;
    assert.ok(await endSessionById(k.id, session.id));
    assert.equal(await getSession(b), null, "ended from the sessions list");
    const c = await open();
    const keep = await open();
    assert.ok(await endOtherSessions(k.id, (await getSession(keep))!.id) >= 1);
    assert.equal(await getSession(c), null, "ended as another session");
    assert.ok(await getSession(keep), "the session kept");
  } finally {
    await k.close();
  }
});

Deno.test("kept reads - every write of a profile shows at the next read", async () => {
  const k = await keeping();
  try {
    const read = async () => (await viewedProfile(k.profileId))!;
    const shows = showsAtNextRead(read);
    await shows(
      "a new name",
      () => updateProfile(k.profileId, { profilename: "Rowan" }),
      (p) => p.profilename === "Rowan",
    );
    const added: string[] = [];
    for (const i of [1, 2]) {
      await shows("a picture added", async () => {
        const r = await addPicture(k.profileId, await normalizeUpload(await portrait(i)));
        assert.ok(r.ok);
        added.push(r.pic.id);
      }, (p) => p.profilePicIds.includes(added.at(-1)!));
    }
    await shows(
      "a picture made private",
      () => updateProfile(k.profileId, { profilePicIds: [added[0]], profilePicIdsPrivate: [added[1]] }),
      (p) => !p.profilePicIds.includes(added[1]) && p.profilePicIdsPrivate.includes(added[1]),
    );
    await shows(
      "a picture deleted",
      () => deletePicture(k.profileId, added[0]),
      (p) => !p.profilePicIds.includes(added[0]),
    );
    // Verified (as 3 2 1 Identify's decision writes it), then the verification ended by a moderation action.
    const entry = await kv().get<Profile>(keys.profile(k.profileId));
    const op = kv().atomic().set(entry.key, { ...entry.value!, verifiedPicIds: [added[1]], tsVerified: now() });
    profileChanged(op, k.profileId);
    assert.ok((await op.commit()).ok);
    forgetCachedProfile(k.profileId);
    await shows("a verification ended", () => endVerification(k.profileId), (p) => p.verifiedPicIds === undefined);
    await read();
    const account = (await getAccountByEmail((await accountWithGrants(k.id))!.email))!;
    assert.ok(await startDeletion(account));
    while (await deleteMemberStep(k.id));
    assert.equal(await viewedProfile(k.profileId), null, "a deleted member's profile is gone at the next read");
  } finally {
    await k.close();
  }
});

Deno.test("kept reads - a block and an unblock show at the next read, on both sides", async () => {
  const k = await keeping();
  try {
    const other = await k.t.member();
    const both = async () => [
      await isBlockedEither(k.profileId, other.profileId),
      await isBlockedEither(other.profileId, k.profileId),
      (await blockedSet(k.profileId)).has(other.profileId),
      (await blockedSet(other.profileId)).has(k.profileId),
    ];
    assert.deepEqual(await both(), [false, false, false, false]);
    await putProfileLike(k.profileId, other.profileId, "DISLIKE", true);
    assert.deepEqual(await both(), [true, true, true, true], "blocked");
    await putProfileLike(k.profileId, other.profileId, "DISLIKE", false);
    assert.deepEqual(await both(), [false, false, false, false], "unblocked");
  } finally {
    await k.close();
  }
});

Deno.test("kept reads - every write of a time-out shows at the next read", async () => {
  const k = await keeping();
  try {
    const reporter = await k.t.member();
    const read = () => restrictionOf(k.profileId);
    const shows = showsAtNextRead(read);
    const member = { accountId: k.id, name: "Member", profileId: k.profileId };
    const confirmed = async () => {
      const report = await saveReport(reporter.profileId, k.profileId, "rude", "He was rude in chat.");
      const stay = await adminConfirmed(report.id, SYSTEM);
      assert.ok(stay);
      return stay;
    };
    let until = 0;
    await shows("a time-out started", async () => {
      until = (await confirmed()).until;
    }, (r) => r?.until === until);
    await shows(
      "the quiz passed, which shortens it",
      async () => assert.equal((await takeQuiz(member, [...QUIZ_ANSWERS])).ok, true),
      (r) => r !== null && r.until < until,
    );
    await shows(
      "ended by an admin",
      async () => assert.equal((await endStay(SYSTEM, k.profileId)).ok, true),
      (r) => r === null,
    );
    let stayId = "";
    await shows("a second time-out started", async () => {
      stayId = (await confirmed()).id;
    }, (r) => r?.stayId === stayId);
    assert.equal((await appealStay(member, "It was a joke between friends.")).ok, true);
    await shows(
      "its appeal upheld",
      async () => assert.equal((await decideAppeal(SYSTEM, stayId, true)).ok, true),
      (r) => r === null,
    );
  } finally {
    await k.close();
  }
});

Deno.test("kept reads - 'Keep my best picture first' switched on shows at the next like, also after it was off or undone", async () => {
  const k = await keeping();
  try {
    const r = await addPicture(k.profileId, await normalizeUpload(await portrait(1)));
    assert.ok(r.ok);
    // What a new like does for it (kv/games/hotOrNot.ts): counts for the first picture while it is
    // on, and reads nothing while the instance keeps that it is off.
    const liked = async () => {
      await hotLiked(k.profileId, null);
      return (await kv().get<HotKeepBest>(keys.hotKeepBest(k.profileId))).value?.arms[r.pic.id]?.won ?? 0;
    };
    assert.equal(await liked(), 0, "off: nothing counted (and kept so)");
    await setKeepBest(k.profileId, true);
    assert.equal(await liked(), 1, "switched on");
    await setKeepBest(k.profileId, false);
    assert.equal(await liked(), 1, "switched off");
    await setKeepBest(k.profileId, true);
    assert.equal(await liked(), 2, "switched on again");
    await undoKeepBest(k.profileId);
    assert.equal(await liked(), 2, "undone");
    assert.equal((await keepBestView(k.profileId)).on, false);
    await setKeepBest(k.profileId, true);
    assert.equal(await liked(), 3, "switched on after the undo");
  } finally {
    await k.close();
  }
});

Deno.test("kept reads - a push device stored, removed or dropped, and the member deleted, show at the next read of whether the member has one", async () => {
  const k = await keeping();
  try {
    const read = () => pushReachable(k.profileId);
    const shows = showsAtNextRead(read);
    const device = (n: number) => ({
      deviceName: `Phone ${n}`,
      endpoint: `https://fcm.googleapis.com/fcm/send/kept-${n}`,
      expirationTime: 0,
      auth_base64: "auth",
      p256dh_base64: "key",
    });
    const ids: string[] = [];
    const stored = (n: number) => async () => void ids.push((await addPushSubscription(k.id, device(n))).id);
    await shows("a device stored", stored(1), (r) => r);
    await stored(2)();
    await shows("one of two removed", () => removePushSubscription(k.id, ids[0]), (r) => r);
    await shows("the last removed", () => removePushSubscription(k.id, ids[1]), (r) => !r);
    await shows("a device stored again", stored(3), (r) => r);
    await shows("the last dropped after its failures", async () => {
      for (let i = 0; i < PUSH_DEVICE_MAX_FAILURES; i++) await notePushFailure(k.id, ids[2]);
    }, (r) => !r);
    await shows("a device stored once more", stored(4), (r) => r);
    const account = (await getAccountByEmail((await accountWithGrants(k.id))!.email))!;
    await shows("the member deleted", async () => {
      assert.ok(await startDeletion(account));
      while (await deleteMemberStep(k.id));
    }, (r) => !r);
  } finally {
    await k.close();
  }
});
