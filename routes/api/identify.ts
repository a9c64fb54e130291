/**
 * 3 2 1 Identify (kv/games/identify.ts): a member asks for a pose and sends a selfie taken with
 * the camera; judges are dealt selfies and answer; admins decide the disagreements. A judge sees
 * the selfie and the member's public pictures only through the attempt's opaque id, only while
 * it is dealt to them: never a name, a profile id, a picture id or a place. Selfies are served
 * `Cache-Control: no-store, private`. A member who may not judge is told why (200, no item);
 * an answer carries where it came from (hashed) so judges answering from one place do not decide.
 * An admin may decide any waiting selfie; the decision is in the audit log.
 */

import { type Context, Hono } from "hono";
import * as z from "zod";
import type { AppEnv } from "../env.ts";
import { ApiError, badRequest, conflict, dailyLimit, notFound, tooMany } from "../errors.ts";
import { bodyOf, parseWith } from "../validate.ts";
import { tokenSchema } from "../../domain/requestParts.ts";
import { clientAddress, requireAdmin, requireCaller } from "../middleware.ts";
import { deviceToken } from "../login.ts";
import { placeOf } from "../../kv/origins.ts";
import { readMultipart } from "../multipart.ts";
import { hit } from "../../kv/ratelimit.ts";
import { getCredits } from "../../kv/games/credits.ts";
import {
  adminQueue,
  adminView,
  answerAttempt,
  decideAttempt,
  getAttempt,
  identifyStatus,
  issueChallenge,
  maySeeSelfie,
  nextJudgeItem,
  onlyVerifiedMessages,
  ownPictureBytes,
  selfieBlob,
  setOnlyVerifiedMessages,
  submitSelfie,
  withdrawAttempt,
} from "../../kv/games/identify.ts";
import { getPic } from "../../kv/pictures.ts";
import { loadVariant } from "../../workers/pictures.ts";
import { MAX_UPLOAD_BYTES, normalizeUpload, perceptualHash, PictureRejected } from "../../images/pipeline.ts";
import { answer } from "../answer.ts";

const NO_STORE = { "Cache-Control": "no-store, private", "X-Content-Type-Options": "nosniff" };

const REFUSED = {
  attempt_open: () => conflict("Your selfie is still being judged. Withdraw it to start again.", "attempt_open"),
  no_picture: () => conflict("Add a public picture of yourself first.", "no_picture"),
  daily_limit: () => dailyLimit("At most 3 selfies a day. Try again tomorrow."),
  challenge_invalid: () => new ApiError(410, "challenge_invalid", "This pose expired or was used. Ask for a new one."),
  selfie_reused: () => conflict("This picture was sent before. Take a new selfie.", "selfie_reused"),
};

/** The attempt `c` names, when the caller may see it (an admin, or a judge it is dealt to). */
async function visibleAttempt(c: Context<AppEnv>) {
  const caller = requireCaller(c);
  const id = parseWith(tokenSchema, c.req.param("attemptId"));
  const a = await getAttempt(id);
  if (!a || !(await maySeeSelfie(caller.profileId, id, caller.roles.includes("ADMIN")))) {
    throw notFound("No such selfie.");
  }
  return a;
}

export const identify = new Hono<AppEnv>()
  // The caller's standing: verified, lapsed, pending, attempts left.
  .get("/games/identify", async (c) => {
    const caller = requireCaller(c);
    const [status, credits] = await Promise.all([identifyStatus(caller.profileId), getCredits(caller.profileId)]);
    return answer(c, "GET /api/games/identify", { status, credits });
  })
  .post("/games/identify/challenge", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "POST /api/games/identify/challenge");
    const r = await issueChallenge(caller.profileId, body.noHands ?? false);
    if (!r.ok) throw REFUSED[r.reason]();
    return answer(c, "POST /api/games/identify/challenge", { challenge: r.challenge });
  })
  // The selfie: multipart with the challenge id and the picture (taken in the page).
  .post("/games/identify/selfie", async (c) => {
    const caller = requireCaller(c);
    if (!(await hit("uploadByAccount", caller.accountId))) throw tooMany();
    const form = await readMultipart(c.req.raw, { maxFileBytes: MAX_UPLOAD_BYTES, maxFieldBytes: 200, maxParts: 4 });
    const challenge = parseWith(tokenSchema, form.fields.get("challenge"));
    const file = form.files.get("selfie");
    if (!file) throw badRequest("selfie is required.");
    try {
      // Re-encoded without metadata (EXIF and the rest), hashed, beside the hashes of the member's own pictures.
      const picture = await normalizeUpload(file.bytes);
      const hash = await perceptualHash(picture.bytes);
      const own = await Promise.all(
        (await ownPictureBytes(caller.profileId)).map((b) => perceptualHash(b).catch(() => null)),
      );
      const r = await submitSelfie(
        caller.profileId,
        challenge,
        picture,
        hash,
        own.filter((h): h is bigint => h !== null),
      );
      if (!r.ok) throw REFUSED[r.reason]();
      return answer(c, "POST /api/games/identify/selfie", { attemptId: r.attempt.id, poseId: r.attempt.poseId });
    } catch (e) {
      if (e instanceof PictureRejected) throw new ApiError(e.status, "unreadable_picture", e.reasons.join(" "));
      throw e;
    }
  })
  // The member withdraws their selfie being judged: deleted at once.
  .delete("/games/identify/attempt", async (c) => {
    const caller = requireCaller(c);
    if (!(await withdrawAttempt(caller.profileId))) throw notFound("No selfie is being judged.");
    return answer(c, "DELETE /api/games/identify/attempt", { ok: true as const });
  })
  // Judging: the next selfie dealt to the caller, its pictures, and the answer.
  .get("/games/identify/next", async (c) => {
    const caller = requireCaller(c);
    const [deal, credits] = await Promise.all([nextJudgeItem(caller.profileId), getCredits(caller.profileId)]);
    return answer(c, "GET /api/games/identify/next", {
      item: deal.item,
      why: deal.why,
      judgeFrom: deal.judgeFrom,
      credits,
    });
  })
  .get("/games/identify/attempts/:attemptId/selfie", async (c) => {
    const a = await visibleAttempt(c);
    const blob = await selfieBlob(a.id);
    if (!blob) throw notFound("No such selfie.");
    return c.body(blob.bytes as Uint8Array<ArrayBuffer>, 200, { "Content-Type": blob.type, ...NO_STORE });
  })
  .get("/games/identify/attempts/:attemptId/pictures/:n", async (c) => {
    const a = await visibleAttempt(c);
    const n = parseWith(z.coerce.number().int().min(0).max(20), c.req.param("n"));
    const pic = a.picIds[n] ? await getPic(a.picIds[n]) : null;
    const served = pic && await loadVariant(pic, { size: 512, blur: pic.nsfw });
    if (!served) throw notFound("No such picture.");
    return c.body(served.bytes as Uint8Array<ArrayBuffer>, 200, { "Content-Type": served.type, ...NO_STORE });
  })
  .put("/games/identify/attempts/:attemptId", async (c) => {
    const caller = requireCaller(c);
    const id = parseWith(tokenSchema, c.req.param("attemptId"));
    const said = (await bodyOf(c, "PUT /api/games/identify/attempts/:attemptId")).answer;
    const r = await answerAttempt(caller.profileId, id, said, await placeOf(clientAddress(c), deviceToken(c)));
    if (!r.ok) {
      if (r.reason === "answered") throw conflict("You already answered.", "already_voted");
      if (r.reason === "not_eligible") {
        throw new ApiError(403, "not_eligible", "You may not judge this selfie any more. Ask for the next one.");
      }
      if (r.reason === "closed") throw conflict("This selfie is decided already.", "closed");
      throw notFound("No such selfie.");
    }
    return answer(c, "PUT /api/games/identify/attempts/:attemptId", {
      status: r.status,
      credited: r.credited,
      credits: r.credits,
    });
  })
  // "Only verified members can message me".
  .get("/settings/verified-only", async (c) => {
    const caller = requireCaller(c);
    return answer(c, "GET /api/settings/verified-only", { on: await onlyVerifiedMessages(caller.profileId) });
  })
  .put("/settings/verified-only", async (c) => {
    const caller = requireCaller(c);
    const { on } = await bodyOf(c, "PUT /api/settings/verified-only");
    await setOnlyVerifiedMessages(caller.profileId, on);
    return answer(c, "PUT /api/settings/verified-only", { on });
  })
  // Admins: every waiting selfie (those sent to the admins first), and an answer that decides
  // alone, written to the audit log.
  .get("/admin/games/identify", async (c) => {
    requireAdmin(c);
    return answer(c, "GET /api/admin/games/identify", { items: (await adminQueue()).map(adminView) });
  })
  .put("/admin/games/identify/:attemptId", async (c) => {
    const caller = requireAdmin(c);
    const id = parseWith(tokenSchema, c.req.param("attemptId"));
    const said = (await bodyOf(c, "PUT /api/admin/games/identify/:attemptId")).answer;
    if (!(await getAttempt(id))) throw notFound("No such selfie.");
    const outcome = said === "SAME" ? "VERIFIED" : "REJECTED";
    const admin = { who: { accountId: caller.accountId, name: caller.name }, answer: said };
    if (!(await decideAttempt(id, outcome, "ADMIN", admin))) {
      throw conflict("This selfie is decided already.", "closed");
    }
    return answer(c, "PUT /api/admin/games/identify/:attemptId", { outcome });
  });
