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
import { bodyOf, idSchema, parseWith, queryOf } from "../validate.ts";
import { clientAddress, requireCaller, requireOwnProfile } from "../middleware.ts";
import { aggregates, GeoInputError, getOwnPosition } from "../../kv/positions/mod.ts";
import { saveOwnPosition } from "../ownPosition.ts";
import {
  type BriefsArea,
  type BriefsQuery,
  DEFAULT_SIZES,
  mapView,
  mapViewText,
  unmadeBriefs,
} from "../../kv/briefs.ts";
import { hit } from "../../kv/ratelimit.ts";
import { briefRowsOf, MAP_PROFILE_CAP } from "../../domain/shapes/briefs.ts";
import { config } from "../../config/config.ts";
import { answer, answerWritten, routeStatus } from "../answer.ts";
import { keepAnswer, keptAnswer, viewKey } from "../keptAnswers.ts";
import { answerSignature, Unmade } from "../../kv/briefSignatures.ts";
import type { ApiAnswer, ApiRoute } from "../../domain/contract.ts";
import type { ParsedQuery } from "../../domain/requests.ts";

const sectorParam = z.string().regex(/^-?\d{1,3}:-?\d{1,3}$/, 'must look like "33:-112"');

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

/** The paging and filters of a discovery query, parsed (domain/requests.ts). */
type BriefsParams = ParsedQuery<"GET /api/profile-briefs/nearest">;

/**
 * Answers a discovery call: the caller first (401), then the parameters (400), the limit (429),
 * then `run` with the query in the store's terms, in a heavy view's turn when it answers `size`
 * members or more. `write` writes the answer's JSON as `JSON.stringify` would (the map's view is
 * written from rows kept with each member's profile: kv/briefs.ts). An answer `run` gives unmade
 * (kv/briefSignatures.ts `Unmade`) is made only when its bytes are not kept for its signature.
 */
async function discovery<A, R extends ApiRoute>(
  c: Context<AppEnv>,
  route: R,
  parse: () => { area: A; q: BriefsParams },
  run: (viewerId: string, area: A, query: BriefsQuery) => Promise<ApiAnswer<R> | Unmade<ApiAnswer<R>>>,
  size: (area: A, q: BriefsParams) => number,
  write: (body: ApiAnswer<R>) => string = JSON.stringify,
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
  const found = () =>
    geo(() => run(caller.profileId, area, query)).then((got) => {
      const unmade = got instanceof Unmade;
      // A view signed as it was made (kv/briefSignatures.ts) is sent as kept, if it is the same.
      const signature = unmade ? got.signature : answerSignature(got);
      const made = () => {
        const page = unmade ? got.make() : got;
        return answerWritten(c, route, page, write(page));
      };
      if (signature === undefined) return made();
      const key = viewKey(c, caller.profileId);
      return keptAnswer(c, key, signature, routeStatus(route)) ?? keepAnswer(made(), key, signature);
    });
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
  parse: () => { area: BriefsArea; q: BriefsParams },
) {
  return discovery(c, route, parse, unmadeBriefs, (area, q) => q.size ?? DEFAULT_SIZES[area.kind]);
}

export const positions = new Hono<AppEnv>()
  .put("/profile-position/:profileId", async (c) => {
    const profileId = parseWith(idSchema, c.req.param("profileId"));
    const caller = await requireOwnProfile(c, profileId);
    const body = await bodyOf(c, "PUT /api/profile-position/:profileId");
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
      briefs(
        c,
        "GET /api/profile-briefs/nearest",
        () => ({ area: { kind: "nearest" }, q: queryOf(c, "GET /api/profile-briefs/nearest") }),
      ),
  )
  // The spec's objects, or with `form=rows` the same page as rows (about half the bytes to write,
  // compress and send): a caller asks for the form it reads.
  .get("/profile-briefs/by-bounds", (c) => {
    let rows = false;
    return discovery(
      c,
      "GET /api/profile-briefs/by-bounds",
      () => {
        const { latMin, lonMin, latMax, lonMax, form, ...q } = queryOf(c, "GET /api/profile-briefs/by-bounds");
        rows = form === "rows";
        return { area: { kind: "bounds", bounds: { latMin, lonMin, latMax, lonMax } } as BriefsArea, q };
      },
      async (viewerId, area, query) => {
        const page = await unmadeBriefs(viewerId, area, query);
        return rows ? page.as(briefRowsOf) : page;
      },
      (area, q) => q.size ?? DEFAULT_SIZES[area.kind],
    );
  })
  // The map's own view of a box: markers as rows, none past the profile cap (decision 0129).
  .get("/profile-briefs/map", (c) =>
    discovery(
      c,
      "GET /api/profile-briefs/map",
      () => {
        const { latMin, lonMin, latMax, lonMax, ...q } = queryOf(c, "GET /api/profile-briefs/map");
        return { area: { latMin, lonMin, latMax, lonMax }, q };
      },
      mapView,
      () => MAP_PROFILE_CAP,
      mapViewText,
    ))
  .get("/profile-briefs/by-sector/:sector", (c) =>
    briefs(c, "GET /api/profile-briefs/by-sector/:sector", () => ({
      area: { kind: "sector", sector: parseWith(sectorParam, c.req.param("sector")) },
      q: queryOf(c, "GET /api/profile-briefs/by-sector/:sector"),
    })))
  .get("/profile-positions/aggregates", async (c) => {
    const caller = requireCaller(c);
    await limitDiscovery(c, caller.accountId);
    return answer(c, "GET /api/profile-positions/aggregates", await aggregates());
  });
