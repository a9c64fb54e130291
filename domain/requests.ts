/**
 * What every route reads, as zod schemas, by "METHOD /path" as the app registers it (the keys of
 * domain/contract.ts): its JSON body, its query, or its form. The one source of the requests'
 * shapes: a handler reads its input through `bodyOf(c, route)`, `queryOf(c, route)` or
 * `formOf(c, route)` (routes/validate.ts), which parse with the entry here and hand back the typed
 * value, and routes/openapi.ts documents the same entries, so the document cannot name another
 * schema than the one a route validates with. A route that reads nothing has no entry; a route
 * that reads input without one fails tests/requests_test.ts.
 *
 * Topic files add their own entries (domain/requestsGames.ts, domain/requestsSecret.ts).
 */

import * as z from "zod";
import type { ApiRoute, NOT_JSON } from "./contract.ts";
import { idSchema, storeId } from "./requestParts.ts";
import { MAX_TEXT, REPORT_REASONS, TEXTS } from "./texts.ts";
import { LOCALES } from "./i18n.ts";
import { THEMES } from "./device.ts";
import { CLOCK_TIME, isTimeZone } from "./quietHours.ts";
import { CHARACTERISTIC_VALUES } from "./characteristics.ts";
import { LIKE_FILTERS, MAX_BRIEFS_SIZE } from "./shapes/briefs.ts";
import { LIKE_TYPES } from "./shapes/likes.ts";
import { MAX_TAG_LENGTH, MAX_TAGS } from "./tags.ts";
import { MAX_PICS_PER_PROFILE, MAX_UPLOAD_BYTES, PIC_SIZES } from "./pictures.ts";
import { isId } from "./ids.ts";
import { GAME_REQUESTS } from "./requestsGames.ts";
import { SECRET_REQUESTS } from "./requestsSecret.ts";

/**
 * What a route reads: its JSON body (`optionalBody`: a call without a JSON body reads as `{}`),
 * its query, its form (multipart or urlencoded), or raw bytes of one type (`bytes`: opaque to the
 * server, e.g. a picture encrypted on the device).
 */
export interface RequestShape {
  // Zod's core schema type, as in domain/contract.ts: cheaper to check each route's schema against.
  body?: z.core.$ZodType;
  optionalBody?: true;
  query?: z.core.$ZodType;
  form?: z.core.$ZodType;
  bytes?: RawBytes;
}

/** A body of raw bytes: its one media type, and its size from `minBytes` to `maxBytes`. */
export interface RawBytes {
  type: string;
  minBytes: number;
  maxBytes: number;
  /** What the bytes are, in a sentence (the API reference's and a refusal's words). */
  what: string;
}

// --- accounts, sessions, passkeys, settings

const email = z.string().trim().max(254).email("Please enter a valid email address.");

const loginForm = z.object({
  username: z.string().trim().max(254).default(""),
  password: z.string().max(1024).default(""),
  token: z.string().max(200).optional(),
  rememberMe: z.enum(["true", "false", "on"]).optional(),
});

const registerBody = z.object({
  email,
  acknowledgements: z.array(z.string().max(1000)).max(10),
});

/** The body of a call that only confirms who is calling (routes/reauth.ts): `{currentPassword?}`. */
export const confirmBody = z.object({ currentPassword: z.string().max(1024).optional() });

// The browser's answers are checked by the library; here only their outer shape and size.
const credentialJson = z.object({
  id: z.string().max(1024),
  rawId: z.string().max(1024),
  type: z.literal("public-key"),
})
  .passthrough();
const passkeyRegisterBody = z.object({ response: credentialJson, name: z.string().trim().max(60).optional() });
const passkeyLoginBody = z.object({
  challengeId: z.string().regex(/^[\w-]{16,64}$/, "must be a challenge id"),
  response: credentialJson,
  rememberMe: z.boolean().optional(),
});

const settingsBody = z.object({
  name: z.string().trim().min(1, "Name is required.").max(100),
  email: z.string().trim().min(1, "Email is required.").max(254).email("Please enter a valid email address."),
  password: z.string().min(8, "A password needs at least 8 characters.").max(128).optional(),
  currentPassword: confirmBody.shape.currentPassword,
});

const languageBody = z.object({ language: z.enum(LOCALES).nullable() });

/** Do-not-disturb hours (domain/quietHours.ts), or null to turn them off. */
const quietHoursBody = z.object({
  quietHours: z.object({
    from: z.string().regex(CLOCK_TIME, "Use the time as HH:MM."),
    to: z.string().regex(CLOCK_TIME, "Use the time as HH:MM."),
    timeZone: z.string().max(64).refine(isTimeZone, "Unknown time zone."),
  }).strict().nullable(),
}).strict();

const themeBody = z.object({ theme: z.enum(THEMES) });

const safetyBody = z.object({
  showToEveryone: z.boolean().optional(),
  discreet: z.boolean().optional(),
  noticeSeen: z.literal(true).optional(),
}).strict();

const idsQuery = z.object({
  ids: z.string().max(50 * 65).transform((s) => s.split(",").filter(Boolean)).pipe(z.array(idSchema).min(1).max(50)),
});
const presenceBody = z.object({ hidden: z.boolean() }).strict();
const lookingBody = z.object({ at: idSchema.nullable() }).strict();

const contactBody = z.object({
  name: z.string().trim().min(1, TEXTS.contactNameRequired).max(200),
  message: z.string().trim().min(1, "Please write a message.").max(MAX_TEXT),
});

const downloadBody = z.object({ token: z.string().min(10).max(100) });

const base64url = z.string().min(8).max(200).regex(/^[A-Za-z0-9_-]+=*$/, "must be base64url");
const subscriptionBody = z.object({
  deviceName: z.string().trim().min(1).max(80),
  endpoint: z.string().url().max(1000),
  expirationTime: z.number().int().min(0).nullable().default(0),
  auth_base64: base64url,
  p256dh_base64: base64url,
});

// --- positions and discovery

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

const briefsQuery = z.object(pagingAndFilters);

const boundsQuery = z.object({
  ...pagingAndFilters,
  /**
   * `rows`: the page as rows (the field names once, then each member's values in their order):
   * the same members and figures in about half the bytes. Without it, the spec's objects.
   */
  form: z.enum(["rows"]).optional(),
  latMin: latParam,
  lonMin: lonParam,
  latMax: latParam,
  lonMax: lonParam,
}).refine((q) => q.latMin <= q.latMax, { message: "latMin must not exceed latMax", path: ["latMin"] });

const { page: _page, size: _size, ...filters } = pagingAndFilters;

/** The map's view: a box and the filters, without paging (one answer of up to `MAP_PROFILE_CAP`). */
const mapViewQuery = z.object({
  ...filters,
  latMin: latParam,
  lonMin: lonParam,
  latMax: latParam,
  lonMax: lonParam,
}).refine((q) => q.latMin <= q.latMax, { message: "latMin must not exceed latMax", path: ["latMin"] });

const coordinate = (min: number, max: number) => z.number().min(min).max(max).nullish();

/** Spec ProfilePosition as the client sends it; the point in `use` must be given. */
const positionBody = z.object({
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

// --- profiles and pictures

// Control characters have no business in one-line fields.
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const oneLine = (max: number) =>
  z.string().trim().max(max, `At most ${max} characters.`).refine((s) => !CONTROL.test(s), {
    message: "Control characters are not allowed.",
  });
/** The longest profile name stored (lists show the first 12 characters). */
export const MAX_NAME = 50;
/** Height and weight are free text ("6'1\"", "185 cm", "80 kg") of at most this many characters. */
export const MAX_MEASURE = 40;
const picIds = z.array(z.string().refine(isId, "Not a picture id.")).max(MAX_PICS_PER_PROFILE);

/**
 * The profile body. Every field is optional (the editor saves one field on blur); those present
 * are checked and saved. Unknown fields (age, pictures, roles, accountId...) are ignored.
 */
const profileBody = z.object({
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

/** The text fields of a picture upload (routes/multipart.ts reads the parts as they stream in). */
export const uploadFields = z.object({
  authorProfileId: z.string({ error: "authorProfileId is required." }),
  picfilename: z.string().max(255).optional(),
});

/** Which picture an upload takes the place of; the message names the parameter. */
const uploadQuery = z.object({ replace_id: z.string().optional() }).superRefine((q, ctx) => {
  if (q.replace_id !== undefined && !isId(q.replace_id)) {
    ctx.addIssue({ code: "custom", message: "replace_id is not a picture id." });
  }
});

/** The served size of a picture: a width of `PIC_SIZES`, or the original; `v` makes the URL cacheable. */
const picQuery = z.object({
  scale_x: z.coerce.number().refine((n) => (PIC_SIZES as readonly number[]).includes(n), {
    message: `scale_x must be one of ${PIC_SIZES.join(", ")}.`,
  }).optional(),
  orig: z.enum(["0", "1"]).optional(),
  v: z.string().max(40).optional(),
});

const nsfwBody = z.object({ nsfw: z.boolean() });
const cropBody = z.object({
  x: z.number().finite().min(0),
  y: z.number().finite().min(0),
  width: z.number().finite().min(1),
  height: z.number().finite().min(1),
  rotate: z.number().finite().refine((r) => r % 90 === 0, "The rotation is a multiple of 90 degrees.").default(0),
});

// --- likes, notes, reports

const likeType = z.enum(LIKE_TYPES);
const cursor = z.string().max(500).optional();

const profileLikeBody = z.object({
  likerProfileId: idSchema,
  likedProfileId: idSchema,
  likeType,
  blocked: z.boolean().optional(),
  /** Accepted for the spec's body shape; the server's clock sets the time. */
  tsCreated: z.number().nullish(),
});

const picLikeBody = z.object({
  likerProfileId: idSchema,
  profilePicId: idSchema,
  profilePicProfileId: idSchema,
  likeType,
  tsCreated: z.number().nullish(),
});

const likesGivenQuery = z.object({ cursor, likeType: likeType.default("LIKE") });
const profileLikeQuery = z.object({ likerProfileId: idSchema, likedProfileId: idSchema });
const cursorQuery = z.object({ cursor });
/** The caller's picture likes; with `profilePicProfileId` all of them on that member's pictures. */
const picLikesGivenQuery = z.object({
  cursor,
  likeType: likeType.default("LIKE"),
  profilePicProfileId: idSchema.optional(),
});

const noteBody = z.object({
  authorProfileId: idSchema,
  aboutProfileId: idSchema,
  bodyText: z.string().max(MAX_TEXT),
  privateTags: z.array(z.string().trim().max(MAX_TAG_LENGTH)).max(MAX_TAGS).default([]),
});
const noteQuery = z.object({ authorProfileId: idSchema, aboutProfileId: idSchema });
const notesQuery = z.object({ authorProfileId: idSchema, cursor: z.string().max(500).optional() });

const reportBody = z.object({
  /** Defaults to the caller's profile. */
  reporterProfileId: idSchema.optional(),
  reportedProfileId: idSchema,
  reason: z.enum(REPORT_REASONS.map((r) => r.id) as [string, ...string[]]),
  text: z.string().trim().max(MAX_TEXT).default(""),
});

// --- messages and the event feed

const windowQuery = z.object({ sinceMessageId: storeId.optional(), beforeMessageId: storeId.optional() })
  .refine((w) => !(w.sinceMessageId && w.beforeMessageId), "use sinceMessageId or beforeMessageId, not both");

const messageBody = z.object({
  recipientProfileId: storeId.nullish(),
  senderProfileId: storeId,
  bodyText: z.string().max(MAX_TEXT + 1000).default(""),
  profilePicIds: z.array(storeId).max(10).default([]),
  tsCreated: z.number().optional(),
  viewOnce: z.boolean().optional(),
});

const deleteMessageQuery = z.object({ for: z.enum(["me", "both"]).default("me") });
const sectorPageQuery = z.object({ page: z.coerce.number().int().min(0).max(50).default(0) });

/** Where a feed resumes (`Last-Event-ID` says it too, and wins); routes/api/events.ts checks its shape. */
const eventsQuery = z.object({
  after: z.string().optional().describe("the id of the last event the client has (20 hex digits)"),
});

/** The request schemas, by "METHOD /path"; a route that reads nothing has no entry. */
export const REQUESTS = {
  "POST /api/auth": { form: loginForm },
  "POST /api/auth/register": { body: registerBody },
  "POST /api/passkeys/register/options": { body: confirmBody, optionalBody: true },
  "POST /api/passkeys/register": { body: passkeyRegisterBody },
  "POST /api/passkeys/login": { body: passkeyLoginBody },
  "PUT /api/settings": { body: settingsBody },
  "PUT /api/settings/language": { body: languageBody },
  "PUT /api/settings/theme": { body: themeBody },
  "PUT /api/settings/quiet-hours": { body: quietHoursBody },
  "DELETE /api/sessions/:id": { body: confirmBody, optionalBody: true },
  "POST /api/sessions/end-others": { body: confirmBody, optionalBody: true },
  "PUT /api/safety": { body: safetyBody },
  "GET /api/presence": { query: idsQuery },
  "PUT /api/presence": { body: presenceBody },
  "POST /api/presence/looking": { body: lookingBody },
  "POST /api/contactus-messages": { body: contactBody },
  "POST /api/account/export/download": { body: downloadBody },
  "DELETE /api/account": { body: confirmBody, optionalBody: true },
  "PUT /api/profile-position/:profileId": { body: positionBody },
  "GET /api/profile-briefs/nearest": { query: briefsQuery },
  "GET /api/profile-briefs/by-bounds": { query: boundsQuery },
  "GET /api/profile-briefs/map": { query: mapViewQuery },
  "GET /api/profile-briefs/by-sector/:sector": { query: briefsQuery },
  "PUT /api/profile": { body: profileBody },
  "POST /api/profile-pic": {
    query: uploadQuery,
    form: uploadFields.extend({
      picfile: z.string().describe(
        `the picture: JPEG, PNG, WebP, AVIF or HEIC, at most ${MAX_UPLOAD_BYTES.toLocaleString("en")} bytes`,
      ),
    }),
  },
  "GET /api/profile-pic/:id": { query: picQuery },
  "GET /api/profile-pic/nsfw/:id": { query: picQuery },
  "PUT /api/profile-pic/:id": { body: nsfwBody },
  "PUT /api/profile-pic/:id/crop": { body: cropBody },
  "GET /api/profile-likes/by-liker/:profileId": { query: likesGivenQuery },
  "GET /api/profile-likes/by-liked/:profileId": { query: cursorQuery },
  "GET /api/profile-like": { query: profileLikeQuery },
  "PUT /api/profile-like": { body: profileLikeBody },
  "PUT /api/profile-pic-like": { body: picLikeBody },
  "GET /api/profile-pic-likes/by-liker-profileid/:profileId": { query: picLikesGivenQuery },
  "GET /api/profile-pic-likes/by-liked-profileid/:profileId": { query: cursorQuery },
  "GET /api/profile-note": { query: noteQuery },
  "PUT /api/profile-note": { body: noteBody },
  "GET /api/profile-notes": { query: notesQuery },
  "POST /api/profile-report": { body: reportBody },
  "POST /api/push-subscriptions": { body: subscriptionBody },
  "DELETE /api/message/:id": { query: deleteMessageQuery },
  "GET /api/messages/most-recent-with/:profileId": { query: windowQuery },
  "GET /api/messages/between/:a/:b": { query: windowQuery },
  "POST /api/message": { body: messageBody },
  "GET /api/messages/by-sector/:sector": { query: sectorPageQuery },
  "GET /api/events": { query: eventsQuery },
  ...GAME_REQUESTS,
  ...SECRET_REQUESTS,
} as const satisfies Partial<Record<ApiRoute | keyof typeof NOT_JSON, RequestShape>>;

/** A route that reads input: "METHOD /api/path". */
export type RequestRoute = keyof typeof REQUESTS;
type Shape<R extends RequestRoute> = (typeof REQUESTS)[R];
type Part<R extends RequestRoute, K extends keyof RequestShape> = Shape<R> extends
  Record<K, infer S extends z.core.$ZodType> ? S
  : never;
/** The routes that read a JSON body, a query, a form. */
export type BodyRoute = { [R in RequestRoute]: Part<R, "body"> extends never ? never : R }[RequestRoute];
export type QueryRoute = { [R in RequestRoute]: Part<R, "query"> extends never ? never : R }[RequestRoute];
export type FormRoute = { [R in RequestRoute]: Part<R, "form"> extends never ? never : R }[RequestRoute];
/** The routes that read raw bytes. */
export type BytesRoute = { [R in RequestRoute]: Shape<R> extends { bytes: RawBytes } ? R : never }[RequestRoute];
/** What a client sends as the body of `R` (the schema's input). */
export type ApiBody<R extends BodyRoute> = z.input<Part<R, "body">>;
/** The body of `R` as the handler reads it (parsed: defaults filled in, values transformed). */
export type ParsedBody<R extends BodyRoute> = z.output<Part<R, "body">>;
/** The query of `R` as the handler reads it. */
export type ParsedQuery<R extends QueryRoute> = z.output<Part<R, "query">>;
/** The form of `R` as the handler reads it. */
export type ParsedForm<R extends FormRoute> = z.output<Part<R, "form">>;
