/** /profilePicRateSwipe?profileId=&startProfilePicId= (spec §2): rate a member's pictures by swiping. */

import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { renderPage } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import RateSwipe from "../../islands/RateSwipe.tsx";
import { getProfile } from "../../kv/profiles.ts";
import { isBlockedEither } from "../../kv/blocks.ts";
import { getPicLikes, visiblePicIds } from "../../kv/likes.ts";
import { UI_TEXTS } from "../../domain/uiTexts.ts";
import { titleText } from "../../domain/texts.ts";

export async function rateSwipePage(c: Context<AppEnv>) {
  const me = c.get("caller")!.profileId;
  const profileId = c.req.query("profileId") ?? "";
  // One's own pictures are not rated; a missing, unknown or blocked member has nothing to rate.
  const owner = profileId && profileId !== me ? await getProfile(profileId) : null;
  if (!owner || await isBlockedEither(me, owner.id)) {
    return renderPage(
      c,
      "Rate Pictures",
      <section className="page center">
        <h1>{UI_TEXTS.ratePictures}</h1>
        <p className="likes-empty">{UI_TEXTS.noPicturesToRate}</p>
        <a className="button primary" href="/search/swype">{titleText("Swype Profiles")}</a>
      </section>,
    );
  }
  const picIds = await visiblePicIds(me, owner);
  const start = Math.max(0, picIds.indexOf(c.req.query("startProfilePicId") ?? ""));
  const likes = Object.fromEntries((await getPicLikes(me, picIds)).map((l) => [l.profilePicId, l.likeType]));
  return renderPage(
    c,
    "Rate Pictures",
    <section className="page">
      <h1 className="visually-hidden">{UI_TEXTS.ratePictures}</h1>
      <Island
        of={RateSwipe}
        props={{
          likerProfileId: me,
          owner: { profileId: owner.id, profileName: owner.profilename },
          picIds,
          start,
          likes,
        }}
      />
    </section>,
  );
}
