/** Profiles: GET /api/profiles/mine, GET /api/profile/{id}, PUT /api/profile (own profile only). */

import { Hono } from "hono";
import * as z from "zod";
import type { AppEnv } from "../env.ts";
import { badRequest, conflict, forbidden, notFound } from "../errors.ts";
import { jsonBody } from "../validate.ts";
import { requireCaller } from "../middleware.ts";
import { MAX_TEXT, TEXTS } from "../../domain/texts.ts";
import { cleanCharacteristics } from "../../domain/characteristics.ts";
import { normalizeBirthdate } from "../../domain/age.ts";
import { now } from "../../kv/clock.ts";
import { isId } from "../../kv/ids.ts";
import { getProfile, type ProfileRefusal, updateProfile } from "../../kv/profiles.ts";
import { adoptProfileName } from "../../kv/accounts.ts";
import { loadProfileView, viewOfProfile } from "../../kv/profileViews.ts";
import { hotProfileOpened } from "../../kv/games/hotOrNot.ts";
import { MAX_PICS_PER_PROFILE } from "../../kv/pictures.ts";
import type { ProfileChange } from "../../domain/shapes/profiles.ts";
import { answer } from "../answer.ts";

/** The longest profile name stored (lists show the first 12 characters). */
export const MAX_NAME = 50;
/** Height and weight are free text ("6'1\"", "185 cm", "80 kg") of at most this many characters. */
export const MAX_MEASURE = 40;

// Control characters have no business in one-line fields.
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const oneLine = (max: number) =>
  z.string().trim().max(max, `At most ${max} characters.`).refine((s) => !CONTROL.test(s), {
    message: "Control characters are not allowed.",
  });

const picIds = z.array(z.string().refine(isId, "Not a picture id.")).max(MAX_PICS_PER_PROFILE);

/**
 * The profile body. Every field is optional (the editor saves one field on blur); those present
 * are checked and saved. Unknown fields (age, pictures, roles, accountId...) are ignored.
 */
export const profileBody = z.object({
  id: z.string().optional(),
  profilename: oneLine(MAX_NAME).min(1, "Name is required.").optional(),
  birthdate: z.string().max(32).optional(),
  height: oneLine(MAX_MEASURE).optional(),
  weight: oneLine(MAX_MEASURE).optional(),
  description: z.string().max(MAX_TEXT, `The description is at most ${MAX_TEXT} characters.`).optional(),
  characteristics: z.array(z.string().max(40)).max(100).optional(),
  profilePicIds: picIds.optional(),
  profilePicIdsPrivate: picIds.optional(),
});

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
    return answer(c, "GET /api/profile/:id", view);
  })
  .put("/profile", async (c) => {
    const caller = requireCaller(c);
    const body = await jsonBody(c, profileBody);
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
