/** What the fuzz suite (fuzz_test.ts) generates: bad strings, JSON, bodies, headers and the mutations of a valid call. */

import fc from "fast-check";
import { binaryString } from "../binaryString.ts";

// --- what is generated

/** Strings that broke or could break a parser, a key, a log line or a renderer. */
export const NASTY = [
  "",
  " ",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-Infinity",
  "-0",
  "0",
  "1",
  "-1",
  "1.5",
  "1e309",
  "-1e309",
  "1e-400",
  "9007199254740993",
  "0x10",
  "true",
  "false",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "../",
  "../../etc/passwd",
  "..%2F..%2F",
  "%00",
  "%2e%2e%2f",
  "%E2%80%AE",
  "%ZZ",
  "%",
  "\u0000",
  "a\u0000b",
  "\u202e",
  "\u202eevil",
  "\u200b",
  "\u200f",
  "\u2028",
  "\ufeff",
  "\ud800",
  "\udfff",
  "😀",
  "👩‍❤️‍👩",
  "a\u0301",
  "\r\n",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "${7*7}",
  "{{7*7}}",
  "33:-112",
  "999:999",
  "-91:181",
  "0:0",
  "LIKE",
  "DISLIKE",
  "UNDETERMINED",
  "OVERRIDE",
  "DEVICE_GPS",
  "ACCEPT",
  "DISMISS",
  "HUMAN",
  "MACHINE",
  "a@example.com",
  "owner@example.com",
  "https://fcm.googleapis.com/fcm/send/x",
  "http://127.0.0.1:1/",
  "javascript:alert(1)",
  "A".repeat(28),
  "0".repeat(28),
  "x".repeat(65),
  "x".repeat(10_000),
];

/** What breaks ids, cursors and keys most often: asked for more often than the rest. */
export const KILLERS = [
  "x".repeat(10_000),
  "A".repeat(3000),
  "\u202e",
  "\u0000",
  "",
  "../",
  "%00",
  "😀",
  "a\u200bb",
  "1e309",
];

/** The query keys the app reads (a query mutation picks these most of the time). */
export const QUERY_FIELDS = [
  "cursor",
  "page",
  "size",
  "likeType",
  "authorProfileId",
  "aboutProfileId",
  "likerProfileId",
  "likedProfileId",
  "profilePicProfileId",
  "sinceMessageId",
  "beforeMessageId",
  "chars",
  "likes",
  "latMin",
  "latMax",
  "lonMin",
  "lonMax",
  "ratedBefore",
  "scale_x",
  "orig",
  "v",
  "replace_id",
  "skip",
  "for",
];

/** Field names of the app's bodies and queries (new ones are reached by the random names too). */
export const FIELDS = [
  "email",
  "acknowledgements",
  "username",
  "password",
  "token",
  "rememberMe",
  "name",
  "message",
  "profileId",
  "id",
  "overrideLat",
  "overrideLon",
  "gpsLat",
  "gpsLon",
  "gpsTimestamp",
  "use",
  "hide",
  "profilename",
  "birthdate",
  "height",
  "weight",
  "description",
  "characteristics",
  "profilePicIds",
  "profilePicIdsPrivate",
  "likerProfileId",
  "likedProfileId",
  "likeType",
  "blocked",
  "tsCreated",
  "profilePicId",
  "profilePicProfileId",
  "authorProfileId",
  "aboutProfileId",
  "bodyText",
  "privateTags",
  "reporterProfileId",
  "reportedProfileId",
  "reason",
  "text",
  "deviceName",
  "endpoint",
  "expirationTime",
  "auth_base64",
  "p256dh_base64",
  "recipientProfileId",
  "senderProfileId",
  "verdict",
  "decision",
  "action",
  "gen",
  "nsfw",
  "x",
  "y",
  "width",
  "rotate",
  "cursor",
  "page",
  "size",
  "chars",
  "likes",
  "latMin",
  "latMax",
  "lonMin",
  "lonMax",
  "ratedBefore",
  "scale_x",
  "orig",
  "v",
  "replace_id",
  "skip",
  "sinceMessageId",
  "beforeMessageId",
  "picfilename",
  "currentPassword",
  "newPassword",
  "for",
  "response",
  "challengeId",
  "rawId",
  "type",
  "__proto__",
  "constructor",
  "prototype",
];

/** The ids of the world, by name: a generated call names one, resolved when it runs. */
export const ID_NAMES = [
  "owner",
  "other",
  "blocked",
  "admin",
  "picture",
  "otherPicture",
  "passkey",
  "notification",
  "message",
  "pushSubscription",
  "session",
  "report",
  "cropSuggestion",
] as const;
export type IdName = typeof ID_NAMES[number];

/** A generated string: nasty, random unicode, a world id, or a well-shaped id nobody has. */
export type Str = { nasty: string } | { random: string } | { id: IdName } | { hexId: string };

export const str: fc.Arbitrary<Str> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY).map((nasty) => ({ nasty })) },
  { weight: 2, arbitrary: fc.constantFrom(...KILLERS).map((nasty) => ({ nasty })) },
  { weight: 2, arbitrary: binaryString({ maxLength: 40 }).map((random) => ({ random })) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 300 }).map((random) => ({ random })) },
  { weight: 3, arbitrary: fc.constantFrom(...ID_NAMES).map((id) => ({ id })) },
  { weight: 1, arbitrary: fc.stringMatching(/^[0-9a-f]{28}$/).map((hexId) => ({ hexId })) },
);

/**
 * Where a generated string goes in a generated JSON text, put in by `fill` when the call is made. Its
 * marks are control characters, which JSON text never holds raw (JSON.stringify escapes them), so a
 * string or key holding '<<' or '>>' cannot be taken for one.
 */
export const placeholder = (s: Str) => `\u0001${JSON.stringify(s)}\u0002`;

/** A JSON value as text: anything JSON can carry, numbers JSON.parse turns odd, and nested mixtures. */
export const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string; object: string; array: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    str.map(placeholder),
    fc.constantFrom("null", "true", "false", "0", "-0", "1", "-1", "1.5", "1e309", "-1e309", "1e-400", "2e53", "52.5"),
    fc.double().map((d) => (Number.isFinite(d) ? String(d) : "0")),
    fc.integer().map(String),
    tie("object"),
    tie("array"),
  ),
  object: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 10 })), tie("value")), {
    maxLength: 6,
  }).map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`),
  array: fc.array(tie("value"), { maxLength: 5 }).map((items) => `[${items.join(",")}]`),
})).value;

/** Bodies that are not plain JSON values: deep, huge, broken, or not JSON at all. */
export const RAW_BODIES = [
  "",
  "NaN",
  "Infinity",
  "-0",
  "undefined",
  "{",
  "}",
  "[",
  '{"a":1,}',
  "{'a':1}",
  "\u0000",
  "\ufeff{}",
  '{"__proto__":{"isAdmin":true,"roles":["ADMIN"]}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  "[".repeat(30_000) + "]".repeat(30_000),
  '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000),
  JSON.stringify({ description: "x".repeat(70_000) }),
  JSON.stringify(Array.from({ length: 5000 }, (_, i) => i)),
  JSON.stringify(Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, i]))),
  "a=1&b=2",
  '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
];

export const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "multipart/form-data",
  "application/octet-stream",
  "image/jpeg",
  "",
  "application/json; charset=\u00ff",
];

export type Body =
  | { kind: "none" }
  | { kind: "json"; text: string; type: string }
  | { kind: "raw"; text: string; type: string }
  | { kind: "form"; fields: [string, Str][] }
  | { kind: "multipart"; fields: [string, Str][]; file: Uint8Array | null };

export const fieldList = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 8 })), str), {
  maxLength: 6,
});

export const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ kind: "none" as const }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("json" as const),
      text: jsonText,
      type: fc.oneof({ weight: 5, arbitrary: fc.constant("application/json") }, fc.constantFrom(...CONTENT_TYPES)),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("raw" as const),
      text: fc.constantFrom(...RAW_BODIES),
      type: fc.constantFrom(...CONTENT_TYPES),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("form" as const), fields: fieldList }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("multipart" as const),
      fields: fieldList,
      file: fc.option(fc.uint8Array({ maxLength: 2000 }), { nil: null }),
    }),
  },
);

/** Who calls: a role of the world, nobody, or a junk session cookie. */
export type Caller = "anonymous" | "owner" | "admin" | "junk";

/** Printable latin-1 (what an HTTP header can carry). */
export const headerText = fc.string({
  // 0x20 to 0xff but DEL (0x7f): one fewer drawn, those from DEL up moved up one (no draw refused).
  unit: fc.integer({ min: 0x20, max: 0xfe }).map((c) => String.fromCharCode(c < 0x7f ? c : c + 1)),
  maxLength: 200,
});

export const ORIGINS = [
  "null",
  "http://host.evil.example",
  "http://localhost",
  "http://localhost.evil.example",
  "not a url",
];

/** Where a mutation of a well-formed call lands: one of its own keys (by position) or any field. */
export const keyChoice = fc.oneof(
  fc.nat({ max: 9 }).map((existing) => ({ existing })),
  fc.constantFrom(...FIELDS).map((field) => ({ field })),
);
export const queryKeyChoice = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...QUERY_FIELDS).map((field) => ({ field })) },
  { weight: 1, arbitrary: keyChoice },
);

export const paramMutation = fc.record({ at: fc.constant("param" as const), index: fc.nat({ max: 3 }), value: str });
export const queryMutation = fc.record({
  at: fc.constant("query" as const),
  key: queryKeyChoice,
  value: fc.option(str, { nil: null, freq: 6 }),
});

/** One change to a well-formed call: a path parameter, a query key, a JSON or form field, or the whole body. */
export const mutation = (method: string) =>
  method === "GET"
    ? fc.oneof({ weight: 3, arbitrary: paramMutation }, { weight: 4, arbitrary: queryMutation })
    : fc.oneof(
      { weight: 3, arbitrary: paramMutation },
      { weight: 2, arbitrary: queryMutation },
      {
        weight: 4,
        arbitrary: fc.record({
          at: fc.constant("field" as const),
          key: keyChoice,
          value: fc.option(fc.oneof(jsonText, str.map(placeholder)), { nil: null, freq: 6 }),
        }),
      },
      { weight: 1, arbitrary: fc.record({ at: fc.constant("body" as const), body }) },
    );

/** One change to a well-formed call, as `mutation` generates it. */
export type Mutation = ReturnType<typeof mutation> extends fc.Arbitrary<infer M> ? M : never;

/** A generated call: the pieces its kind uses (from a well-formed call, or from nothing), the others left empty. */
export interface Input {
  /** Started from the route's well-formed call (tests/security/calls.ts) and broken, or built from nothing. */
  fromCall: boolean;
  /** What breaks the well-formed call (none for a call built from nothing). */
  mutations: Mutation[];
  caller: Caller;
  /** The junk session cookie ("" unless the caller is "junk"). */
  junkCookie: string;
  /** The path parameters, query and body of a call built from nothing (none for one from its well-formed call). */
  params: Str[];
  query: [string, Str][];
  body: Body;
  rawParams: boolean;
  rawQuery: string | null;
  origin: string | null;
  secFetchSite: string | null;
}

/** Who calls, with the junk cookie generated only for the junk caller (one in six, as each role before). */
const callerAndCookie: fc.Arbitrary<[Caller, string]> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom<Caller>("anonymous", "owner", "owner", "owner", "admin").map((
      c,
    ): [Caller, string] => [c, ""]),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(headerText, fc.constant("x".repeat(10_000))).map((j): [Caller, string] => ["junk", j]),
  },
);

const rawQuery = fc.option(fc.constantFrom("%", "%ZZ", "a=%E2%80", "a&&&b==c", "cursor=%00", "=x", "&"), { nil: null });
const origin = fc.oneof(
  { weight: 6, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constant("http://localhost") },
  { weight: 2, arbitrary: fc.oneof(fc.constantFrom(...ORIGINS), headerText) },
);
const secFetchSite = fc.oneof(
  { weight: 6, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom("same-origin", "none", "cross-site", "same-site", "junk") },
);
const NO_BODY: Body = { kind: "none" };

/**
 * A generated call of a route with the path parameters `params`: three in five from its well-formed
 * call (when it has one: `fromCall`), the others from nothing. Only the pieces a kind uses are
 * generated: the body, parameters and query of a call from nothing, the mutations of one from its
 * call (the others are left empty). Tuples mapped to the call, not records: a record's object is
 * built again from its keys for every value.
 */
export function input(method: string, params: string[], fromCall: boolean): fc.Arbitrary<Input> {
  const broken = fc.tuple(
    callerAndCookie,
    fc.boolean(),
    rawQuery,
    origin,
    secFetchSite,
    fc.array(mutation(method), { minLength: 1, maxLength: 3 }),
  ).map(([[caller, junkCookie], rawParams, rawQuery, origin, secFetchSite, mutations]): Input => ({
    fromCall: true,
    mutations,
    caller,
    junkCookie,
    params: [],
    query: [],
    body: NO_BODY,
    rawParams,
    rawQuery,
    origin,
    secFetchSite,
  }));
  const free = fc.tuple(
    callerAndCookie,
    fc.boolean(),
    rawQuery,
    origin,
    secFetchSite,
    fc.tuple(...params.map(() => str)) as fc.Arbitrary<Str[]>,
    fc.array(
      fc.tuple(fc.oneof(fc.constantFrom(...QUERY_FIELDS, ...FIELDS), fc.string({ maxLength: 8 })), str),
      { maxLength: 5 },
    ),
    body,
  ).map(([[caller, junkCookie], rawParams, rawQuery, origin, secFetchSite, params, query, body]): Input => ({
    fromCall: false,
    mutations: [],
    caller,
    junkCookie,
    params,
    query,
    body,
    rawParams,
    rawQuery,
    origin,
    secFetchSite,
  }));
  return fromCall ? fc.oneof({ weight: 3, arbitrary: broken }, { weight: 2, arbitrary: free }) : free;
}
