/**
 * The discovery screens: tiles (/search/tile), swipe cards (/search/swype) and the profile list
 * (/search/profile). Each page renders the first page of nearest briefs through kv/ (the same
 * call the API answers with), so it is complete without a round trip; the islands page on.
 */

import type { Context } from "hono";
import type { ReactElement } from "react";
import type { AppEnv } from "../env.ts";
import { renderPage, safetyNoticeFor } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import ProfileTiles from "../../islands/ProfileTiles.tsx";
import SwipeDeck from "../../islands/SwipeDeck.tsx";
import ProfileList from "../../islands/ProfileList.tsx";
import { profileBriefs } from "../../kv/briefs.ts";
import { knownLocation } from "../../kv/positions/mod.ts";
import { now } from "../../kv/clock.ts";
import { type DiscoveryProps, LIST_PAGE_SIZE, SWIPE_PAGE_SIZE, TILES_PAGE_SIZE } from "../../islands/queries/briefs.ts";
import { titleText } from "../../domain/texts.ts";
import { distanceText, formatDistance } from "../../domain/format.ts";
import { FILTER_KMS } from "../../components/FilterPanel.tsx";

/**
 * What every discovery island gets: the caller's profile and own last report (theirs only), and
 * the first page of their nearest briefs without a filter, or null when there is nothing to show
 * yet (no position reported yet, or nobody near): the island then asks the API itself.
 */
async function discoveryProps(
  c: Context<AppEnv>,
  size: number,
  unrated: boolean,
  distanceTexts: boolean,
): Promise<DiscoveryProps> {
  const myProfileId = c.get("caller")!.profileId;
  const ratedBefore = unrated ? now() : undefined;
  const [known, page] = await Promise.all([
    knownLocation(myProfileId),
    profileBriefs(myProfileId, { kind: "nearest" }, { page: 0, size, ratedBefore }),
  ]);
  return {
    myProfileId,
    known,
    initial: page.items.length > 0 ? page : null,
    ...(ratedBefore !== undefined ? { ratedBefore } : {}),
    ...(distanceTexts && page.items.length > 0
      ? {
        distanceTexts: Object.fromEntries([
          ...page.items.filter((b) => typeof b.distanceMeters === "number")
            .map((b) => [String(b.distanceMeters), distanceText(b.distanceMeters)]),
          ...FILTER_KMS.map((km) => [String(km * 1000), formatDistance(km * 1000)]),
        ]),
      }
      : {}),
  };
}

/**
 * A discovery page: its title as the heading (hidden on the swipe screen, where the deck needs
 * the height), and its island with the discovery props for pages of `size`.
 */
function discoveryPage(
  title: string,
  size: number,
  island: (props: DiscoveryProps) => ReactElement,
  opts: {
    bodyClass: string;
    hideHeading?: boolean;
    unrated?: boolean;
    screen?: boolean;
    backForward?: boolean;
    picturesFirst?: boolean;
    hydrateInSlices?: boolean;
    /** The island shows distances: the first page's go with it as the server wrote them. */
    distanceTexts?: boolean;
  },
) {
  return async (c: Context<AppEnv>) => {
    // The safety notice's reads and the first page's go together: one wait for the store, not two.
    const [notice, props] = await Promise.all([
      safetyNoticeFor(c),
      discoveryProps(c, size, opts.unrated ?? false, opts.distanceTexts ?? false),
    ]);
    return renderPage(
      c,
      title,
      <section className="page">
        <h1 className={opts.hideHeading ? "visually-hidden" : opts.screen ? "screen-heading" : undefined}>
          {titleText(title)}
        </h1>
        {notice}
        {island(props)}
      </section>,
      {
        bodyClass: opts.bodyClass,
        screen: opts.screen,
        backForward: opts.backForward,
        picturesFirst: opts.picturesFirst,
        hydrateInSlices: opts.hydrateInSlices,
      },
    );
  };
}

export const tilesPage = discoveryPage(
  "Profile Tiles",
  TILES_PAGE_SIZE,
  (p) => <Island of={ProfileTiles} props={p} />,
  // Back to the grid from a profile shows it at once, where it was (the back/forward cache); its
  // first row of pictures is fetched before its scripts (decision 0174), and its islands hydrate
  // in slices (decision 0183).
  {
    bodyClass: "discovery-wide",
    screen: true,
    backForward: true,
    picturesFirst: true,
    hydrateInSlices: true,
    distanceTexts: true,
  },
);

export const swypePage = discoveryPage(
  "Swype Profiles",
  SWIPE_PAGE_SIZE,
  (p) => <Island of={SwipeDeck} props={p} />,
  // The deck shows only members not rated yet: a swipe is not asked for twice.
  { bodyClass: "swipe-page", hideHeading: true, unrated: true },
);

export const profileListPage = discoveryPage(
  "Read Profiles",
  LIST_PAGE_SIZE,
  (p) => <Island of={ProfileList} props={p} />,
  { bodyClass: "discovery-list", screen: true },
);
