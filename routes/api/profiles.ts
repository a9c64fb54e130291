/** Profiles: GET /api/profiles/mine, GET /api/profile/{id}, PUT /api/profile (own profile only). */

import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { badRequest, conflict, forbidden, notFound } from "../errors.ts";
import { bodyOf } from "../validate.ts";
import { requireCaller } from "../middleware.ts";
import { TEXTS } from "../../domain/texts.ts";
import { cleanCharacteristics } from "../../domain/characteristics.ts";
import { normalizeBirthdate } from "../../domain/age.ts";
import { now } from "../../kv/clock.ts";
import { isId } from "../../kv/ids.ts";
import { getProfile, type ProfileRefusal, updateProfile } from "../../kv/profiles.ts";
import { adoptProfileName } from "../../kv/accounts.ts";
import { loadProfileView, profileViewText, viewOfProfile } from "../../kv/profileViews.ts";
import { hotProfileOpened } from "../../kv/games/hotOrNot.ts";
import type { ProfileChange } from "../../domain/shapes/profiles.ts";
import { answer, answerWritten } from "../answer.ts";

const REFUSALS: Record<ProfileRefusal, () => Error> = {
  not_found: () => notFound("No such profile."),
  pics_not_yours: () => forbidden("Only your own pictures can be listed on your profile."),
  pics_repeated: () => badRequest("A picture is listed twice."),
  pics_changed: () =>
    conflict("Your pictures changed meanwhile (an upload or a removal); reload and try again.", "pics_changed"),
};

export const profiles = new Hono<AppEnv>()
  .get("/profiles/mine", async (c) => {
    const caller = requireCaller(c);
    const profile = await getProfile(caller.profileId);
    return answer(c, "GET /api/profiles/mine", profile ? [await viewOfProfile(profile, caller.profileId)] : []);
  })
  .get("/profile/:id", async (c) => {
    const caller = requireCaller(c);
    const id = c.req.param("id");
    if (!isId(id)) throw badRequest("Not a profile id.");
    // An open shows the first picture: 'Keep my best picture first' counts it (one read when off), read
    // beside the view so the answer waits for no extra round trip.
    const [view] = await Promise.all([loadProfileView(id, caller.profileId), hotProfileOpened(id, caller.profileId)]);
    if (!view) throw notFound("No such profile.");
    return answerWritten(c, "GET /api/profile/:id", view, profileViewText(view));
  })
  .put("/profile", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "PUT /api/profile");
    if (body.id !== undefined && body.id !== caller.profileId) throw forbidden("You can only edit your own profile.");
    const change: ProfileChange = {};
    if (body.profilename !== undefined) change.profilename = body.profilename;
    if (body.height !== undefined) change.height = body.height;
    if (body.weight !== undefined) change.weight = body.weight;
    if (body.description !== undefined) change.description = body.description;
    if (body.birthdate !== undefined) {
      const birthdate = normalizeBirthdate(body.birthdate, now());
      if (!birthdate.ok) {
        throw badRequest(TEXTS.birthdate[birthdate.reason], birthdate.reason === "under_age" ? "under_age" : undefined);
      }
      change.birthdate = birthdate.birthdate;
    }
    if (body.characteristics !== undefined) {
      const { values, unknown } = cleanCharacteristics(body.characteristics);
      if (unknown.length) throw badRequest(`Unknown characteristics: ${unknown.join(", ")}.`);
      change.characteristics = values;
    }
    if (body.profilePicIds !== undefined) change.profilePicIds = body.profilePicIds;
    if (body.profilePicIdsPrivate !== undefined) change.profilePicIdsPrivate = body.profilePicIdsPrivate;
    const res = await updateProfile(caller.profileId, change);
    if (!res.ok) throw REFUSALS[res.reason]();
    if (change.profilename !== undefined) {
      await adoptProfileName(caller.accountId, caller.profileId, res.profile.profilename);
    }
    return answer(c, "PUT /api/profile", await viewOfProfile(res.profile, caller.profileId));
  });
