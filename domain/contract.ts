/**
 * The API contract: what every JSON route answers, as zod schemas, by "METHOD /path" as the app
 * registers it; the one source of the answers' shapes. Routes answer through `answer(c, route,
 * body)` (routes/answer.ts), so a handler that answers a wrong shape fails `deno check`;
 * routes/openapi.ts joins it with the requests of domain/requests.ts into OpenAPI 3.1 at
 * /api/openapi.json; the API test kit (tests/api.ts) checks every 2xx answer of every API test
 * against it. The types the rest of the code reads (domain/shapes/) are inferred from it
 * (`ApiAnswer<"GET /api/...">`, type-only: no zod in the islands' bundles); the islands build their
 * URLs with domain/apiPath.ts, so a renamed route or a changed answer breaks the build, not a
 * member's screen. Objects are strict: a new field is documented here or the check fails.
 */

import * as z from "zod";
import { HEALTH_CONDITIONS } from "./health.ts";
import { BriefsRows } from "./contractBriefs.ts";
import { LOCALES } from "./i18n.ts";
import { IDENTIFY_RESPONSES } from "./contractIdentify.ts";
import { HOT_OR_NOT_RESPONSES } from "./contractHotOrNot.ts";
import { DUNGEON_RESPONSES } from "./contractDungeon.ts";
import { SECRET_NOT_JSON, SECRET_RESPONSES } from "./contractSecret.ts";

// --- shared shapes

const id = z.string();
const ts = z.number();
const ok = z.strictObject({ ok: z.literal(true) });
const likeType = z.enum(["LIKE", "DISLIKE", "UNDETERMINED"]);

export const ProfileBrief = z.strictObject({
  profileId: id,
  profileName: z.string(),
  profileAge: z.number().nullable(),
  profileChars: z.array(z.string()),
  profileWeight: z.string(),
  profileHeight: z.string(),
  profilePicIds: z.array(id),
  lat: z.number(),
  lon: z.number(),
  distanceMeters: z.number().nullable(),
  tsUpdated: ts,
  isNew: z.boolean(),
  /** 3 2 1 Identify: the community compared a live selfie with this member's first picture. */
  verified: z.boolean(),
});
const BriefsPage = z.strictObject({
  items: z.array(ProfileBrief),
  page: z.number(),
  size: z.number(),
  hasMore: z.boolean(),
  nearbyOnly: z.literal(true).optional(),
});

/** A map marker as a row (domain/shapes/briefs.ts `MapRow`). */
const MapView = z.strictObject({
  rows: z.array(z.tuple([id, z.string(), z.number(), z.number(), id.nullable(), z.array(z.string()), z.boolean()])),
  tooMany: z.boolean(),
});

export const PicInfo = z.strictObject({
  id,
  nsfw: z.boolean(),
  width: z.number(),
  height: z.number(),
  v: z.string(),
  /** While the first served size is being made. */
  processing: z.literal(true).optional(),
});
const OwnPic = PicInfo.extend({ profileId: id, private: z.boolean() });
const Crop = z.strictObject({
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  rotate: z.number(),
});

/** What a profile says of its member besides the name, stored and shown alike. */
const profileFacts = {
  height: z.string(),
  weight: z.string(),
  description: z.string(),
  characteristics: z.array(z.string()),
  profilePicIds: z.array(id),
  profilePicIdsPrivate: z.array(id),
};

/** A profile as stored (admins see it whole). */
const StoredProfile = z.strictObject({
  id,
  accountId: id,
  profilename: z.string(),
  birthdate: z.string(),
  ...profileFacts,
  roles: z.array(z.string()),
  tsUpdated: ts,
  tsCreated: ts.optional(),
  verifiedPicIds: z.array(id).optional(),
  tsVerified: ts.optional(),
});

export const ProfileView = z.strictObject({
  id,
  profilename: z.string(),
  age: z.number().nullable(),
  ...profileFacts,
  pictures: z.array(PicInfo),
  tsUpdated: ts,
  own: z.boolean(),
  /** 3 2 1 Identify: shows the Verified badge. */
  verified: z.boolean(),
  /** Only on one's own profile. */
  birthdate: z.string().optional(),
  roles: z.array(z.string()).optional(),
});

export const Message = z.strictObject({
  id,
  senderProfileId: id,
  recipientProfileId: id.optional(),
  sector: z.string().optional(),
  bodyText: z.string(),
  profilePicIds: z.array(id),
  tsCreated: ts,
  tsRecipientRead: ts.optional(),
  tsRecipientDeleted: ts.optional(),
  tsSenderDeleted: ts.optional(),
  viewOnce: z.literal(true).optional(),
  tsOpened: ts.optional(),
  /** Only to the recipient: a first message held as possible spam. */
  held: z.literal(true).optional(),
});
const MessagePage = z.strictObject({
  items: z.array(Message),
  hasMore: z.boolean(),
  people: z.record(id, z.strictObject({ profileName: z.string(), picId: id.nullable() })),
  /** In the conversations list: the partners with whom the member has a secret chat (only that it exists). */
  secretWith: z.array(id).optional(),
});

const LikeOther = z.strictObject({ profileId: id, profileName: z.string(), profilePicId: id.nullable() });
export const ProfileLike = z.strictObject({
  likerProfileId: id,
  likedProfileId: id,
  likeType,
  blocked: z.boolean(),
  tsCreated: ts,
});
export const PicLike = z.strictObject({
  likerProfileId: id,
  profilePicId: id,
  profilePicProfileId: id,
  likeType,
  tsCreated: ts,
});
const cursor = z.string().nullable();

export const Note = z.strictObject({
  authorProfileId: id,
  aboutProfileId: id,
  bodyText: z.string(),
  privateTags: z.array(z.string()),
  tsUpdated: ts,
});

const ArbCase = z.strictObject({
  violation: z.number(),
  noViolation: z.number(),
  status: z.enum(["OPEN", "CONFIRMED", "DISMISSED"]),
  decidedBy: z.string().optional(),
  tsDecided: ts.optional(),
  tsEscalated: ts.optional(),
});
const Report = z.strictObject({
  id,
  reporterProfileId: id,
  reportedProfileId: id,
  reason: z.string(),
  text: z.string(),
  tsCreated: ts,
});
const ReportCase = Report.extend({
  reporterName: z.string().nullable(),
  reportedName: z.string().nullable(),
  case: ArbCase,
});
const Credited = { credited: z.boolean(), credits: z.number() };

const Withdrawal = z.strictObject({
  kind: z.enum(["SUSPENSION", "BAN", "REVIEW"]),
  actionId: id.nullable(),
  until: ts.nullable(),
  ts,
});
export const ModAction = z.strictObject({
  id,
  profileId: id,
  kind: z.enum(["WARNING", "SUSPENSION", "BAN"]),
  days: z.number().nullable(),
  reason: z.string(),
  tsCreated: ts,
  until: ts.nullable(),
  by: z.string(),
  byName: z.string(),
  reportId: id.optional(),
  tsLifted: ts.optional(),
  liftedBy: z.string().optional(),
});
const AuditEntry = z.strictObject({
  id,
  ts,
  by: z.string(),
  byName: z.string(),
  action: z.string(),
  target: id.nullable(),
  detail: z.string(),
  reason: z.string(),
});
const SendingPause = z.strictObject({ ts, why: z.string() });
const ModNote = z.strictObject({ id, profileId: id, text: z.string(), ts, by: z.string(), byName: z.string() });

const OwnPosition = z.strictObject({
  profileId: id,
  lat: z.number(),
  lon: z.number(),
  overrideLat: z.number().nullable(),
  overrideLon: z.number().nullable(),
  gpsLat: z.number().nullable(),
  gpsLon: z.number().nullable(),
  gpsTimestamp: ts.nullable(),
  use: z.enum(["DEVICE_GPS", "OVERRIDE"]),
  hide: z.boolean(),
  shownLat: z.number(),
  shownLon: z.number(),
  tsUpdated: ts,
  tsEffectiveUntil: ts,
  // The spec's Session (profileId, logged-in flag, reporting latitude and longitude): no token (decision 0140).
  session: z.strictObject({ profileId: id, loggedIn: z.literal(true), lat: z.number(), lon: z.number() }),
});

const PushDevice = z.strictObject({
  id,
  deviceName: z.string(),
  endpoint: z.string(),
  expirationTime: z.number(),
  tsCreated: ts,
});
/** Do-not-disturb hours (domain/quietHours.ts). */
const QuietHoursShape = z.strictObject({ from: z.string(), to: z.string(), timeZone: z.string() });
const Settings = z.strictObject({
  defaultProfileId: id,
  name: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
  volunteerUntil: ts.nullable(),
  hasPassword: z.boolean(),
  /** What a change of email or password, or ending sessions, needs now (routes/api/settings.ts). */
  reauth: z.enum(["fresh", "password", "link"]),
  freshUntil: ts.nullable(),
  pushSubscriptions: z.array(PushDevice),
  applicationServerKey: z.string(),
  quietHours: QuietHoursShape.nullable(),
});
const Passkey = z.strictObject({ id, name: z.string(), backedUp: z.boolean(), tsCreated: ts, lastUsed: ts.nullable() });
const LoginAnswer = z.strictObject({ profileId: id, email: z.string(), needsPassword: z.boolean() });
const Safety = z.strictObject({
  country: z.string().nullable(),
  atRisk: z.boolean(),
  noticeSeen: ts.nullable(),
  showToEveryone: z.boolean(),
  discreet: z.boolean(),
});
const Version = z.strictObject({ gitCommitHash: z.string(), gitCommitTs: z.string() });
/** WebAuthn options as @simplewebauthn/server makes them (their shape is the WebAuthn standard's). */
const WebAuthnOptions = z.looseObject({ challenge: z.string() });

/** Answers that are not JSON: the content type says what comes instead. */
export const NOT_JSON = {
  "GET /api/events": "text/event-stream (or a WebSocket, asked with Upgrade: websocket)",
  "GET /api/profile-pic/:id": "image/webp, image/jpeg or image/avif (the size asked with ?scale=)",
  "GET /api/profile-pic/nsfw/:id": "image/webp (the blurred size)",
  "GET /api/profile-pic/:id/source": "the uploaded original, metadata stripped (its owner only)",
  "POST /api/typing/:profileId": "204, no body",
  "POST /api/presence/looking": "204, no body",
  "GET /api/docs": "text/html: this reference as a page",
  "POST /api/account/export/download": "application/zip: the member's data, once",
  "GET /api/games/identify/attempts/:attemptId/selfie":
    "the selfie being judged (no-store), to a judge it is dealt to and admins only",
  "GET /api/games/identify/attempts/:attemptId/pictures/:n":
    "the nth public picture the selfie is compared with (no-store), to the same callers",
  "GET /api/games/hotornot/pair/:testId/:side":
    "one picture (left or right) of the Hot or Not pair dealt to the caller (no-store): never its id or owner",
  ...SECRET_NOT_JSON,
} as const;

/** Every JSON answer of the API, by route and status (checked as zod core schemas: far cheaper to type-check). */
export const RESPONSES = {
  // --- system
  "GET /api/ping": { 200: z.strictObject({ pong: z.literal(true), ts }) },
  "GET /api/version": { 200: Version },
  "GET /api/health": { 200: ok },
  "GET /api/ready": { 200: z.strictObject({ ready: z.boolean(), problems: z.array(z.string()) }) },
  "GET /api/openapi.json": {
    200: z.looseObject({ openapi: z.literal("3.1.0"), paths: z.record(z.string(), z.record(z.string(), z.unknown())) }),
  },

  // --- accounts, sessions, passkeys
  "POST /api/auth": { 200: LoginAnswer },
  "POST /api/auth/logout": { 200: ok },
  "POST /api/auth/register": { 202: z.strictObject({ ok: z.literal(true), message: z.string() }) },
  "GET /api/passkeys": { 200: z.array(Passkey) },
  "POST /api/passkeys/register/options": { 200: WebAuthnOptions },
  "POST /api/passkeys/register": { 201: Passkey },
  "DELETE /api/passkeys/:id": { 200: ok },
  "POST /api/passkeys/login/options": { 200: z.strictObject({ options: WebAuthnOptions, challengeId: id }) },
  "POST /api/passkeys/login": { 200: LoginAnswer },
  "GET /api/settings": { 200: Settings },
  "PUT /api/settings/theme": { 200: z.strictObject({ theme: z.enum(["system", "light", "dark"]) }) },
  "PUT /api/settings/language": { 200: z.strictObject({ language: z.enum(LOCALES).nullable() }) },
  "PUT /api/settings": { 200: Settings },
  "PUT /api/settings/quiet-hours": { 200: z.strictObject({ quietHours: QuietHoursShape.nullable() }) },
  "GET /api/sessions": {
    200: z.array(z.strictObject({ id, device: z.string(), tsCreated: ts, lastSeen: ts, current: z.boolean() })),
  },
  "DELETE /api/sessions/:id": { 200: ok },
  "POST /api/sessions/end-others": { 200: z.strictObject({ ended: z.number() }) },
  "GET /api/safety": { 200: Safety },
  "PUT /api/safety": { 200: Safety },
  "GET /api/presence": {
    200: z.record(id, z.strictObject({ online: z.boolean(), lastSeen: ts.nullable() }).nullable()),
  },
  "PUT /api/presence": { 200: z.strictObject({ hidden: z.boolean() }) },
  "POST /api/contactus-messages": { 201: z.strictObject({ id }) },
  "POST /api/account/export": { 202: z.strictObject({ ok: z.literal(true), message: z.string() }) },
  "DELETE /api/account": { 202: z.strictObject({ ok: z.literal(true), message: z.string() }) },

  // --- positions and discovery
  "PUT /api/profile-position/:profileId": { 200: OwnPosition },
  "GET /api/profile-position/:profileId": { 200: OwnPosition },
  "GET /api/profile-briefs/nearest": { 200: BriefsPage },
  "GET /api/profile-briefs/by-bounds": { 200: z.union([BriefsPage, BriefsRows]) },
  "GET /api/profile-briefs/map": { 200: MapView },
  "GET /api/profile-briefs/by-sector/:sector": { 200: BriefsPage },
  "GET /api/profile-positions/aggregates": {
    200: z.array(z.strictObject({
      centerLat: z.number(),
      centerLon: z.number(),
      deltaLat: z.number(),
      deltaLon: z.number(),
      count: z.number(),
      tsUpdated: ts,
    })),
  },

  // --- profiles and pictures
  "GET /api/profiles/mine": { 200: z.array(ProfileView) },
  "GET /api/profile/:id": { 200: ProfileView },
  "PUT /api/profile": { 200: ProfileView },
  "POST /api/profile-pic": { 201: OwnPic },
  "DELETE /api/profile-pic/:id": { 200: ok },
  "DELETE /api/profile-pic-grants/:profileId": { 200: z.strictObject({ ended: z.number() }) },
  "PUT /api/profile-pic/:id": { 200: PicInfo },
  "PUT /api/profile-pic/:id/crop": { 200: PicInfo },
  "GET /api/profile/pic/:id": {
    200: OwnPic.extend({
      ready: z.boolean(),
      progress: z.strictObject({ done: z.number(), total: z.number() }),
      tsCreated: ts,
      tsUpdated: ts,
      sourceWidth: z.number().optional(),
      sourceHeight: z.number().optional(),
      crop: Crop.nullable().optional(),
    }),
  },

  // --- likes, blocks, notes, reports
  "GET /api/blocks": { 200: z.array(z.strictObject({ profileId: id, tsBlocked: ts, profileName: z.string() })) },
  "DELETE /api/blocks/:profileId": { 200: ok },
  "GET /api/profile-likes/by-liker/:profileId": {
    200: z.strictObject({ items: z.array(ProfileLike.extend({ other: LikeOther })), cursor }),
  },
  "GET /api/profile-likes/by-liked/:profileId": {
    200: z.strictObject({ items: z.array(ProfileLike.extend({ other: LikeOther })), cursor }),
  },
  "GET /api/profile-like": { 200: ProfileLike },
  "PUT /api/profile-like": { 200: ProfileLike },
  "PUT /api/profile-pic-like": { 200: PicLike },
  "GET /api/profile-pic-likes/by-liker-profileid/:profileId": {
    200: z.strictObject({ items: z.array(PicLike.extend({ other: LikeOther.optional() })), cursor }),
  },
  "GET /api/profile-pic-likes/by-liked-profileid/:profileId": {
    200: z.strictObject({ items: z.array(PicLike.extend({ other: LikeOther.optional() })), cursor }),
  },
  "GET /api/profile-note": { 200: Note },
  "PUT /api/profile-note": { 200: Note },
  "GET /api/profile-notes": { 200: z.strictObject({ items: z.array(Note), cursor }) },
  "POST /api/profile-report": { 201: z.strictObject({ id }) },

  // --- notifications and push
  "GET /api/notifications/:profileId": {
    200: z.array(
      z.strictObject({
        id,
        bodyText: z.string(),
        tsCreated: ts,
        url: z.string().optional(),
        count: z.number().optional(),
      }),
    ),
  },
  "DELETE /api/notification/:id": { 200: ok },
  "POST /api/push-subscriptions": {
    201: PushDevice.extend({ auth_base64: z.string(), p256dh_base64: z.string(), discreet: z.boolean().optional() }),
  },
  "DELETE /api/push-subscriptions/:id": { 200: ok },

  // --- messages
  "DELETE /api/message/:id": { 200: z.strictObject({ deleted: z.enum(["me", "both"]) }) },
  "POST /api/message/:id/open": { 200: z.strictObject({ picIds: z.array(id), until: ts }) },
  "DELETE /api/messages/with/:profileId": { 200: z.strictObject({ deleted: z.number() }) },
  "GET /api/messages/most-recent-with/:profileId": { 200: MessagePage },
  "GET /api/messages/between/:a/:b": { 200: MessagePage },
  "PUT /api/messages/read/:other": { 200: z.strictObject({ marked: z.number() }) },
  "POST /api/message": { 201: Message },
  "GET /api/messages/by-sector/:sector": { 200: MessagePage },

  // --- community games
  "GET /api/games/credits": { 200: z.strictObject({ credits: z.number() }) },
  "GET /api/games/volunteer": {
    200: z.strictObject({
      credits: z.number(),
      recentCredits: z.number(),
      threshold: z.number(),
      toGo: z.number(),
      volunteerUntil: ts.nullable(),
    }),
  },
  "GET /api/games/gptbuster/next": {
    200: z.strictObject({
      item: z.strictObject({
        profileId: id,
        profileName: z.string(),
        profileAge: z.number().nullable(),
        picId: id.nullable(),
        description: z.string(),
      }).nullable(),
      credits: z.number(),
    }),
  },
  "PUT /api/games/gptbuster/:profileId": {
    200: z.strictObject({ tally: z.strictObject({ human: z.number(), machine: z.number() }), ...Credited }),
  },
  "GET /api/games/ratinggame/deck": {
    200: z.strictObject({
      items: z.array(z.strictObject({ picId: id, profileId: id, profileName: z.string() })),
      credits: z.number(),
    }),
  },
  "PUT /api/games/ratinggame": { 200: z.strictObject({ like: PicLike, ...Credited }) },
  "GET /api/games/arbitration/next": {
    200: z.strictObject({
      item: z.strictObject({
        report: z.strictObject({ id, reason: z.string(), text: z.string(), tsCreated: ts }),
        reported: z.strictObject({
          profileId: id,
          profileName: z.string(),
          description: z.string(),
          picId: id.nullable(),
        }),
      }).nullable(),
      credits: z.number(),
    }),
  },
  "PUT /api/games/arbitration/:reportId": { 200: z.strictObject({ case: ArbCase, ...Credited }) },
  "GET /api/games/photocrop/next": {
    200: z.strictObject({
      item: z.strictObject({
        picId: id,
        profileId: id,
        profileName: z.string(),
        width: z.number(),
        height: z.number(),
        gen: z.string(),
      }).nullable(),
      credits: z.number(),
    }),
  },
  "PUT /api/games/photocrop/:picId": { 201: z.strictObject({ id, ...Credited }) },
  "GET /api/games/photocrop/suggestions": {
    200: z.strictObject({
      items: z.array(z.strictObject({
        id,
        picId: id,
        ownerProfileId: id,
        gen: z.string(),
        width: z.number(),
        height: z.number(),
        box: z.strictObject({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
        tsCreated: ts,
      })),
    }),
  },
  "PUT /api/games/photocrop/suggestions/:id": {
    200: z.strictObject({
      id,
      action: z.enum(["ACCEPT", "DISMISS"]),
      pic: z.strictObject({ id, gen: z.string() }).optional(),
    }),
  },

  // Health Incident Report: the caller's contacts of a period, the send (nothing names a recipient
  // after it), the notices a member got (never who sent them), and totals for admins.
  "GET /api/games/healthreport/contacts": {
    200: z.strictObject({
      items: z.array(z.strictObject({ profileId: id, profileName: z.string(), picId: id.nullable() })),
      remaining: z.number(),
      tooNew: z.boolean(),
    }),
  },
  "POST /api/games/healthreport": {
    202: z.strictObject({ queued: z.number(), credited: z.boolean(), credits: z.number() }),
  },
  "GET /api/games/cooties": {
    200: z.strictObject({
      items: z.array(z.strictObject({ id, condition: z.enum(HEALTH_CONDITIONS), since: ts, until: ts })),
    }),
  },
  "POST /api/games/cooties/:id/abuse": { 200: ok },

  // --- admin
  "GET /api/admin/dashboard/userRoleCounts": { 200: z.array(z.strictObject({ role: z.string(), count: z.number() })) },
  "POST /api/admin/testUsersCreate/:count": { 201: z.strictObject({ created: z.number() }) },
  ...IDENTIFY_RESPONSES,
  ...HOT_OR_NOT_RESPONSES,
  ...DUNGEON_RESPONSES,
  ...SECRET_RESPONSES,
  "GET /api/admin/games/gptbuster/flagged": {
    200: z.strictObject({
      items: z.array(
        z.strictObject({ profileId: id, human: z.number(), machine: z.number(), profileName: z.string() }),
      ),
    }),
  },
  "GET /api/admin/games/healthreport": {
    200: z.strictObject({ reports: z.number(), notices: z.number(), pending: z.number(), abuse: z.number() }),
  },
  "GET /api/admin/games/gptbuster/:profileId": { 200: z.strictObject({ human: z.number(), machine: z.number() }) },
  "GET /api/admin/reports": { 200: z.strictObject({ items: z.array(ReportCase) }) },
  "PUT /api/admin/reports/:reportId": { 200: z.strictObject({ id, case: ArbCase }) },
  "GET /api/admin/reports/:reportId": { 200: Report.extend({ case: ArbCase }) },
  "GET /api/admin/moderation/queue": {
    200: z.strictObject({
      items: z.array(z.strictObject({
        profileId: id,
        name: z.string().nullable(),
        openReports: z.array(ReportCase),
        tsNewest: ts,
        withdrawal: Withdrawal.nullable(),
        sendingPaused: SendingPause.nullable(),
        spamHeld: z.number(),
      })),
    }),
  },
  "GET /api/admin/audit": { 200: z.strictObject({ items: z.array(AuditEntry) }) },
  "GET /api/admin/members": {
    200: z.strictObject({
      items: z.array(z.strictObject({
        profileId: id,
        accountId: id,
        name: z.string(),
        email: z.string(),
        withdrawal: Withdrawal.nullable(),
      })),
    }),
  },
  "GET /api/admin/members/:profileId": {
    200: z.strictObject({
      profile: StoredProfile,
      account: z.strictObject({ id, email: z.string(), roles: z.array(z.string()), tsCreated: ts }).nullable(),
      withdrawal: Withdrawal.nullable(),
      sendingPaused: SendingPause.nullable(),
      spamHeld: z.number(),
      reportsAbout: z.array(ReportCase),
      reportsMade: z.array(ReportCase),
      actions: z.array(ModAction),
      notes: z.array(ModNote),
      audit: z.array(AuditEntry),
    }),
  },
  "POST /api/admin/members/:profileId/actions": { 201: ModAction },
  "DELETE /api/admin/members/:profileId/actions/:actionId": { 200: ModAction },
  "DELETE /api/admin/members/:profileId/review": { 200: ok },
  "DELETE /api/admin/members/:profileId/sending-pause": { 200: ok },
  "POST /api/admin/members/:profileId/notes": { 201: ModNote },
} as const satisfies Record<string, Partial<Record<number, z.core.$ZodType>>>;

/** A route of the contract: "METHOD /api/path". */
export type ApiRoute = keyof typeof RESPONSES;
type Answers<R extends ApiRoute> = (typeof RESPONSES)[R];
/** The JSON a route answers (its 2xx answer). */
export type ApiAnswer<R extends ApiRoute> = z.infer<Answers<R>[keyof Answers<R>] & z.core.$ZodType>;
