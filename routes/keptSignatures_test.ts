import assert from "node:assert/strict";
import { brotliDecompressSync } from "node:zlib";
import { testApp } from "../tests/api.ts";
import { kv } from "../kv/db.ts";
import { keys } from "../kv/keys.ts";
import { newId } from "../kv/ids.ts";
import { forgetHere, startKeptReads } from "../kv/kept.ts";
import { newProfile, updateProfile } from "../kv/profiles.ts";
import { eventBus } from "../kv/events.ts";
import { NEW_MEMBER_DAYS } from "../kv/briefs.ts";
import { importPositions } from "../kv/positions/mod.ts";
import { forgetKeptSearches, keptSearchCount } from "../kv/positions/keptSearches.ts";
import { now, resetClock, shiftClock } from "../kv/clock.ts";
import { forgetKeptAnswers, keptAnswerCounts } from "./keptAnswers.ts";
import { stopCompressThread } from "./compression.ts";
import type { Profile } from "../domain/shapes/profiles.ts";

const DENVER = { lat: 39.74, lon: -104.99 };
const BOX = "latMin=39.6&lonMin=-105.2&latMax=39.9&lonMax=-104.8";
const DAY = 86_400_000;

/** A member's record, made `age` ms ago, born on `birthdate`. */
function record(id: string, birthdate: string, age: number): Profile {
  return {
    ...newProfile(id, `acc-${id}`, `Member ${id.slice(-4)}`, ["USER"]),
    birthdate,
    tsUpdated: now() - age,
    tsCreated: now() - age,
  };
}

Deno.test("kept signatures - a box asked again, its search, records and signature kept, shows a rename, a new mark ending and a day passing", async () => {
  const t = await testApp();
  // As the server runs: reads kept by the instance, so a record read again within its life is one object.
  startKeptReads();
  await eventBus().log.tail();
  forgetKeptAnswers();
  forgetKeptSearches();
  resetClock();
  try {
    const viewer = await t.member();
    // 120 members around the viewer: the nearest made their profile a minute short of the days a
    // member is shown as new; every one has a birthday tomorrow.
    const tomorrow = new Date(now() + DAY);
    const birthdate = `${tomorrow.getUTCFullYear() - 30}-${tomorrow.toISOString().slice(5, 10)}`;
    const ids = Array.from({ length: 120 }, () => newId());
    for (let i = 0; i < ids.length; i += 40) {
      const op = kv().atomic();
      for (const [j, id] of ids.slice(i, i + 40).entries()) {
        const fresh = i + j === 0;
        op.set(keys.profile(id), record(id, birthdate, fresh ? NEW_MEMBER_DAYS * DAY - 60_000 : 30 * DAY));
      }
      assert.ok((await op.commit()).ok);
    }
    await importPositions([viewer.profileId, ...ids].map((profileId, i) => ({
      profileId,
      lat: DENVER.lat + (i % 11) * 0.004,
      lon: DENVER.lon + Math.floor(i / 11) * 0.004,
      use: "OVERRIDE" as const,
      hide: false,
    })));
    const path = `/api/profile-briefs/by-bounds?${BOX}&size=100`;
    type Page = { items: { profileId: string; isNew: boolean; profileAge: number }[] };
    /** The page as sent (kept or not), beside the page written anew from a search made anew. */
    const ask = async (): Promise<Page> => {
      const res = await t.app.request(`http://localhost${path}`, {
        headers: { cookie: viewer.cookie, "accept-encoding": "gzip, deflate, br" },
      });
      assert.equal(res.headers.get("content-encoding"), "br");
      const sent = JSON.parse(new TextDecoder().decode(brotliDecompressSync(new Uint8Array(await res.arrayBuffer()))));
      forgetKeptSearches();
      assert.deepEqual(sent, (await t.call("GET", path, { cookie: viewer.cookie })).data, "sent as written anew");
      return sent;
    };
    /** Keeps the viewer's session in use across a shift of the clock. */
    const shift = async (ms: number) => {
      shiftClock(ms);
      assert.equal((await t.call("GET", "/api/ping", { cookie: viewer.cookie })).status, 200);
    };
    const newcomer = ids[0];
    const mark = (p: Page) => p.items.find((b) => b.profileId === newcomer)!.isNew;

    let page = await ask();
    assert.equal(page.items.length, 100);
    assert.equal(mark(page), true);
    const sent = keptAnswerCounts().sent;
    page = await ask();
    assert.equal(keptAnswerCounts().sent, sent + 1, "unchanged: sent as kept");
    assert.ok(keptSearchCount() > 0, "its search kept");

    // Two minutes on, the newcomer is no longer new: nothing else changed.
    await shift(120_000);
    page = await ask();
    assert.equal(mark(page), false);
    assert.equal(page.items[0].profileAge, 29);
    // A listed member renamed (their kept record forgotten), then a record read again unchanged
    // once kept copies ran out (kv/kept.ts): each page as written anew.
    const renamed = page.items[3].profileId;
    assert.ok((await updateProfile(renamed, { profilename: "Renamed" })).ok);
    page = await ask();
    assert.equal(page.items[3].profileId, renamed);
    assert.equal((page.items[3] as unknown as { profileName: string }).profileName, "Renamed");
    forgetHere("profile", [page.items[7].profileId]);
    page = await ask();
    // A day on, everyone is a year older (in three steps that each keep the session in use).
    for (let i = 0; i < 3; i++) await shift(8 * 3_600_000 + 20_000);
    page = await ask();
    assert.deepEqual(new Set(page.items.map((b) => b.profileAge)), new Set([30]));
  } finally {
    resetClock();
    forgetKeptAnswers();
    forgetKeptSearches();
    stopCompressThread();
    t.close();
  }
});
