/**
 * A well-formed call of every API route, made on the world's objects as their owner would make it
 * (tests/security/world.ts). The access matrix makes these calls as every role; the generated bad
 * input suite starts from them and breaks one piece at a time, so its calls get past the first
 * check of a route. A route without a call here is still fuzzed, from nothing.
 */

import type { World } from "./world.ts";
import { ALL_ACKS } from "../api.ts";
import { REPORT_REASONS } from "../../domain/texts.ts";
import { getPic } from "../../kv/pictures.ts";
import { pauseSending, takeAction } from "../../kv/moderation.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { newId } from "../../kv/ids.ts";
import { now } from "../../kv/clock.ts";
import { QUIZ_ANSWERS } from "../../domain/dungeon.ts";
import { makeKeyPackages } from "../../islands/secret/mls.ts";

const TEST_MODERATOR = { accountId: "test-moderator", name: "Test" };

/** A call: the path (its parameters filled), the query, and a JSON or form body. */
export interface CallSpec {
  path: string;
  query?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string | Blob>;
  /** Raw bytes, sent as application/octet-stream (an encrypted secret picture). */
  bytes?: Uint8Array;
}

/**
 * Builds the call. `fresh`: the call destroys or uses up its object, so make a new one (the
 * access matrix); otherwise use the world's (the fuzzer, which must not add objects per call).
 */
export type CallOf = (w: World, fresh: boolean) => CallSpec | Promise<CallSpec>;

const HEX = "0".repeat(27) + "1";

const credential = {
  id: "AAAA",
  rawId: "AAAA",
  type: "public-key",
  response: { clientDataJSON: "AAAA", attestationObject: "AAAA", authenticatorData: "AAAA", signature: "AAAA" },
  clientExtensionResults: {},
};

/** A selfie of the owner being judged (3 2 1 Identify): the world's, or a new one. */
const ownerAttempt = async (w: World, fresh: boolean) =>
  fresh ? await w.make.identifyAttempt(w.ids.picture) : w.ids.identifyAttempt;

/** The stamp of the pair of the world's Hot or Not test the other member answered (tests/security/world.ts). */
const HOT_DEAL_STAMP = 1_000;

/** The owner's Hot or Not test: the world's (ended, voted on), or a fresh running one. */
const ownerHotTest = async (w: World, fresh: boolean) => fresh ? await w.make.hotTest(true) : w.ids.hotTest;

/** The owner's secret chat with the other member (tests/security/world.ts). */
const chatPath = (w: World) => `/api/secret/chats/${w.ids.secretChat}`;
/** The owner's device in the secret chat. */
const ownerDevice = (w: World) => w.secret.ownerDevice!.deviceId;

/** By "METHOD /path" as the app registers it. */
export const CALLS: Record<string, CallOf> = {
  "GET /api/games/dungeon": () => ({ path: "/api/games/dungeon" }),
  "POST /api/games/dungeon/quiz": () => ({ path: "/api/games/dungeon/quiz", json: { answers: [...QUIZ_ANSWERS] } }),
  "POST /api/games/dungeon/appeal": () => ({
    path: "/api/games/dungeon/appeal",
    json: { text: "It was a joke between friends." },
  }),
  "GET /api/admin/dungeon": () => ({ path: "/api/admin/dungeon" }),
  "PUT /api/admin/dungeon/appeals/:stayId": async (w, fresh) => ({
    path: `/api/admin/dungeon/appeals/${fresh ? await w.make.dungeonStay(true) : w.ids.dungeonAppeal}`,
    json: { decision: "REJECT" },
  }),
  // Fresh: the owner serves a stay in force (only while this row runs: its restore ends it).
  "DELETE /api/admin/dungeon/stays/:profileId": async (w, fresh) => {
    if (fresh) await w.make.dungeonStay(false);
    return { path: `/api/admin/dungeon/stays/${w.owner.profileId}` };
  },
  "POST /api/secret/devices": (w) => ({
    path: "/api/secret/devices",
    json: { deviceId: ownerDevice(w), keyPackages: [] },
  }),
  "POST /api/secret/devices/:deviceId/key-packages": async (w) => ({
    path: `/api/secret/devices/${ownerDevice(w)}/key-packages`,
    json: { keyPackages: (await makeKeyPackages(w.secret.ownerDevice!, 1)).map((k) => k.publicB64) },
  }),
  "POST /api/secret/key-packages/claim": (w) => ({
    path: "/api/secret/key-packages/claim",
    json: { deviceId: ownerDevice(w), peerProfileId: w.other.profileId },
  }),
  "POST /api/secret/chats": (w) => ({ path: "/api/secret/chats", json: w.secret.chatBody }),
  "GET /api/secret/chats": () => ({ path: "/api/secret/chats" }),
  "GET /api/secret/chats/:chatId/messages": (w) => ({ path: `${chatPath(w)}/messages` }),
  "POST /api/secret/chats/:chatId/messages": (w) => ({
    path: `${chatPath(w)}/messages`,
    json: { deviceId: ownerDevice(w), ...w.secret.sealed, epoch: 1 },
  }),
  "POST /api/secret/chats/:chatId/read": (w) => ({
    path: `${chatPath(w)}/read`,
    json: { messageId: w.ids.secretMessage },
  }),
  "POST /api/secret/chats/:chatId/join": (w) => ({
    path: `${chatPath(w)}/join`,
    json: { deviceId: w.secret.joiner!.deviceId },
  }),
  "POST /api/secret/chats/:chatId/pending/:deviceId/key-package": (w) => ({
    path: `${chatPath(w)}/pending/${w.secret.joiner!.deviceId}/key-package`,
  }),
  // The new device's MLS commit and Welcome: the server cannot read them, the world's stand in.
  "POST /api/secret/chats/:chatId/approve": async (w, fresh) => ({
    path: `${chatPath(w)}/approve`,
    json: {
      deviceId: ownerDevice(w),
      newDeviceId: fresh ? (await w.make.secretDevice(1, true)).device.deviceId : w.secret.joiner!.deviceId,
      commit: w.secret.sealed.ciphertext,
      welcome: w.secret.chatBody.welcome,
      ratchetTree: w.secret.chatBody.ratchetTree,
      epoch: 2,
    },
  }),
  "POST /api/secret/pictures": (w) => ({
    path: "/api/secret/pictures",
    query: { chatId: w.ids.secretChat, deviceId: ownerDevice(w) },
    bytes: new Uint8Array(64),
  }),
  // The other member's device is live: the owner's call is refused on its merits (409), after access.
  "POST /api/secret/chats/:chatId/evict": (w) => ({
    path: `${chatPath(w)}/evict`,
    json: {
      deviceId: ownerDevice(w),
      evicted: w.secret.chatBody.peerDevices as string[],
      commit: w.secret.sealed.ciphertext,
      epoch: 2,
    },
  }),
  "DELETE /api/secret/chats/:chatId/pictures/:pictureId": async (w, fresh) => ({
    path: `${chatPath(w)}/pictures/${fresh ? await w.make.secretPicture() : w.ids.secretPicture}`,
  }),
  // Fresh: a new start of the chat (another row) takes the chat's pictures with it.
  "GET /api/secret/chats/:chatId/pictures/:pictureId": async (w, fresh) => ({
    path: `${chatPath(w)}/pictures/${fresh ? await w.make.secretPicture() : w.ids.secretPicture}`,
  }),
  "POST /api/secret/chats/:chatId/messages/:messageId/report": (w) => ({
    path: `${chatPath(w)}/messages/${w.ids.secretMessage}/report`,
    json: { reason: REPORT_REASONS[0].id, ...w.secret.report },
  }),
  "GET /api/games/identify/attempts/:attemptId/selfie": async (w) => ({
    path: `/api/games/identify/attempts/${await ownerAttempt(w, false)}/selfie`,
  }),
  "GET /api/games/identify/attempts/:attemptId/pictures/:n": async (w) => ({
    path: `/api/games/identify/attempts/${await ownerAttempt(w, false)}/pictures/0`,
  }),
  "PUT /api/games/identify/attempts/:attemptId": async (w) => ({
    path: `/api/games/identify/attempts/${await ownerAttempt(w, false)}`,
    json: { answer: "SAME" },
  }),
  "PUT /api/admin/games/identify/:attemptId": async (w, fresh) => ({
    path: `/api/admin/games/identify/${await ownerAttempt(w, fresh)}`,
    json: { answer: "NOT_SAME" },
  }),
  "POST /api/games/identify/challenge": () => ({ path: "/api/games/identify/challenge", json: { noHands: false } }),
  "PUT /api/settings/verified-only": () => ({ path: "/api/settings/verified-only", json: { on: false } }),
  "GET /api/ping": () => ({ path: "/api/ping" }),
  "GET /api/version": () => ({ path: "/api/version" }),
  "GET /api/openapi.json": () => ({ path: "/api/openapi.json" }),
  "PUT /api/settings/language": () => ({ path: "/api/settings/language", json: { language: "es" } }),
  "PUT /api/settings/quiet-hours": () => ({
    path: "/api/settings/quiet-hours",
    json: { quietHours: { from: "22:00", to: "07:00", timeZone: "Europe/Madrid" } },
  }),
  "PUT /api/settings/theme": () => ({ path: "/api/settings/theme", json: { theme: "dark" } }),
  "POST /api/account/export": () => ({ path: "/api/account/export" }),
  "POST /api/account/export/download": () => ({
    path: "/api/account/export/download",
    json: { token: "not-a-real-export-token" },
  }),
  "GET /api/docs": () => ({ path: "/api/docs" }),
  "GET /api/health": () => ({ path: "/api/health" }),
  "GET /api/ready": () => ({ path: "/api/ready" }),
  "POST /api/auth": (w) => ({ path: "/api/auth", form: { username: w.owner.email, password: "not the password" } }),
  "POST /api/auth/logout": () => ({ path: "/api/auth/logout" }),
  "POST /api/auth/register": () => ({
    path: "/api/auth/register",
    json: { email: "newcomer@example.com", acknowledgements: ALL_ACKS },
  }),
  "GET /api/passkeys": () => ({ path: "/api/passkeys" }),
  "POST /api/passkeys/register/options": () => ({ path: "/api/passkeys/register/options" }),
  "POST /api/passkeys/register": () => ({
    path: "/api/passkeys/register",
    json: { response: credential, name: "Key" },
  }),
  "DELETE /api/passkeys/:id": async (w, fresh) => ({
    path: `/api/passkeys/${fresh ? await w.make.passkey() : w.ids.passkey}`,
  }),
  "POST /api/passkeys/login/options": () => ({ path: "/api/passkeys/login/options" }),
  "POST /api/passkeys/login": () => ({ path: "/api/passkeys/login", json: { challengeId: HEX, response: credential } }),
  "GET /api/settings": () => ({ path: "/api/settings" }),
  "PUT /api/settings": (w) => ({ path: "/api/settings", json: { name: "Owner", email: w.owner.email } }),
  "GET /api/sessions": () => ({ path: "/api/sessions" }),
  "DELETE /api/sessions/:id": async (w, fresh) => ({
    path: `/api/sessions/${fresh ? await w.make.session() : w.ids.session}`,
  }),
  "POST /api/contactus-messages": () => ({
    path: "/api/contactus-messages",
    json: { name: "Owner", message: "Hello operators" },
  }),
  "GET /api/admin/dashboard/userRoleCounts": () => ({ path: "/api/admin/dashboard/userRoleCounts" }),
  "POST /api/admin/testUsersCreate/:count": () => ({ path: "/api/admin/testUsersCreate/1" }),
  "PUT /api/profile-position/:profileId": (w) => ({
    path: `/api/profile-position/${w.owner.profileId}`,
    json: { use: "OVERRIDE", overrideLat: 52.52, overrideLon: 13.4, hide: false },
  }),
  "GET /api/profile-position/:profileId": (w) => ({ path: `/api/profile-position/${w.owner.profileId}` }),
  "GET /api/profile-briefs/nearest": () => ({
    path: "/api/profile-briefs/nearest",
    query: { page: "0", size: "10", chars: "", likes: "", ratedBefore: "0" },
  }),
  "GET /api/profile-briefs/by-bounds": () => ({
    path: "/api/profile-briefs/by-bounds",
    query: { latMin: "52", lonMin: "13", latMax: "53", lonMax: "14", page: "0", size: "10" },
  }),
  "GET /api/profile-briefs/map": () => ({
    path: "/api/profile-briefs/map",
    query: { latMin: "52", lonMin: "13", latMax: "53", lonMax: "14", chars: "", likes: "" },
  }),
  "GET /api/profile-briefs/by-sector/:sector": () => ({
    path: "/api/profile-briefs/by-sector/52:13",
    query: { page: "0", size: "10", chars: "", likes: "" },
  }),
  "GET /api/profile-positions/aggregates": () => ({ path: "/api/profile-positions/aggregates" }),
  "GET /api/profiles/mine": () => ({ path: "/api/profiles/mine" }),
  "GET /api/profile/:id": (w) => ({ path: `/api/profile/${w.owner.profileId}` }),
  "PUT /api/profile": (w) => ({
    path: "/api/profile",
    json: { id: w.owner.profileId, description: "I am the owner, a human who writes this." },
  }),
  // A real picture only when fresh (the access matrix): the fuzzer must not fill the store with pictures.
  "POST /api/profile-pic": async (w, fresh) => ({
    path: "/api/profile-pic",
    form: {
      authorProfileId: w.owner.profileId,
      picfile: new File([fresh ? await w.jpeg() : new Uint8Array(10)], "p.jpg", { type: "image/jpeg" }),
    },
  }),
  "DELETE /api/profile-pic/:id": async (w, fresh) => ({
    path: `/api/profile-pic/${fresh ? await w.make.picture() : w.ids.picture}`,
  }),
  "DELETE /api/profile-pic-grants/:profileId": (w) => ({ path: `/api/profile-pic-grants/${w.other.profileId}` }),
  "POST /api/typing/:profileId": (w) => ({ path: `/api/typing/${w.owner.profileId}` }),
  "POST /api/presence/looking": (w) => ({ path: "/api/presence/looking", json: { at: w.owner.profileId } }),
  "GET /api/profile-pic/nsfw/:id": (w) => ({
    path: `/api/profile-pic/nsfw/${w.ids.picture}`,
    query: { scale_x: "256" },
  }),
  "GET /api/profile-pic/:id": (w) => ({
    path: `/api/profile-pic/${w.ids.picture}`,
    query: { scale_x: "256", orig: "0", v: "x" },
  }),
  "GET /api/profile-pic/:id/source": (w) => ({ path: `/api/profile-pic/${w.ids.picture}/source`, query: { v: "x" } }),
  "PUT /api/profile-pic/:id": (w) => ({ path: `/api/profile-pic/${w.ids.picture}`, json: { nsfw: false } }),
  "PUT /api/profile-pic/:id/crop": (w) => ({
    path: `/api/profile-pic/${w.ids.picture}/crop`,
    json: { x: 0, y: 0, width: 160, height: 200, rotate: 0 },
  }),
  "GET /api/profile/pic/:id": (w) => ({ path: `/api/profile/pic/${w.ids.picture}` }),
  "GET /api/blocks": () => ({ path: "/api/blocks" }),
  "DELETE /api/blocks/:profileId": (w) => ({ path: `/api/blocks/${w.blocked.profileId}` }),
  "GET /api/profile-likes/by-liker/:profileId": (w) => ({
    path: `/api/profile-likes/by-liker/${w.owner.profileId}`,
    query: { likeType: "LIKE", cursor: "" },
  }),
  "GET /api/profile-likes/by-liked/:profileId": (w) => ({
    path: `/api/profile-likes/by-liked/${w.owner.profileId}`,
    query: { cursor: "" },
  }),
  "GET /api/profile-like": (w) => ({
    path: "/api/profile-like",
    query: { likerProfileId: w.owner.profileId, likedProfileId: w.other.profileId },
  }),
  "PUT /api/profile-like": (w) => ({
    path: "/api/profile-like",
    json: { likerProfileId: w.owner.profileId, likedProfileId: w.other.profileId, likeType: "LIKE" },
  }),
  "PUT /api/profile-pic-like": (w) => ({
    path: "/api/profile-pic-like",
    json: {
      likerProfileId: w.owner.profileId,
      profilePicId: w.ids.otherPicture,
      profilePicProfileId: w.other.profileId,
      likeType: "LIKE",
    },
  }),
  "GET /api/profile-pic-likes/by-liker-profileid/:profileId": (w) => ({
    path: `/api/profile-pic-likes/by-liker-profileid/${w.owner.profileId}`,
    query: { likeType: "LIKE", cursor: "" },
  }),
  "GET /api/profile-pic-likes/by-liked-profileid/:profileId": (w) => ({
    path: `/api/profile-pic-likes/by-liked-profileid/${w.owner.profileId}`,
    query: { cursor: "" },
  }),
  "GET /api/profile-note": (w) => ({
    path: "/api/profile-note",
    query: { authorProfileId: w.owner.profileId, aboutProfileId: w.other.profileId },
  }),
  "PUT /api/profile-note": (w) => ({
    path: "/api/profile-note",
    json: {
      authorProfileId: w.owner.profileId,
      aboutProfileId: w.other.profileId,
      bodyText: "Nice",
      privateTags: ["x"],
    },
  }),
  "GET /api/profile-notes": (w) => ({
    path: "/api/profile-notes",
    query: { authorProfileId: w.owner.profileId, cursor: "" },
  }),
  "POST /api/profile-report": (w) => ({
    path: "/api/profile-report",
    json: {
      reporterProfileId: w.owner.profileId,
      reportedProfileId: w.other.profileId,
      reason: REPORT_REASONS[0].id,
      text: "Spam",
    },
  }),
  "GET /api/notifications/:profileId": (w) => ({ path: `/api/notifications/${w.owner.profileId}` }),
  "DELETE /api/notification/:id": async (w, fresh) => ({
    path: `/api/notification/${fresh ? await w.make.notification() : w.ids.notification}`,
  }),
  "POST /api/push-subscriptions": () => ({
    path: "/api/push-subscriptions",
    json: {
      deviceName: "Laptop",
      endpoint: "https://fcm.googleapis.com/fcm/send/laptop",
      expirationTime: null,
      auth_base64: "AAAAAAAAAAAAAAAAAAAAAA",
      p256dh_base64: "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB",
    },
  }),
  "DELETE /api/push-subscriptions/:id": async (w, fresh) => ({
    path: `/api/push-subscriptions/${fresh ? await w.make.pushSubscription() : w.ids.pushSubscription}`,
  }),
  "GET /api/events": () => ({ path: "/api/events" }),
  "DELETE /api/message/:id": async (w, fresh) => ({
    path: `/api/message/${fresh ? await w.make.message() : w.ids.message}`,
    query: { for: "both" },
  }),
  "DELETE /api/messages/with/:profileId": (w) => ({ path: `/api/messages/with/${w.other.profileId}` }),
  "POST /api/message/:id/open": (w) => ({ path: `/api/message/${w.ids.message}/open` }),
  "GET /api/messages/most-recent-with/:profileId": (w) => ({
    path: `/api/messages/most-recent-with/${w.owner.profileId}`,
    query: { beforeMessageId: w.ids.message },
  }),
  "GET /api/messages/between/:a/:b": (w) => ({
    path: `/api/messages/between/${w.owner.profileId}/${w.other.profileId}`,
    query: { sinceMessageId: w.ids.message },
  }),
  "PUT /api/messages/read/:other": (w) => ({ path: `/api/messages/read/${w.other.profileId}` }),
  "POST /api/message": (w) => ({
    path: "/api/message",
    json: { senderProfileId: w.owner.profileId, recipientProfileId: w.other.profileId, bodyText: "Hi" },
  }),
  "GET /api/messages/by-sector/:sector": () => ({ path: "/api/messages/by-sector/52:13", query: { page: "0" } }),
  "GET /api/games/credits": () => ({ path: "/api/games/credits" }),
  "GET /api/games/volunteer": () => ({ path: "/api/games/volunteer" }),
  "GET /api/games/gptbuster/next": () => ({ path: "/api/games/gptbuster/next" }),
  "PUT /api/games/gptbuster/:profileId": (w) => ({
    path: `/api/games/gptbuster/${w.owner.profileId}`,
    json: { verdict: "HUMAN" },
  }),
  "GET /api/games/ratinggame/deck": () => ({ path: "/api/games/ratinggame/deck" }),
  "GET /api/games/hotornot/tests/:testId": async (w) => ({
    path: `/api/games/hotornot/tests/${await ownerHotTest(w, false)}`,
  }),
  "DELETE /api/games/hotornot/tests/:testId": async (w, fresh) => ({
    path: `/api/games/hotornot/tests/${await ownerHotTest(w, fresh)}`,
  }),
  "POST /api/games/hotornot/tests/:testId/best-first": async (w) => ({
    path: `/api/games/hotornot/tests/${await ownerHotTest(w, false)}/best-first`,
  }),
  "POST /api/games/hotornot/tests": (w) => ({ path: "/api/games/hotornot/tests", json: { picIds: [w.ids.picture] } }),
  "PUT /api/games/hotornot/vote": async (w) => ({
    path: "/api/games/hotornot/vote",
    json: { testId: await ownerHotTest(w, false), deal: HOT_DEAL_STAMP, choice: "LEFT", ms: 3000 },
  }),
  "GET /api/games/hotornot/pair/:testId/:side": async (w) => ({
    path: `/api/games/hotornot/pair/${await ownerHotTest(w, false)}/left`,
  }),
  "PUT /api/games/hotornot/keep-best": () => ({ path: "/api/games/hotornot/keep-best", json: { on: true } }),
  "PUT /api/games/ratinggame": (w) => ({
    path: "/api/games/ratinggame",
    json: { profilePicId: w.ids.picture, profilePicProfileId: w.owner.profileId, likeType: "LIKE" },
  }),
  "GET /api/games/arbitration/next": () => ({ path: "/api/games/arbitration/next" }),
  "PUT /api/games/arbitration/:reportId": (w) => ({
    path: `/api/games/arbitration/${w.ids.report}`,
    json: { verdict: "VIOLATION" },
  }),
  "GET /api/games/photocrop/next": (w) => ({ path: "/api/games/photocrop/next", query: { skip: w.ids.otherPicture } }),
  "PUT /api/games/photocrop/:picId": async (w) => ({
    path: `/api/games/photocrop/${w.ids.picture}`,
    json: { gen: (await getPic(w.ids.picture))?.gen ?? "0", x: 0, y: 0, width: 1, height: 1 },
  }),
  "GET /api/games/photocrop/suggestions": () => ({ path: "/api/games/photocrop/suggestions" }),
  "PUT /api/games/photocrop/suggestions/:id": async (w, fresh) => ({
    path: `/api/games/photocrop/suggestions/${
      fresh ? await w.make.cropSuggestion(await w.make.picture()) : w.ids.cropSuggestion
    }`,
    json: { action: "DISMISS" },
  }),
  "GET /api/games/healthreport/contacts": () => ({ path: "/api/games/healthreport/contacts", query: { days: "90" } }),
  "POST /api/games/healthreport": (w) => ({
    path: "/api/games/healthreport",
    json: { condition: "SYPHILIS", days: 90, profileIds: [w.other.profileId] },
  }),
  "GET /api/games/cooties": () => ({ path: "/api/games/cooties" }),
  "POST /api/games/cooties/:id/abuse": async (w, fresh) => {
    if (!fresh) return { path: `/api/games/cooties/${HEX}/abuse` };
    // A notice as the reveal writes it (kv/healthNotices.ts): no sender in it.
    const id = newId();
    const day = Math.floor(now() / 86_400_000) * 86_400_000;
    const notice = { id, condition: "SYPHILIS", since: day - 90 * 86_400_000, until: day };
    await kv().set(keys.healthNotice(w.owner.profileId, id), notice);
    return { path: `/api/games/cooties/${id}/abuse` };
  },
  "GET /api/admin/games/healthreport": () => ({ path: "/api/admin/games/healthreport" }),
  "GET /api/admin/games/gptbuster/flagged": () => ({ path: "/api/admin/games/gptbuster/flagged" }),
  "GET /api/admin/games/gptbuster/:profileId": (w) => ({ path: `/api/admin/games/gptbuster/${w.owner.profileId}` }),
  "GET /api/admin/reports": () => ({ path: "/api/admin/reports" }),
  "PUT /api/admin/reports/:reportId": async (w, fresh) => ({
    path: `/api/admin/reports/${fresh ? await w.make.report() : w.ids.report}`,
    json: { decision: "DISMISS" },
  }),
  "GET /api/admin/reports/:reportId": (w) => ({ path: `/api/admin/reports/${w.ids.report}` }),
  "GET /api/admin/moderation/queue": () => ({ path: "/api/admin/moderation/queue" }),
  "GET /api/admin/audit": () => ({ path: "/api/admin/audit", query: { limit: "10" } }),
  "GET /api/admin/members": (w) => ({ path: "/api/admin/members", query: { q: w.owner.profileId } }),
  "GET /api/admin/members/:profileId": (w) => ({ path: `/api/admin/members/${w.owner.profileId}` }),
  // A warning: it ends no session, so the owner's own call still tells 403 from 401.
  "POST /api/admin/members/:profileId/actions": (w) => ({
    path: `/api/admin/members/${w.owner.profileId}/actions`,
    json: { kind: "WARNING", reason: "Be kind." },
  }),
  "DELETE /api/admin/members/:profileId/actions/:actionId": async (w, fresh) => {
    const r = fresh && await takeAction(TEST_MODERATOR, w.owner.profileId, { kind: "WARNING", reason: "Be kind." });
    return { path: `/api/admin/members/${w.owner.profileId}/actions/${r && r.ok ? r.action.id : "none"}` };
  },
  "DELETE /api/admin/members/:profileId/review": (w) => ({ path: `/api/admin/members/${w.owner.profileId}/review` }),
  "DELETE /api/admin/members/:profileId/sending-pause": async (w, fresh) => {
    if (fresh) await pauseSending(w.owner.profileId, "test");
    return { path: `/api/admin/members/${w.owner.profileId}/sending-pause` };
  },
  "POST /api/admin/members/:profileId/notes": (w) => ({
    path: `/api/admin/members/${w.owner.profileId}/notes`,
    json: { text: "Seen, fine." },
  }),
};
