/**
 * The discovery screens: tiles (/search/tile), swipe cards (/search/swype) and the profile list
 * (/search/profile). Each page renders the first page of nearest briefs through kv/ (the same
 * call the API answers with), so it is complete without a round trip; the islands page on.
 */

import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { renderPage } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import ProfileTiles from "../../islands/ProfileTiles.tsx";
import SwipeDeck from "../../islands/SwipeDeck.tsx";
import ProfileList from "../../islands/ProfileList.tsx";
import { profileBriefs } from "../../kv/briefs.ts";
import { getOwnPosition } from "../../kv/positions.ts";
import { type DiscoveryProps, LIST_PAGE_SIZE, SWIPE_PAGE_SIZE, TILES_PAGE_SIZE } from "../../islands/queries/briefs.ts";

/**
 * What every discovery island gets: the caller's profile and own last report (theirs only), and
 * the first page of their nearest briefs without a filter, or null when there is nothing to show
 * yet (no position reported yet, or nobody near): the island then asks the API itself.
 */
async function discoveryProps(c: Context<AppEnv>, size: number): Promise<DiscoveryProps> {
  const myProfileId = c.get("caller")!.profileId;
  const [own, page] = await Promise.all([
    getOwnPosition(myProfileId),
    profileBriefs(myProfileId, { kind: "nearest" }, { page: 0, size }),
  ]);
  return {
    myProfileId,
    known: own && { lat: own.lat, lon: own.lon, use: own.use, hide: own.hide },
    initial: page.items.length > 0 ? page : null,
  };
}

export async function tilesPage(c: Context<AppEnv>) {
  const props = await discoveryProps(c, TILES_PAGE_SIZE);
  return renderPage(
    c,
    "Profile Tiles",
    <section className="page">
      <h1>Profile Tiles</h1>
      <Island of={ProfileTiles} props={props} />
    </section>,
    { bodyClass: "discovery-wide" },
  );
}

export async function swypePage(c: Context<AppEnv>) {
  const props = await discoveryProps(c, SWIPE_PAGE_SIZE);
  return renderPage(
    c,
    "Swype Profiles",
    <section className="page">
      <h1 className="visually-hidden">Swype Profiles</h1>
      <Island of={SwipeDeck} props={props} />
    </section>,
    { bodyClass: "swipe-page" },
  );
}

export async function profileListPage(c: Context<AppEnv>) {
  const props = await discoveryProps(c, LIST_PAGE_SIZE);
  return renderPage(
    c,
    "Read Profiles",
    <section className="page">
      <h1>Read Profiles</h1>
      <Island of={ProfileList} props={props} />
    </section>,
  );
}
