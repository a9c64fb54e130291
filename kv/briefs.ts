/**
 * Discovery: the nearby queries of kv/positions/mod.ts turned into pages of ProfileBriefs (spec §3),
 * with the map filters of spec §5 (every selected characteristic present; the four like filters),
 * blocked members left out both ways, and the viewer left out. Distances and positions are the
 * shown ones only (design.md, "Location privacy"): nothing here reads a reported position.
 *
 * Paging with a filter on profile fields: the index knows positions, not profiles, so candidates
 * come from the index in distance order, chunk by chunk, their profiles are read in batches and
 * filtered here, until the page and one more are found or the area runs out. Without an attribute
 * filter the first chunk is the page itself.
 */

import { discoveryProfileList, isVerified, profileListAgain } from "./profiles.ts";
import { KEPT } from "./kept.ts";
import { briefVersion, recordFacts, signAnswer, signedAs, Unmade } from "./briefSignatures.ts";
import { setNewest } from "../domain/newest.ts";
import { now } from "./clock.ts";
import { memberAtRisk } from "./safety.ts";
import { ageDayEnd, ageDayOf, ageOf } from "../domain/age.ts";
import { blockedSet } from "./blocks.ts";
import { likeSets, ratedAmong } from "./likes.ts";
import { presenceOf } from "./presence.ts";
import {
  byBounds,
  bySector,
  DEFAULT_BOUNDS_SIZE,
  DEFAULT_NEAREST_SIZE,
  DEFAULT_SECTOR_SIZE,
  GeoInputError,
  isKeptPage,
  MAX_PAGE_SIZE,
  MAX_RESULT_DEPTH,
  type NearbyItem,
  type NearbyPage,
  nearest,
  type QueryOptions,
} from "./positions/mod.ts";
import { type Bounds, shownMeters } from "../domain/geo.ts";
import { toldHour } from "../domain/presence.ts";
import { hasAllCharacteristics } from "../domain/characteristics.ts";
import {
  type BriefsPage,
  type LikeFilter,
  MAP_PROFILE_CAP,
  type MapRow,
  mapRowOf,
  type MapView,
  mapViewOf,
  type ProfileBrief,
} from "../domain/shapes/briefs.ts";
import type { Profile } from "../domain/shapes/profiles.ts";

/** Which members a discovery query covers. */
export type BriefsArea =
  | { kind: "nearest" }
  | { kind: "bounds"; bounds: Bounds }
  | { kind: "sector"; sector: string };

/** Paging and filters of a discovery query. */
export interface BriefsQuery {
  page?: number;
  size?: number;
  /** Lowercase characteristics that must all be present. */
  chars?: readonly string[];
  /** Like filters that must all hold. */
  likes?: readonly LikeFilter[];
  /** Ages (whole years) a member must be within; a member without a birthdate is left out by either. */
  minAge?: number;
  maxAge?: number;
  /** Only members within this distance of the viewer's shown position (ignored where the viewer is at risk). */
  maxMeters?: number;
  /** Only members online now (as the viewer may see it: kv/presence.ts). */
  online?: boolean;
  /** Only members with at least one public picture. */
  withPics?: boolean;
  /**
   * Leave out members the viewer rated (LIKE or DISLIKE) before this time. A fixed time keeps the
   * pages of one swipe session stable while the viewer rates more.
   */
  ratedBefore?: number;
  /** Only members who show the Verified badge (3 2 1 Identify). */
  verified?: boolean;
}

/** The default page size of each area (spec §7: by-bounds 500; by-sector as the map asks, 1500). */
export const DEFAULT_SIZES: Record<BriefsArea["kind"], number> = {
  nearest: DEFAULT_NEAREST_SIZE,
  bounds: DEFAULT_BOUNDS_SIZE,
  sector: DEFAULT_SECTOR_SIZE,
};

/** Largest page size a discovery query accepts. */
export const MAX_BRIEFS_SIZE = MAX_PAGE_SIZE;

/** `p`'s brief at `at`, judged at `t` (`age`: their age then, when known already). */
function briefOf(p: Profile, at: NearbyItem, t: number, age = ageOf(p.birthdate, t)): ProfileBrief {
  return {
    profileId: p.id,
    profileName: p.profilename,
    profileAge: age,
    profileChars: p.characteristics,
    profileWeight: p.weight,
    profileHeight: p.height,
    profilePicIds: p.profilePicIds,
    lat: at.lat,
    lon: at.lon,
    distanceMeters: shownDistance(at),
    tsUpdated: toldHour(at.tsUpdated),
    isNew: isNewAt(p, t),
    verified: isVerified(p),
  };
}

/**
 * A brief's distance: whole meters, as every screen shows it (a fraction of a meter would also be
 * about a fifth of a brief's compressed bytes: its digits do not compress).
 */
function shownDistance(at: NearbyItem): number {
  return shownMeters(at.distanceMeters);
}

/** Is `p` shown as new at `t`? */
function isNewAt(p: Profile, t: number): boolean {
  return isNewSince(p.tsCreated ?? -Infinity, t);
}

/** Is a member who made their profile at `created` (`-Infinity`: not known) shown as new at `t`? */
function isNewSince(created: number, t: number): boolean {
  return t - created < NEW_MEMBER_MS;
}

/**
 * Does `q` leave members out by what their profile or presence says (characteristics, age,
 * distance, online now, pictures, verified), not only by place, blocks, likes or ratings?
 */
function filtersAttributes(q: BriefsQuery): boolean {
  return (q.chars?.length ?? 0) > 0 || q.minAge !== undefined || q.maxAge !== undefined ||
    q.maxMeters !== undefined || !!q.online || !!q.withPics || q.verified === true;
}

/** A member is shown as new (a mark on the grid) for this many days after making their profile. */
export const NEW_MEMBER_DAYS = 7;
const NEW_MEMBER_MS = NEW_MEMBER_DAYS * 24 * 3_600_000;

function search(area: BriefsArea, viewerId: string, o: QueryOptions): Promise<NearbyPage> {
  switch (area.kind) {
    case "nearest":
      return nearest(viewerId, o);
    case "bounds":
      return byBounds({ ...area.bounds, ...o }, viewerId);
    case "sector":
      return bySector(area.sector, o, viewerId);
  }
}

/**
 * One page of the members of `area` for `viewerId`, nearest to the viewer's shown position first:
 * without the viewer, members either of them blocked, hidden and expired members, and members
 * with no profile; filtered by `q.chars`, `q.likes`, age, distance, online now and pictures. Bad paging or coordinates throw
 * `GeoInputError`. A viewer without a valid position gets an empty `nearest`.
 */
export async function profileBriefs(viewerId: string, area: BriefsArea, q: BriefsQuery = {}): Promise<BriefsPage> {
  return (await unmadeBriefs(viewerId, area, q)).made();
}

/**
 * `profileBriefs`'s page not made yet, with its signature (kv/briefSignatures.ts `Unmade`): a
 * route that has the page's bytes kept for that signature sends them, and makes no brief
 * (decision 0205).
 */
export async function unmadeBriefs(
  viewerId: string,
  area: BriefsArea,
  q: BriefsQuery = {},
): Promise<Unmade<BriefsPage>> {
  const page = q.page ?? 0, size = q.size ?? DEFAULT_SIZES[area.kind];
  if (!Number.isSafeInteger(page) || page < 0) throw new GeoInputError("page must be an integer >= 0");
  if (!Number.isSafeInteger(size) || size < 1 || size > MAX_BRIEFS_SIZE) {
    throw new GeoInputError(`size must be an integer in [1, ${MAX_BRIEFS_SIZE}]`);
  }
  const chars = q.chars ?? [];
  const verifiedOnly = q.verified === true;
  const likes = q.likes ?? [];
  const [exclude, sets, atRisk] = await Promise.all([
    blockedSet(viewerId),
    likes.length > 0 ? likeSets(viewerId) : Promise.resolve(null),
    memberAtRisk(viewerId),
  ]);
  // A distance filter would place members for a viewer at risk: it is not applied there.
  const maxMeters = atRisk ? undefined : q.maxMeters;
  const fits = (b: ProfileBrief) =>
    (q.minAge === undefined || (b.profileAge !== null && b.profileAge >= q.minAge)) &&
    (q.maxAge === undefined || (b.profileAge !== null && b.profileAge <= q.maxAge)) &&
    (maxMeters === undefined || (b.distanceMeters !== null && b.distanceMeters <= maxMeters)) &&
    (!q.withPics || b.profilePicIds.length > 0) &&
    (!verifiedOnly || b.verified);
  const attributeFilter = filtersAttributes({ ...q, maxMeters });
  const likeFilter = sets ? (id: string) => likes.every((f) => sets[f].has(id)) : undefined;

  // (page + 1) * size accepted members make the page, one more tells whether another follows.
  const want = (page + 1) * size + 1;
  /** Does the query accept every member the search finds that has a record (no filter of its own)? */
  const plain = !attributeFilter && q.ratedBefore === undefined && !q.online && chars.length === 0;
  // A filter rejects candidates (an attribute, or rated before: the swipe deck): read them in
  // larger chunks (fewer index searches).
  // A deck read from the top meets long runs of members rated before: larger chunks still.
  const chunk = Math.min(
    MAX_PAGE_SIZE,
    q.ratedBefore !== undefined ? Math.max(8 * want, 1000) : attributeFilter ? Math.max(4 * want, 200) : want,
  );
  // Each accepted member's place, record and when they were judged, in order: their briefs are
  // made for the page shown only (`briefsPage`).
  let places: NearbyItem[] = [], records: Profile[] = [], times: number[] = [];
  /** The briefs made to judge a filter, by place in `places` (reused for the page). */
  const made: ProfileBrief[] = [];
  /** The one search found, while every member it found is accepted, in order (`signed`). */
  let whole: NearbyPage | undefined;
  for (let k = 0; places.length < want && (k + 1) * chunk <= MAX_RESULT_DEPTH; k++) {
    const found = await search(area, viewerId, { page: k, size: chunk, exclude, filter: likeFilter });
    whole = k === 0 ? found : undefined;
    // No filter here, a page of the search's size, and its records as last asked and all still
    // kept: every member found is accepted, in order, from the same records (decision 0205). The
    // search's own list stands for the places: nothing is added to it (the page is all there is).
    const again = k === 0 && plain && isKeptPage(found) && (found.items.length === want || !found.hasMore)
      ? profileListAgain(found, found.items)
      : undefined;
    if (again !== undefined) {
      places = found.items;
      records = again;
      times = new Array(again.length).fill(now());
      break;
    }
    // Without an attribute filter a candidate with a profile is accepted: read only as many as the
    // page still needs (a swipe deck's chunk is larger than its page), then more if some drop out.
    // Each further read is twice the last (many rated members in a row: few round trips).
    for (let i = 0, grow = 16; i < found.items.length && places.length < want; grow *= 2) {
      const take = attributeFilter ? found.items.length : Math.max(want - places.length, grow);
      const slice = found.items.slice(i, i + take);
      i += slice.length;
      // Members rated before the deck opened: asked about the candidates only, never the whole history.
      const rated = q.ratedBefore !== undefined
        ? await ratedAmong(viewerId, slice.map((it) => it.profileId), q.ratedBefore)
        : null;
      const candidates = rated ? slice.filter((it) => !rated.has(it.profileId)) : slice;
      const ids = candidates.map((it) => it.profileId);
      // The records as one list in the candidates' order: no map filled and looked up again.
      const [read, presence] = await Promise.all([
        // Under the kept search page they are from: asked again, its records are not looked up again.
        discoveryProfileList(ids, isKeptPage(found) ? found : undefined),
        q.online ? presenceOf(viewerId, ids) : Promise.resolve(null),
      ]);
      const t = now();
      for (let j = 0; j < candidates.length; j++) {
        const it = candidates[j], p = read[j];
        // No characteristic asked: the record's field is not read (a field of hundreds of records
        // read from the store, each with its own set of fields, is a slow read).
        if (!p || (chars.length > 0 && !hasAllCharacteristics(p.characteristics, chars))) continue;
        if (presence && !presence[it.profileId]?.online) continue;
        if (attributeFilter) {
          const b = briefOf(p, it, t);
          if (!fits(b)) continue;
          made[places.length] = b;
        }
        places.push(it);
        records.push(p);
        times.push(t);
      }
    }
    if (!found.hasMore) break;
  }
  if (whole !== undefined && places.length !== whole.items.length) whole = undefined;
  // A page past the last member is empty.
  const from = page * size, to = Math.max(from, Math.min(places.length, (page + 1) * size));
  const accepted: Accepted = { places, records, times, made, from, to };
  const hasMore = places.length >= want;
  // A viewer where being gay is a crime (kv/safety.ts): what their screen shows must place no one.
  if (atRisk) {
    if (area.kind === "bounds") {
      return new Unmade(undefined, () => ({ items: [], page, size, hasMore: false, nearbyOnly: true }));
    }
    const head: PageHead = { page, size, hasMore, nearbyOnly: true };
    return new Unmade(signed(whole, accepted, head), () => briefsPage(accepted, head));
  }
  // Every page is signed (the grid asks its nearest list again every few seconds, the map its box).
  const head = { page, size, hasMore };
  return new Unmade(signed(whole, accepted, head), () => briefsPage(accepted, head));
}

/**
 * A page's signature given again (decision 0205), by the search page it was made from whole (every
 * member found accepted, in order): a search kept (kv/positions/keptSearches.ts) is the same
 * object, with the same places; while the records are the same objects too (kept, kv/kept.ts), the
 * head is the same and the time is before the day ends and before any member's new mark ends, the
 * signature is the same, and is the same object (the kept answer's, compared at once).
 */
const signedPages = new WeakMap<
  NearbyPage,
  { records: readonly Profile[]; head: PageHead; from: number; to: number; at: number; until: number; s: Float64Array }
>();

/** `pageSignature(a, head)`, given again where it stands (`signedPages`) when `whole` is the search it was all made from. */
function signed(whole: NearbyPage | undefined, a: Accepted, head: PageHead): Float64Array {
  if (whole === undefined || a.to === a.from || !isKeptPage(whole)) return pageSignature(a, head);
  const t = a.times[a.from];
  const was = signedPages.get(whole);
  if (
    was !== undefined && t >= was.at && t < was.until && was.from === a.from && was.to === a.to &&
    was.head.page === head.page && was.head.size === head.size && was.head.hasMore === head.hasMore &&
    was.head.nearbyOnly === head.nearbyOnly && sameRecords(was.records, a.records)
  ) return was.s;
  const s = pageSignature(a, head);
  let until = ageDayEnd(t);
  for (let k = a.from; k < a.to; k++) {
    const created = recordFacts(a.records[k]).created;
    if (isNewSince(created, t)) until = Math.min(until, created + NEW_MEMBER_MS);
  }
  signedPages.set(whole, { records: a.records, head, from: a.from, to: a.to, at: t, until, s });
  return s;
}

/** Whether two lists hold the same record objects, in order. */
function sameRecords(x: readonly Profile[], y: readonly Profile[]): boolean {
  if (x === y) return true;
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/**
 * The members a query accepted, in order: where each is, their record, when judged, and any brief
 * made then; and the page shown, `from` to `to`.
 */
interface Accepted {
  places: readonly NearbyItem[];
  records: readonly Profile[];
  times: readonly number[];
  made: readonly (ProfileBrief | undefined)[];
  from: number;
  to: number;
}

/** A page's fields besides its briefs. */
interface PageHead {
  page: number;
  size: number;
  hasMore: boolean;
  nearbyOnly?: true;
}

/**
 * The page of the accepted members `from` to `to` as plain fields (`items` first, then the head's);
 * where it places no one, every distance is left out. Made only for a page not sent as kept
 * (`Unmade`), and then its briefs at once: an object whose items were made when first read (a
 * getter) cost more to write than the briefs it saved, since `JSON.stringify` leaves its fast path
 * for every object under one with an accessor (decision 0198).
 */
function briefsPage(a: Accepted, head: PageHead): BriefsPage {
  const items: ProfileBrief[] = [];
  for (let k = a.from; k < a.to; k++) {
    const b = a.made[k] ?? briefOf(a.records[k], a.places[k], a.times[k]);
    items.push(head.nearbyOnly ? { ...b, distanceMeters: null } : b);
  }
  return { items, ...head };
}

/**
 * The signature of a page of briefs (kv/briefSignatures.ts): its paging and whether it places no
 * one (`nearbyOnly`), then each member's version and the figures of their brief that are not from
 * their record, in order, computed as `briefOf` computes them (`shownDistance`, `isNewAt`); for
 * the age, the day it is judged on (with the birthdate, in the version, that is the age: `ageOf`).
 * It reads each record's facts (`recordFacts`), not the record.
 */
function pageSignature(a: Accepted, head: PageHead): Float64Array {
  const s = new Float64Array(4 + 7 * (a.to - a.from));
  s[0] = head.page;
  s[1] = head.size;
  s[2] = head.hasMore ? 1 : 0;
  s[3] = head.nearbyOnly ? 1 : 0;
  let i = 4;
  for (let k = a.from; k < a.to; k++) {
    const f = recordFacts(a.records[k]), at = a.places[k], t = a.times[k];
    s[i++] = f.version;
    s[i++] = at.lat;
    s[i++] = at.lon;
    s[i++] = head.nearbyOnly ? -1 : shownDistance(at);
    s[i++] = toldHour(at.tsUpdated);
    s[i++] = ageDayOf(t);
    s[i++] = isNewSince(f.created, t) ? 1 : 0;
  }
  return s;
}

/**
 * The map's view of `bounds` for `viewerId` (decision 0129): the members `profileBriefs` gives for
 * the box at the profile cap's size, as marker rows, or none and `tooMany` at the cap or more.
 * Without a filter, a crowded view is told from the position index alone (the members in the box,
 * blocks left out), before any profile is read: the view a dense city's map asks most is then the
 * cheapest. A member with no profile still counts there, as they never stay so. Under the cap,
 * every member found who has a profile is a marker (what `profileBriefs` accepts without a
 * filter), and each row is made from the profile and the shown position, with no brief between.
 */
export async function mapView(viewerId: string, bounds: Bounds, q: BriefsQuery = {}): Promise<MapView> {
  if (filtersAttributes(q) || (q.likes?.length ?? 0) > 0 || q.ratedBefore !== undefined) {
    const page = await profileBriefs(viewerId, { kind: "bounds", bounds }, { ...q, page: 0, size: MAP_PROFILE_CAP });
    // Its rows are made from the page alone: the page's signature is theirs.
    return signedAs(mapViewOf(page), page);
  }
  const [exclude, atRisk] = await Promise.all([blockedSet(viewerId), memberAtRisk(viewerId)]);
  const found = await byBounds({ ...bounds, page: 0, size: MAP_PROFILE_CAP, exclude }, viewerId);
  // A viewer where being gay is a crime is shown no one on a map, as profileBriefs answers a box
  // (the search above still refuses a bad box): no profile is read.
  if (atRisk) return { rows: [], tooMany: false };
  if (found.items.length >= MAP_PROFILE_CAP) return { rows: [], tooMany: true };
  const profiles = await discoveryProfileList(found.items.map((it) => it.profileId));
  const rows: MapRow[] = [];
  const texts: string[] = [];
  // Each row's member version and shown point, in order: the view's signature.
  const signature = new Float64Array(3 * found.items.length);
  for (let i = 0; i < found.items.length; i++) {
    const it = found.items[i], p = profiles[i];
    if (!p) continue;
    const kept = rowParts.get(p.id);
    // The row's own record (one object while kept): its version is the row's, with no other lookup.
    const version = kept !== undefined && kept.profile === p ? kept.version : briefVersion(p);
    signature[3 * rows.length] = version;
    signature[3 * rows.length + 1] = it.lat;
    signature[3 * rows.length + 2] = it.lon;
    if (kept !== undefined && kept.version === version && kept.lat === it.lat && kept.lon === it.lon) {
      kept.profile = p;
      rows.push(kept.row);
      texts.push(kept.text);
      continue;
    }
    const row = mapRowOf({
      profileId: p.id,
      profileName: p.profilename,
      lat: it.lat,
      lon: it.lon,
      profilePicIds: p.profilePicIds,
      profileChars: p.characteristics,
      verified: isVerified(p),
    });
    const text = JSON.stringify(row);
    setNewest(rowParts, p.id, { profile: p, version, lat: it.lat, lon: it.lon, row, text }, KEPT.profile.max);
    rows.push(row);
    texts.push(text);
  }
  const view = { rows, tooMany: false };
  viewTexts.set(view, texts);
  return signAnswer(view, signature.subarray(0, 3 * rows.length));
}

/**
 * A member's map row and its JSON, by profile id, kept with the version of the profile fields it
 * is made from (kv/briefSignatures.ts: the same while they are, through every read of the record
 * again) and the last record it was found for, for the shown position it was made at: every map
 * view that shows them until then shares one row, written once. `JSON.stringify` of a view of 600
 * rows wrote the same ids, names and coordinates again for every view. A plain map (no weak keys):
 * nothing more for the garbage collector to trace.
 */
const rowParts = new Map<
  string,
  { profile: Profile; version: number; lat: number; lon: number; row: MapRow; text: string }
>();

/** The JSON of each row of the map views made by `mapView`, in order. */
const viewTexts = new WeakMap<MapView, readonly string[]>();

/** `view`'s JSON, exactly as `JSON.stringify(view)` writes it: a view `mapView` made from its rows' kept JSON. */
export function mapViewText(view: MapView): string {
  const texts = viewTexts.get(view);
  if (!texts || texts.length !== view.rows.length) return JSON.stringify(view);
  return '{"rows":[' + texts.join(",") + '],"tooMany":' + view.tooMany + "}";
}

/** How many of the nearest members the map's first view is fitted to: about the grid's first screenful. */
export const MAP_FIRST_VIEW_MEMBERS = 12;

/**
 * The shown points of the members nearest `viewerId` that the map shows (blocks left out both
 * ways; none for a viewer where being gay is a crime, as the map shows them no one): the map opens
 * zoomed so that they show (islands/map/firstView.ts). Positions only, nearest first.
 */
export async function nearestPoints(
  viewerId: string,
  size = MAP_FIRST_VIEW_MEMBERS,
): Promise<{ lat: number; lon: number }[]> {
  const [exclude, atRisk] = await Promise.all([blockedSet(viewerId), memberAtRisk(viewerId)]);
  if (atRisk) return [];
  const found = await nearest(viewerId, { size, exclude });
  return found.items.map(({ lat, lon }) => ({ lat, lon }));
}
