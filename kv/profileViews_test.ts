import assert from "node:assert/strict";
import sharp from "sharp";
import { closeKv, kv, openKv, wrapKv } from "./db.ts";
import { keys } from "./keys.ts";
import { startKeptReads } from "./kept.ts";
import { eventBus } from "./events.ts";
import { createAccount } from "./accounts.ts";
import { addPicture, markFirstSizeStored, setPictureNsfw } from "./pictures.ts";
import { loadProfileView, profileViewText } from "./profileViews.ts";
import { updateProfile, viewedProfile } from "./profiles.ts";
import { hotProfileOpened, keepBestView, setKeepBest } from "./games/hotOrNot.ts";
import { normalizeUpload } from "../images/pipeline.ts";

/** A test on a fresh `:memory:` KV whose reads are kept, as the app's server keeps them. */
function keptTest(name: string, fn: () => Promise<void>): void {
  Deno.test(name, async () => {
    await openKv(":memory:");
    startKeptReads();
    try {
      await fn();
    } finally {
      await eventBus().stop();
      closeKv();
    }
  });
}

async function member(email: string): Promise<string> {
  return (await createAccount({ email }))!.defaultProfileId;
}

keptTest("profile views - a picture's change shows in the next view though the profile is kept", async () => {
  const owner = await member("owner@example.com");
  const viewer = await member("viewer@example.com");
  const png = await sharp({ create: { width: 600, height: 750, channels: 3, background: "#1e88e5" } }).png()
    .toBuffer();
  const added = await addPicture(owner, await normalizeUpload(new Uint8Array(png)));
  assert.ok(added.ok);
  const { pic } = added;

  const first = await loadProfileView(owner, viewer);
  assert.deepEqual(first?.pictures.map((p) => [p.id, p.processing ?? false, p.nsfw]), [[pic.id, true, false]]);
  // Viewed again meanwhile: the same facts, read once, and the answer's JSON as the view's.
  assert.deepEqual((await loadProfileView(owner, viewer))?.pictures, first?.pictures);
  assert.equal(profileViewText(first!), JSON.stringify(first));

  // Its first size is stored: the next view no longer shows it processing.
  await markFirstSizeStored(pic.id, pic.gen);
  const ready = await loadProfileView(owner, viewer);
  assert.deepEqual(ready?.pictures.map((p) => [p.id, p.processing ?? false, p.nsfw]), [[pic.id, false, false]]);

  // Marked NSFW: the next view says so, and so does its JSON.
  assert.ok((await setPictureNsfw(owner, pic.id, true)).ok);
  const nsfw = await loadProfileView(owner, viewer);
  assert.deepEqual(nsfw?.pictures.map((p) => [p.id, p.nsfw]), [[pic.id, true]]);
  assert.equal(JSON.parse(profileViewText(nsfw!)).pictures[0].nsfw, true);

  // The profile's own change shows in the next view too.
  assert.ok((await updateProfile(owner, { description: "Changed meanwhile." })).ok);
  assert.equal((await loadProfileView(owner, viewer))?.description, "Changed meanwhile.");

  // The owner's own view lists the private ones too, never from another member's kept view.
  const own = await loadProfileView(owner, owner);
  assert.equal(own?.own, true);
  assert.deepEqual(own?.pictures.map((p) => p.id), [pic.id]);
});

keptTest("profile views - 'keep my best picture first' switched on counts the next open at once", async () => {
  const owner = await member("best@example.com");
  const viewer = await member("opener@example.com");
  const png = await sharp({ create: { width: 600, height: 750, channels: 3, background: "#43a047" } }).png()
    .toBuffer();
  const added = await addPicture(owner, await normalizeUpload(new Uint8Array(png)));
  assert.ok(added.ok);
  const shown = async () =>
    (await kv().get<{ arms: Record<string, { shown: number }> }>(keys.hotKeepBest(owner))).value?.arms[added.pic.id]
      ?.shown ?? 0;

  // Off: an open counts nothing (and the instance keeps that it is off).
  await hotProfileOpened(owner, viewer);
  assert.equal(await shown(), 0);
  // Switched on: the kept "off" is forgotten, so the very next open counts.
  assert.equal((await setKeepBest(owner, true)).on, true);
  await hotProfileOpened(owner, viewer);
  assert.equal(await shown(), 1);
  // Switched off again: opens count nothing more.
  assert.equal((await setKeepBest(owner, false)).on, false);
  await hotProfileOpened(owner, viewer);
  assert.equal(await shown(), 1);
  assert.equal((await keepBestView(owner)).on, false);
});

keptTest(
  "profile views - two reads of one profile at once (a like's checks and its push) ask the store once",
  async () => {
    const owner = await member("asked@example.com");
    let gets = 0;
    wrapKv((db) =>
      new Proxy(db, {
        get(target, prop) {
          const v = Reflect.get(target, prop, target);
          if (prop === "get") {
            return (...args: Parameters<Deno.Kv["get"]>) => {
              gets++;
              return target.get(...args);
            };
          }
          return typeof v === "function" ? v.bind(target) : v;
        },
      })
    );
    // Reads kept on the counted handle, its tail of the change log caught up (a read begun before
    // a forget is never joined).
    startKeptReads();
    await eventBus().log.tail();
    const [a, b] = await Promise.all([viewedProfile(owner), viewedProfile(owner)]);
    assert.equal(gets, 1);
    assert.equal(a?.id, owner);
    assert.equal(b, a);
    // Kept now: a third asks nothing; a change of it is read anew.
    assert.equal(await viewedProfile(owner), a);
    assert.equal(gets, 1);
    assert.ok((await updateProfile(owner, { description: "New words." })).ok);
    assert.equal((await viewedProfile(owner))?.description, "New words.");
  },
);
