/** Profiles: the public face of a member. One account owns one default profile. */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { now } from "./clock.ts";
import { isBlockedEither } from "./blocks.ts";
import {
  forgetHere,
  forgetKept,
  forgottenSince,
  keep,
  keepingReads,
  keptCopies,
  keptCopy,
  type KeptEntries,
  keptEntries,
  readBegins,
  stillKept,
} from "./kept.ts";
import type { Profile, ProfileChange } from "../domain/shapes/profiles.ts";

/**
 * Does a member show the Verified badge: the judges compared their selfie with the picture that
 * is first now (a new first picture they did not see ends it until they verify again).
 */
export function isVerified(p: Pick<Profile, "profilePicIds" | "verifiedPicIds">): boolean {
  const first = p.profilePicIds[0];
  return first !== undefined && !!p.verifiedPicIds?.includes(first);
}

/** A new, empty profile record for an account (written by the caller's atomic). */
export function newProfile(id: string, accountId: string, profilename: string, roles: string[]): Profile {
  return {
    id,
    accountId,
    profilename,
    birthdate: "",
    height: "",
    weight: "",
    description: "",
    characteristics: [],
    profilePicIds: [],
    profilePicIdsPrivate: [],
    roles,
    tsUpdated: now(),
    tsCreated: now(),
  };
}

/** A profile by id, or null. */
export async function getProfile(id: string): Promise<Profile | null> {
  return (await kv().get<Profile>(keys.profile(id))).value;
}

// --- profiles as members see them, kept a minute in the instance (kv/kept.ts)

/** Adds to `op` (a write of profile `id`): every instance forgets its kept copy once it commits. Then call `forgetCachedProfile`. */
export function profileChanged(op: Deno.AtomicOperation, id: string): void {
  forgetKept(op, "profile", [id]);
}

/** This instance forgets its kept copy of profile `id` now (after a write of it committed). */
export function forgetCachedProfile(id: string): void {
  forgetHere("profile", [id]);
}

/**
 * A profile for what another member sees of it (a profile page, a like's target), kept a minute
 * by the instance; null for none (never kept: a new profile shows at once). Writes read
 * `getProfile`.
 */
export async function viewedProfile(id: string): Promise<Profile | null> {
  const copy = keptCopy<Profile>("profile", id);
  if (copy) return copy;
  // A read of it already under way is joined (a like asks for its target twice at once: its checks
  // and whether to push to it), unless a profile was forgotten since it began (it may be stale).
  const reading = keepingReads() ? viewedReads(kv()) : null;
  const joined = reading?.get(id);
  if (joined && !forgottenSince("profile", joined.began)) return joined.read;
  const began = readBegins();
  const read = getProfile(id);
  const mine = { read, began };
  reading?.set(id, mine);
  try {
    const p = await read;
    if (p) keep("profile", id, p, began);
    return p;
  } finally {
    if (reading?.get(id) === mine) reading.delete(id);
  }
}

/** `viewedProfile`'s reads in flight, by KV handle and profile id, with when each began. */
const viewedReading = new WeakMap<Deno.Kv, Map<string, { read: Promise<Profile | null>; began: number }>>();

function viewedReads(db: Deno.Kv) {
  let m = viewedReading.get(db);
  if (!m) viewedReading.set(db, m = new Map());
  return m;
}

/** Profile reads for discovery lists in flight on this instance, by KV handle and profile id. */
const readingProfiles = new WeakMap<Deno.Kv, Map<string, Promise<Profile | null>>>();

/**
 * The profiles of `ids` for discovery lists (null for none): kept copies where the instance has
 * them, the others read in batches (10 keys a `getMany`, 16 in flight) and kept. A profile another
 * list is reading already is not read again: when the kept copies of a crowded view expire, the
 * views asked meanwhile share one read of each profile instead of each reading them all.
 */
export async function discoveryProfiles(ids: readonly string[], into: Map<string, Profile | null>): Promise<void> {
  const db = kv();
  let reading = readingProfiles.get(db);
  if (!reading) readingProfiles.set(db, reading = new Map());
  const todo: string[] = [];
  const joined: Promise<void>[] = [];
  const copies = keptCopies<Profile>("profile", ids);
  ids.forEach((id, i) => {
    if (into.has(id)) return;
    const copy = copies[i];
    const pending = copy ? undefined : reading.get(id);
    if (copy) into.set(id, copy);
    else if (pending) joined.push(pending.then((p) => void into.set(id, p)));
    else todo.push(id);
  });
  // Every batch is announced before the first is read, so lists asked meanwhile join them.
  const batches = [];
  const mine = new Map<string, Promise<Profile | null>>();
  for (let i = 0; i < todo.length; i += 10) {
    const batch = todo.slice(i, i + 10);
    const read = Promise.withResolvers<(Profile | null)[]>();
    batch.forEach((id, j) => {
      const one = read.promise.then((ps) => ps[j]);
      one.catch(() => {}); // a failed read fails the lists that await it, not the process
      mine.set(id, one);
      reading.set(id, one);
    });
    batches.push({ batch, ...read });
  }
  try {
    for (let i = 0; i < batches.length; i += 16) {
      await Promise.all(
        batches.slice(i, i + 16).map(async ({ batch, resolve }) => {
          const began = readBegins();
          const entries = await db.getMany<Profile[]>(batch.map((id) => keys.profile(id)));
          const ps = entries.map((e) => e.value);
          batch.forEach((id, j) => {
            into.set(id, ps[j]);
            if (ps[j]) keep("profile", id, ps[j], began);
          });
          resolve(ps);
        }),
      );
    }
  } catch (e) {
    for (const b of batches) b.reject(e);
    throw e;
  } finally {
    for (const [id, one] of mine) if (reading.get(id) === one) reading.delete(id);
  }
  await Promise.all(joined);
}

/**
 * The kept entries of the last list asked under each key (`discoveryProfileList`), with its ids
 * and records: asked again, each entry is checked (kv/kept.ts `stillKept`), not looked up again.
 */
const listsKept = new WeakMap<object, { ids: readonly string[]; kept: KeptEntries; records: Profile[] }>();

/**
 * `discoveryProfiles` of `ids` as a list in their order (null for none): the kept copies looked up
 * once, and only the others read. For a view that takes every profile once (a map view of 600
 * members: no map filled and looked up again per member). Given a `key` (the search page the ids
 * are from, kv/briefs.ts), a list of the same ids asked again under it while every copy is still
 * kept is the same list of the same records, found without a lookup (decision 0205).
 */
export async function discoveryProfileList(ids: readonly string[], key?: object): Promise<(Profile | null)[]> {
  let copies: (Profile | undefined)[];
  if (key === undefined) copies = keptCopies<Profile>("profile", ids);
  else {
    const was = listsKept.get(key);
    if (was !== undefined && sameIds(was.ids, ids) && stillKept("profile", was.kept)) return was.records;
    const kept = keptEntries("profile", ids);
    copies = kept.entries.map((e) => e?.value as Profile | undefined);
    if (!copies.includes(undefined)) listsKept.set(key, { ids, kept, records: copies as Profile[] });
  }
  const missing: string[] = [];
  for (let i = 0; i < ids.length; i++) if (copies[i] === undefined) missing.push(ids[i]);
  if (missing.length === 0) return copies as Profile[];
  const read = new Map<string, Profile | null>();
  await discoveryProfiles(missing, read);
  return ids.map((id, i) => copies[i] ?? read.get(id) ?? null);
}

/**
 * The records of the list last asked under `key` (`discoveryProfileList`), if it was the ids of
 * `items` in order, each had a record, and every one is still kept: the same list, found without
 * a lookup or a list of ids made (a box asked again under its kept search page, kv/briefs.ts).
 */
export function profileListAgain(key: object, items: readonly { profileId: string }[]): Profile[] | undefined {
  const was = listsKept.get(key);
  if (was === undefined || was.ids.length !== items.length) return undefined;
  for (let i = 0; i < items.length; i++) if (was.ids[i] !== items[i].profileId) return undefined;
  return stillKept("profile", was.kept) ? was.records : undefined;
}

/** Whether two lists hold the same ids in order. */
function sameIds(x: readonly string[], y: readonly string[]): boolean {
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

// --- birthdate and age (spec §5)

// --- changes

/** Why a profile change was refused. */
export type ProfileRefusal = "not_found" | "pics_changed" | "pics_not_yours" | "pics_repeated";

export type ProfileResult = { ok: true; profile: Profile } | { ok: false; reason: ProfileRefusal };

/**
 * Applies a validated change to a profile in one checked atomic. Picture lists may only reorder
 * the profile's own pictures and move them between public and private: every picture exactly
 * once, none added (uploads add them) and none dropped (DELETE drops them). A list given alone
 * is completed by the stored other list.
 */
export async function updateProfile(id: string, change: ProfileChange): Promise<ProfileResult> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const entry = await kv().get<Profile>(keys.profile(id));
    if (!entry.value) return { ok: false, reason: "not_found" };
    const old = entry.value;
    const next: Profile = { ...old, ...change, tsUpdated: now() };
    if (change.profilePicIds || change.profilePicIdsPrivate) {
      const have = new Set([...old.profilePicIds, ...old.profilePicIdsPrivate]);
      const want = [...next.profilePicIds, ...next.profilePicIdsPrivate];
      if (new Set(want).size !== want.length) return { ok: false, reason: "pics_repeated" };
      if (want.some((p) => !have.has(p))) return { ok: false, reason: "pics_not_yours" };
      if (want.length !== have.size) return { ok: false, reason: "pics_changed" };
    }
    const op = kv().atomic().check(entry).set(keys.profile(id), next);
    profileChanged(op, id);
    const res = await op.commit();
    if (res.ok) {
      forgetCachedProfile(id);
      return { ok: true, profile: next };
    }
  }
  throw new Error("profile update kept conflicting");
}

// --- what members see

/** May the viewer see anything of the owner's profile? Not when either blocked the other, or the owner is withdrawn. */
export async function profileVisibleTo(ownerProfileId: string, viewerProfileId: string): Promise<boolean> {
  return ownerProfileId === viewerProfileId || !(await isBlockedEither(viewerProfileId, ownerProfileId));
}
