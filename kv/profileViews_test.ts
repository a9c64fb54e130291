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
import { reportPosition } from "./positions/mod.ts";

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

/** What `fn` gives, and the keys the store was asked for while it ran. */
async function keysRead<T>(fn: () => Promise<T>): Promise<[T, Deno.KvKey[]]> {
  const proto = Deno.Kv.prototype;
  const [get, getMany] = [proto.get, proto.getMany];
  const read: Deno.KvKey[] = [];
  proto.get = function (this: Deno.Kv, ...a: Parameters<Deno.Kv["get"]>) {
    read.push(a[0]);
    return get.apply(this, a);
  } as Deno.Kv["get"];
  proto.getMany = function (this: Deno.Kv, ...a: Parameters<Deno.Kv["getMany"]>) {
    read.push(...a[0]);
    return getMany.apply(this, a);
  } as Deno.Kv["getMany"];
  try {
    return [await fn(), read];
  } finally {
    [proto.get, proto.getMany] = [get, getMany];
  }
}

keptTest(
  "profile views - a member shown far from every country at risk is viewed without a read of their safety settings; one shown there is still hidden from strangers",
  async () => {
    const [clear, there, viewer] = [
      await member("new-york@example.com"),
      await member("nairobi@example.com"),
      await member("stranger@example.com"),
    ];
    await reportPosition(clear, { lat: 40.7, lon: -74.0, use: "OVERRIDE", hide: false });
    await reportPosition(there, { lat: -1.2864, lon: 36.8172, use: "OVERRIDE", hide: false });
    const safetyReads = (read: Deno.KvKey[]) => read.filter((k) => k[0] === keys.safety(clear)[0]).length;

    const [view, readClear] = await keysRead(() => loadProfileView(clear, viewer));
    assert.equal(view?.id, clear);
    assert.equal(safetyReads(readClear), 0, "nobody near them is at risk: their settings do not matter");

    // Shown where being gay is a crime, not showing themselves to everyone: a stranger finds nothing.
    const [hidden, readThere] = await keysRead(() => loadProfileView(there, viewer));
    assert.equal(hidden, null);
    assert.equal(safetyReads(readThere), 1);
  },
);
