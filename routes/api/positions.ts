/**
 * Positions and discovery (spec §7): a member reports (and reads back) their own position; the briefs calls list
 * other members nearest first, at their shown positions only (design.md, "Location privacy").
 *
 * Every briefs call answers `{items: ProfileBrief[], page, size, hasMore}` (kv/briefs.ts) and
 * takes the filters `chars=top,bottom` (every one present) and
 * `likes=likedMyProfile,likedMyPics,iLikedProfile,iLikedPics` (every one holds), `age=25-40`, `km=10`
 * (within; not applied for a caller where being gay is a crime), `online=1`, `pics=1` and `verified=1`.
 */

import { type Context, Hono } from "hono";
import pLimit from "p-limit";
import * as z from "zod";
import type { AppEnv } from "../env.ts";
import { badRequest, notFound, tooMany } from "../errors.ts";
import { idSchema, jsonBody, parseWith, queryOf } from "../validate.ts";
import { clientAddress, requireCaller, requireOwnProfile } from "../middleware.ts";
import { CHARACTERISTIC_VALUES } from "../../domain/characteristics.ts";
import { aggregates, GeoInputError, getOwnPosition } from "../../kv/positions/mod.ts";
import { saveOwnPosition } from "../ownPosition.ts";
import {
  type BriefsArea,
  type BriefsQuery,
  DEFAULT_SIZES,
  mapView,
  MAX_BRIEFS_SIZE,
  profileBriefs,
} from "../../kv/briefs.ts";
import { hit } from "../../kv/ratelimit.ts";
import { LIKE_FILTERS, MAP_PROFILE_CAP } from "../../domain/shapes/briefs.ts";
import { config } from "../../config/config.ts";
import { answer } from "../answer.ts";
import type { ApiAnswer, ApiRoute } from "../../domain/contract.ts";

const NUMBER_RE = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/** A decimal number in a query string, within [min, max]. */
const numberParam = (min: number, max: number) =>
  z.string().trim().regex(NUMBER_RE, "must be a number").transform(Number).pipe(z.number().min(min).max(max));

const intParam = (min: number, max: number) =>
  z.string().trim().regex(/^\d{1,9}$/, "must be a whole number").transform(Number).pipe(z.number().min(min).max(max));

const latParam = numberParam(-90, 90);
const lonParam = numberParam(-180, 180);

/** A comma list in a query string, each value one of `allowed`. */
const listParam = (allowed: ReadonlySet<string>, what: string) =>
  z.string().transform((s, ctx) => {
    const values = [...new Set(s.split(",").map((v) => v.trim().toLowerCase()).filter(Boolean))];
    const bad = values.filter((v) => !allowed.has(v));
    if (bad.length) ctx.addIssue({ code: "custom", message: `unknown ${what}: ${bad.join(", ")}` });
    return values;
  });

const LIKE_FILTER_BY_LOWER = new Map(LIKE_FILTERS.map((f) => [f.toLowerCase(), f]));

const pagingAndFilters = {
  page: intParam(0, 1_000_000).optional(),
  size: intParam(1, MAX_BRIEFS_SIZE).optional(),
  chars: listParam(CHARACTERISTIC_VALUES, "characteristic").optional(),
  likes: listParam(new Set(LIKE_FILTER_BY_LOWER.keys()), "like filter")
    .transform((vs) => vs.map((v) => LIKE_FILTER_BY_LOWER.get(v)!))
    .optional(),
  /** Ages within `min-max` (either end may be left out: `25-`, `-40`). */
  age: z.string().trim().regex(/^(1[89]|[2-9]\d)?-(1[89]|[2-9]\d)?$/, 'must look like "25-40" (18 to 99)')
    .transform((s) => s.split("-").map((v) => v ? Number(v) : undefined))
    .optional(),
  /** Only members within this many kilometres. */
  km: numberParam(0.1, 20_000).optional(),
  /** `1`: only members online now. */
  online: z.enum(["1"]).optional(),
  /** `1`: only members with a picture. */
  pics: z.enum(["1"]).optional(),
  /** Milliseconds since the epoch: leave out members the caller rated before then (the swipe deck). */
  ratedBefore: z.string().trim().regex(/^\d{1,16}$/, "must be a time in milliseconds").transform(Number).optional(),
  /** `verified=1`: only members who show the Verified badge (3 2 1 Identify). */
  verified: z.enum(["1", "true", "0", "false"]).transform((v) => v === "1" || v === "true").optional(),
};

export const briefsQuery = z.object(pagingAndFilters);

export const boundsQuery = z.object({
  ...pagingAndFilters,
  latMin: latParam,
  lonMin: lonParam,
  latMax: latParam,
  lonMax: lonParam,
}).refine((q) => q.latMin <= q.latMax, { message: "latMin must not exceed latMax", path: ["latMin"] });

const { page: _page, size: _size, ...filters } = pagingAndFilters;

/** The map's view: a box and the filters, without paging (one answer of up to `MAP_PROFILE_CAP`). */
export const mapViewQuery = z.object({
  ...filters,
  latMin: latParam,
  lonMin: lonParam,
  latMax: latParam,
  lonMax: lonParam,
}).refine((q) => q.latMin <= q.latMax, { message: "latMin must not exceed latMax", path: ["latMin"] });

const sectorParam = z.string().regex(/^-?\d{1,3}:-?\d{1,3}$/, 'must look like "33:-112"');

const coordinate = (min: number, max: number) => z.number().min(min).max(max).nullish();

/** Spec ProfilePosition as the client sends it; the point in `use` must be given. */
export const positionBody = z.object({
  profileId: idSchema.optional(),
  overrideLat: coordinate(-90, 90),
  overrideLon: coordinate(-180, 180),
  gpsLat: coordinate(-90, 90),
  gpsLon: coordinate(-180, 180),
  gpsTimestamp: z.number().int().min(0).max(8.64e15).nullish(),
  use: z.enum(["OVERRIDE", "DEVICE_GPS"]),
  hide: z.boolean().default(false),
}).superRefine((b, ctx) => {
  const [lat, lon] = b.use === "OVERRIDE" ? ["overrideLat", "overrideLon"] as const : ["gpsLat", "gpsLon"] as const;
  for (const k of [lat, lon]) {
    if (b[k] == null) ctx.addIssue({ code: "custom", path: [k], message: `is required when use is ${b.use}` });
  }
});

/** Counts a discovery query against both scopes; 429 past either. */
async function limitDiscovery(c: Context<AppEnv>, accountId: string): Promise<void> {
  if (!(await hit("discoveryByAccount", accountId)) || !(await hit("discoveryByAddress", clientAddress(c)))) {
    throw tooMany();
  }
}

/** Runs a kv call, turning its `GeoInputError` into a 400. */
async function geo<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof GeoInputError) throw badRequest(e.message);
    throw e;
  }
}

/** An answer of at least this many members is a heavy view (a map's box, a sector, a long list). */
const HEAVY_MIN_SIZE = 100;
/**
 * Heavy views take turns on this process, `HEAVY_VIEWS_AT_ONCE` at once (decision 0133): calls
 * behind them (a grid's nearest, a chat, a like) are served between turns instead of after every
 * heavy view asked meanwhile, and each heavy view, made whole in its turn, is answered sooner.
 */
const heavyViews = config.heavyViewsAtOnce > 0 ? pLimit(config.heavyViewsAtOnce) : null;

/**
 * Answers a discovery call: the caller first (401), then the parameters (400), the limit (429),
 * then `run` with the query in the store's terms, in a heavy view's turn when it answers `size`
 * members or more.
 */
async function discovery<A, R extends ApiRoute>(
  c: Context<AppEnv>,
  route: R,
  parse: () => { area: A; q: z.infer<typeof briefsQuery> },
  run: (viewerId: string, area: A, query: BriefsQuery) => Promise<ApiAnswer<R>>,
  size: (area: A, q: z.infer<typeof briefsQuery>) => number,
) {
  const caller = requireCaller(c);
  const { area, q: { age, km, online, pics, ...q } } = parse();
  const heavy = heavyViews && size(area, q) >= HEAVY_MIN_SIZE;
  // A light view reads beside the limit's count (one wait for the store, not two); its answer is
  // given only once the count allows it. A heavy view is counted before it waits for its turn.
  const limited = limitDiscovery(c, caller.accountId);
  if (heavy) await limited;
  const query = {
    ...q,
    minAge: age?.[0],
    maxAge: age?.[1],
    maxMeters: km === undefined ? undefined : km * 1000,
    online: online === "1",
    withPics: pics === "1",
  };
  const found = () => geo(() => run(caller.profileId, area, query)).then((page) => answer(c, route, page));
  if (heavy) return heavyViews(found);
  const [counted, answered] = await Promise.allSettled([limited, found()]);
  if (counted.status === "rejected") throw counted.reason;
  if (answered.status === "rejected") throw answered.reason;
  return answered.value;
}

/** Answers a briefs call with its page. */
function briefs(
  c: Context<AppEnv>,
  route:
    | "GET /api/profile-briefs/nearest"
    | "GET /api/profile-briefs/by-bounds"
    | "GET /api/profile-briefs/by-sector/:sector",
  parse: () => { area: BriefsArea; q: z.infer<typeof briefsQuery> },
) {
  return discovery(c, route, parse, profileBriefs, (area, q) => q.size ?? DEFAULT_SIZES[area.kind]);
}

export const positions = new Hono<AppEnv>()
  .put("/profile-position/:profileId", async (c) => {
    const profileId = parseWith(idSchema, c.req.param("profileId"));
    const caller = await requireOwnProfile(c, profileId);
    const body = await jsonBody(c, positionBody);
    if (body.profileId !== undefined && body.profileId !== profileId) {
      throw badRequest("profileId in the body must match the path.");
    }
    const gps = body.use === "DEVICE_GPS";
    const own = await saveOwnPosition(caller.accountId, profileId, {
      lat: (gps ? body.gpsLat : body.overrideLat)!,
      lon: (gps ? body.gpsLon : body.overrideLon)!,
      use: body.use,
      hide: body.hide,
      gpsTimestamp: gps ? body.gpsTimestamp ?? null : null,
    });
    // The owner's own record: the only place a reported position is ever sent.
    return answer(c, "PUT /api/profile-position/:profileId", own);
  })
  .get("/profile-position/:profileId", async (c) => {
    const profileId = parseWith(idSchema, c.req.param("profileId"));
    await requireOwnProfile(c, profileId);
    const own = await getOwnPosition(profileId);
    if (!own) throw notFound("No position reported in the last 26 hours.");
    // Only ever the caller's own record.
    return answer(c, "GET /api/profile-position/:profileId", own);
  })
  .get(
    "/profile-briefs/nearest",
    (c) =>
      briefs(c, "GET /api/profile-briefs/nearest", () => ({ area: { kind: "nearest" }, q: queryOf(c, briefsQuery) })),
  )
  .get("/profile-briefs/by-bounds", (c) =>
    briefs(c, "GET /api/profile-briefs/by-bounds", () => {
      const { latMin, lonMin, latMax, lonMax, ...q } = queryOf(c, boundsQuery);
      return { area: { kind: "bounds", bounds: { latMin, lonMin, latMax, lonMax } }, q };
    }))
  // The map's own view of a box: markers as rows, none past the profile cap (decision 0129).
  .get("/profile-briefs/map", (c) =>
    discovery(
      c,
      "GET /api/profile-briefs/map",
      () => {
        const { latMin, lonMin, latMax, lonMax, ...q } = queryOf(c, mapViewQuery);
        return { area: { latMin, lonMin, latMax, lonMax }, q };
      },
      mapView,
      () => MAP_PROFILE_CAP,
    ))
  .get("/profile-briefs/by-sector/:sector", (c) =>
    briefs(c, "GET /api/profile-briefs/by-sector/:sector", () => ({
      area: { kind: "sector", sector: parseWith(sectorParam, c.req.param("sector")) },
      q: queryOf(c, briefsQuery),
    })))
  .get("/profile-positions/aggregates", async (c) => {
    const caller = requireCaller(c);
    await limitDiscovery(c, caller.accountId);
    return answer(c, "GET /api/profile-positions/aggregates", await aggregates());
  });
