/**
 * The games' decks: nearby members (nearest first, nobody blocked either way: profileBriefs leaves
 * those out) and their public pictures, and profiles read by id.
 */

import { kv } from "../db.ts";
import { keys } from "../keys.ts";
import { profileBriefs } from "../briefs.ts";
import type { RatingCard } from "../../domain/shapes/games.ts";
import type { Profile } from "../../domain/shapes/profiles.ts";
import type { ProfileBrief } from "../../domain/shapes/briefs.ts";

/** Profiles by id (missing ones left out). */
export async function profilesOf(ids: readonly string[]): Promise<Map<string, Profile>> {
  const out = new Map<string, Profile>();
  for (let i = 0; i < ids.length; i += 10) {
    const entries = await kv().getMany<Profile[]>(ids.slice(i, i + 10).map(keys.profile));
    for (const e of entries) if (e.value) out.set(e.value.id, e.value);
  }
  return out;
}

/** The nearest members' briefs, `pages` pages of 30 at most. */
export async function nearbyBriefs(viewer: string, pages: number): Promise<ProfileBrief[]> {
  const out: ProfileBrief[] = [];
  for (let page = 0; page < pages; page++) {
    const r = await profileBriefs(viewer, { kind: "nearest" }, { page, size: 30 });
    out.push(...r.items);
    if (!r.hasMore) break;
  }
  return out;
}

/** Nearby members' public pictures, nearest first, without those whose `doneKey` exists. */
export async function nearbyPictures(
  viewer: string,
  max: number,
  doneKey: (picId: string) => Deno.KvKey,
): Promise<RatingCard[]> {
  const briefs = await nearbyBriefs(viewer, 3);
  const cards = briefs.flatMap((b) =>
    b.profilePicIds.map((picId) => ({ picId, profileId: b.profileId, profileName: b.profileName }))
  );
  const out: RatingCard[] = [];
  for (let i = 0; i < cards.length && out.length < max; i += 10) {
    const batch = cards.slice(i, i + 10);
    const done = await kv().getMany(batch.map((c) => doneKey(c.picId)));
    batch.forEach((c, j) => done[j].versionstamp === null && out.push(c));
  }
  return out.slice(0, max);
}
