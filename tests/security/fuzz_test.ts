/**
 * Generated bad input over every API route the app registers (read from the Hono app itself, so
 * a new route is covered without a change here). For each route, fast-check generates at least
 * 200 calls: wrong types, huge and deep JSON, unicode (RTL, zero-width, lone surrogates),
 * `__proto__` / `constructor` keys, NaN / Infinity / -0, odd ids (empty, 10,000 characters, `../`,
 * `%00`), bad Origin and cookies, as anonymous, a member, an admin or a junk session. Every call
 * must answer below 500, within 2 s, and a call answered 4xx must store nothing (every stored key
 * and its versionstamp compared before and after, but rate-limit counts, which exist to count
 * refused calls).
 *
 * Deterministic: a fixed seed (FUZZ_SEED to change it), printed on failure with the call that
 * failed. FUZZ_RUNS sets the runs per route, FUZZ_ROUTE runs only routes whose "METHOD /path"
 * contains it, FUZZ_ALL=1 goes on after a failure to count every failing call.
 */

import assert from "node:assert/strict";
import fc from "fast-check";
import { ORIGIN, testApp } from "../api.ts";
import { buildWorld, type World } from "./world.ts";
import { bringUpToDate, clearExpiring, countWrites, kvChanges, kvSnapshot } from "./kit.ts";
import { CALLS, type CallSpec } from "./calls.ts";
import { binaryString } from "../binaryString.ts";

const SEED = Number(Deno.env.get("FUZZ_SEED") ?? 20261124);
const RUNS = Number(Deno.env.get("FUZZ_RUNS") ?? 200);
const ONLY = Deno.env.get("FUZZ_ROUTE");
const ALL = Deno.env.get("FUZZ_ALL") === "1";
const DEBUG = Deno.env.get("FUZZ_DEBUG");
const MAX_MS = 2000;

// --- what is generated

/** Strings that broke or could break a parser, a key, a log line or a renderer. */
const NASTY = [
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
const KILLERS = ["x".repeat(10_000), "A".repeat(3000), "\u202e", "\u0000", "", "../", "%00", "😀", "a\u200bb", "1e309"];

/** The query keys the app reads (a query mutation picks these most of the time). */
const QUERY_FIELDS = [
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
const FIELDS = [
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
const ID_NAMES = [
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
type IdName = typeof ID_NAMES[number];

/** A generated string: nasty, random unicode, a world id, or a well-shaped id nobody has. */
type Str = { nasty: string } | { random: string } | { id: IdName } | { hexId: string };

const str: fc.Arbitrary<Str> = fc.oneof(
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
const placeholder = (s: Str) => `\u0001${JSON.stringify(s)}\u0002`;

/** A JSON value as text: anything JSON can carry, numbers JSON.parse turns odd, and nested mixtures. */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string; object: string; array: string }>((tie) => ({
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
const RAW_BODIES = [
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

const CONTENT_TYPES = [
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

type Body =
  | { kind: "none" }
  | { kind: "json"; text: string; type: string }
  | { kind: "raw"; text: string; type: string }
  | { kind: "form"; fields: [string, Str][] }
  | { kind: "multipart"; fields: [string, Str][]; file: Uint8Array | null };

const fieldList = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 8 })), str), {
  maxLength: 6,
});

const body: fc.Arbitrary<Body> = fc.oneof(
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
type Caller = "anonymous" | "owner" | "admin" | "junk";

/** Printable latin-1 (what an HTTP header can carry). */
const headerText = fc.string({
  unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)),
  maxLength: 200,
});

const ORIGINS = ["null", "http://host.evil.example", "http://localhost", "http://localhost.evil.example", "not a url"];

/** Where a mutation of a well-formed call lands: one of its own keys (by position) or any field. */
const keyChoice = fc.oneof(
  fc.nat({ max: 9 }).map((existing) => ({ existing })),
  fc.constantFrom(...FIELDS).map((field) => ({ field })),
);
const queryKeyChoice = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...QUERY_FIELDS).map((field) => ({ field })) },
  { weight: 1, arbitrary: keyChoice },
);

const paramMutation = fc.record({ at: fc.constant("param" as const), index: fc.nat({ max: 3 }), value: str });
const queryMutation = fc.record({
  at: fc.constant("query" as const),
  key: queryKeyChoice,
  value: fc.option(str, { nil: null, freq: 6 }),
});

/** One change to a well-formed call: a path parameter, a query key, a JSON or form field, or the whole body. */
const mutation = (method: string) =>
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

const input = (method: string, params: string[]) =>
  fc.record({
    /** Start from the route's well-formed call (tests/security/calls.ts) and break it, or build from nothing. */
    fromCall: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 2, arbitrary: fc.constant(false) }),
    mutations: fc.array(mutation(method), { minLength: 1, maxLength: 3 }),
    caller: fc.constantFrom<Caller>("anonymous", "owner", "owner", "owner", "admin", "junk"),
    junkCookie: fc.oneof(headerText, fc.constant("x".repeat(10_000))),
    params: fc.tuple(...params.map(() => str)) as fc.Arbitrary<Str[]>,
    rawParams: fc.boolean(),
    query: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_FIELDS, ...FIELDS), fc.string({ maxLength: 8 })), str), {
      maxLength: 5,
    }),
    rawQuery: fc.option(fc.constantFrom("%", "%ZZ", "a=%E2%80", "a&&&b==c", "cursor=%00", "=x", "&"), { nil: null }),
    body,
    origin: fc.oneof(
      { weight: 6, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constant("http://localhost") },
      { weight: 2, arbitrary: fc.oneof(fc.constantFrom(...ORIGINS), headerText) },
    ),
    secFetchSite: fc.oneof(
      { weight: 6, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constantFrom("same-origin", "none", "cross-site", "same-site", "junk") },
    ),
  });
type Input = ReturnType<typeof input> extends fc.Arbitrary<infer I> ? I : never;

// --- how a generated call is sent

function resolve(s: Str, w: World): string {
  if ("nasty" in s) return s.nasty;
  if ("random" in s) return s.random;
  if ("hexId" in s) return s.hexId;
  const id = s.id;
  if (id === "owner" || id === "other" || id === "blocked" || id === "admin") return w[id].profileId;
  return w.ids[id];
}

/** Percent-encodes any string, lone surrogates too (as UTF-8 of U+FFFD, as a browser would). */
function encode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return Array.from(new TextEncoder().encode(s), (b) => `%${b.toString(16).padStart(2, "0")}`).join("");
  }
}

/** Header values must be ByteStrings: anything else is sent as its UTF-8 bytes, one char each. */
function latin1(s: string): string {
  // An ASCII string is its own UTF-8 (the 10,000-character cookie is one): not spread byte by byte.
  // deno-lint-ignore no-control-regex -- ASCII is U+0000 to U+007F
  const bytes = /^[\u0000-\u007f]*$/.test(s)
    ? s
    : Array.from(new TextEncoder().encode(s), (b) => String.fromCharCode(b)).join("");
  return bytes.replace(/[\r\n\0]/g, " ");
}

/** Puts a generated JSON text's placeholders (`placeholder`) in: the world's ids and the nasty strings. */
function fill(text: string, w: World): string {
  // deno-lint-ignore no-control-regex -- the placeholder's marks are control characters on purpose
  return text.replace(/\u0001([^\u0002]*)\u0002/g, (_, s) => JSON.stringify(resolve(JSON.parse(s), w)));
}

/**
 * A call's headers by (lower-case) name: checked once, by the Request they go to (a Headers object
 * checked each value again, the 10,000-character cookie too).
 */
type HeaderMap = Map<string, string>;

/** The headers of a generated caller. */
function headersOf(i: Input, w: World): HeaderMap {
  const headers: HeaderMap = new Map();
  const cookie = i.caller === "owner"
    ? w.owner.cookie
    : i.caller === "admin"
    ? w.admin.cookie
    : i.caller === "junk"
    ? `sid=${latin1(i.junkCookie)}; __Host-sid=${latin1(i.junkCookie)}`
    : null;
  if (cookie) headers.set("cookie", cookie);
  if (i.origin !== null) headers.set("origin", latin1(i.origin));
  if (i.secFetchSite !== null) headers.set("sec-fetch-site", i.secFetchSite);
  headers.set("host", "localhost");
  return headers;
}

/** A generated body as the request's body, setting its content type. */
function bodyOf(b: Body, headers: HeaderMap, w: World): BodyInit | undefined {
  if (b.kind === "json") {
    if (b.type) headers.set("content-type", latin1(b.type));
    return fill(b.text, w);
  }
  if (b.kind === "raw") {
    if (b.type) headers.set("content-type", latin1(b.type));
    return b.text;
  }
  if (b.kind === "form") return new URLSearchParams(b.fields.map(([k, v]) => [k, resolve(v, w)]));
  if (b.kind === "multipart") {
    const fd = new FormData();
    for (const [k, v] of b.fields) fd.append(k, resolve(v, w));
    if (b.file) fd.append("picfile", new File([b.file as Uint8Array<ArrayBuffer>], "p.jpg", { type: "image/jpeg" }));
    return fd;
  }
  return undefined;
}

/** The key a mutation names: one of `keys` by position, or a field name. */
function keyOf(choice: { existing: number } | { field: string }, keys: string[]): string {
  return "field" in choice ? choice.field : keys.length ? keys[choice.existing % keys.length] : FIELDS[choice.existing];
}

/** A call built from nothing: the route's path with generated parameters, query, body and headers. */
function freeRequest(method: string, path: string, i: Input, w: World): { req: Request; body?: BodyInit } {
  let n = 0;
  const url = path.replace(/:(\w+)(\{[^}]*\})?/g, () => {
    const v = resolve(i.params[n++], w);
    return i.rawParams ? v.replace(/[?#]/g, encode) : encode(v);
  });
  const q = i.query.map(([k, v]) => `${encode(k)}=${encode(resolve(v, w))}`);
  if (i.rawQuery) q.push(i.rawQuery);
  const headers = headersOf(i, w);
  const body = method === "GET" || method === "HEAD" ? undefined : bodyOf(i.body, headers, w);
  const req = new Request(`${ORIGIN}${url}${q.length ? "?" + q.join("&") : ""}`, {
    method,
    headers: [...headers],
    body,
  });
  return { req, body };
}

/** A well-formed call of the route with one to three of its pieces broken. */
function mutatedRequest(
  method: string,
  route: string,
  spec: CallSpec,
  i: Input,
  w: World,
): { req: Request; body?: BodyInit } {
  const pattern = route.split("/");
  const paramAt = pattern.flatMap((seg, k) => (seg.startsWith(":") ? [k] : []));
  const segments = spec.path.split("/");
  const query = new Map(Object.entries(spec.query ?? {}).map(([k, v]) => [k, encode(v)]));
  const jsonIsObject = spec.json !== null && typeof spec.json === "object" && !Array.isArray(spec.json);
  const fields = new Map<string, string>(
    jsonIsObject ? Object.entries(spec.json as Record<string, unknown>).map(([k, v]) => [k, JSON.stringify(v)]) : [],
  );
  const form = new Map<string, string | Blob>(Object.entries(spec.form ?? {}));
  let whole: Body | null = null;
  for (const m of i.mutations) {
    if (m.at === "param" && paramAt.length) {
      const v = resolve(m.value, w);
      segments[paramAt[m.index % paramAt.length]] = i.rawParams ? v.replace(/[?#/]/g, encode) : encode(v);
    } else if (m.at === "query") {
      const k = keyOf(m.key, [...query.keys()]);
      if (m.value === null) query.delete(k);
      else query.set(k, encode(resolve(m.value, w)));
    } else if (m.at === "field" && spec.form) {
      const k = keyOf(m.key, [...form.keys()]);
      if (m.value === null) form.delete(k);
      else form.set(k, fill(m.value, w));
    } else if (m.at === "field") {
      const k = keyOf(m.key, [...fields.keys()]);
      if (m.value === null) fields.delete(k);
      else fields.set(k, m.value);
    } else if (m.at === "body") whole = m.body;
  }
  const q = [...query].map(([k, v]) => `${encode(k)}=${v}`);
  if (i.rawQuery) q.push(i.rawQuery);
  const headers = headersOf(i, w);
  let body: BodyInit | undefined;
  if (method !== "GET" && method !== "HEAD") {
    if (whole) body = bodyOf(whole, headers, w);
    else if (spec.form) {
      const fd = new FormData();
      for (const [k, v] of form) fd.append(k, v);
      body = fd;
    } else if (jsonIsObject || fields.size) {
      headers.set("content-type", "application/json");
      body = fill(`{${[...fields].map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`, w);
    }
  }
  const url = `${ORIGIN}${segments.join("/")}${q.length ? "?" + q.join("&") : ""}`;
  return { req: new Request(url, { method, headers: [...headers], body }), body };
}

/** What a body held, as text, for a failure report (read from what was built: never from the request). */
function bodyText(body: BodyInit | undefined): string {
  if (typeof body === "string") return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof FormData) {
    return JSON.stringify([...body].map(([k, v]) => [k, typeof v === "string" ? v : `(a file of ${v.size} bytes)`]));
  }
  return "";
}

/** A short description of a call, for a failure report. */
function describe(req: Request, i: Input, sent: string): string {
  const cut = (s: string) => (s.length > 160 ? `${s.slice(0, 160)}… (${s.length} chars)` : s);
  if (i.fromCall) {
    return `${req.method} ${cut(req.url)} as ${i.caller}; origin ${i.origin}; sec-fetch-site ${i.secFetchSite}; ` +
      `from its well-formed call, changed: ${cut(JSON.stringify(i.mutations))}; body sent ${cut(sent)}`;
  }
  const b = i.body;
  const bodyText = b.kind === "json" || b.kind === "raw"
    ? `${b.type} ${cut(b.text)}`
    : b.kind === "none"
    ? "no body"
    : `${b.kind} ${cut(JSON.stringify(b.fields))}`;
  return `${req.method} ${cut(req.url)} as ${i.caller}; origin ${i.origin}; sec-fetch-site ${i.secFetchSite}; ` +
    `body ${bodyText}`;
}

/** A stable 32-bit hash of a route, so each route has its own seed and a new route changes no other's. */
function routeSeed(route: string): number {
  let h = SEED | 0;
  for (const ch of route) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return h | 0;
}

// --- the property

Deno.test("security - generated bad input: every API route answers below 500, within 2 s, and a 4xx stores nothing", async () => {
  const t = await testApp();
  try {
    const w = await buildWorld(t);
    const writes = countWrites(t.kv());
    const routes = [
      ...new Map(
        t.app.routes
          .filter((r) => r.method !== "ALL" && r.path.startsWith("/api/"))
          .map((r) => [`${r.method} ${r.path}`, r] as const),
      ).values(),
    ].filter((r) => !ONLY || `${r.method} ${r.path}`.includes(ONLY));
    assert.ok(ONLY || routes.length >= 60, `only ${routes.length} API routes found`);

    const failures: string[] = [];
    let calls = 0, slowest = 0, slowestCall = "";
    const statuses = new Map<number, number>();
    const t0 = performance.now();
    // The store as the last route's end listed it whole (none before the first route).
    let listed: Map<string, string> | null = null;
    for (const route of routes) {
      const name = `${route.method} ${route.path}`;
      if (DEBUG) console.log(name);
      const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const seed = routeSeed(name);
      // A route may end the session it was called with (logout): each route starts with live ones.
      await w.renewSessions();
      // What an earlier route left to expire on its own would read as a removal during this one.
      await clearExpiring();
      // The last route's whole listing brought up to date with the keys written since (listed whole
      // again where they are not known), as after each call; the route's end lists it whole.
      const snapshot: Map<string, string> = listed ?? await kvSnapshot();
      if (listed) await bringUpToDate(snapshot, writes.touched());
      // The keys written before it are in it.
      else writes.touched();
      let failed = 0;
      const property = fc.asyncProperty(input(route.method, params), async (i) => {
        const spec = i.fromCall && CALLS[name] ? await CALLS[name](w, false) : null;
        // The request is never cloned: a teed body waits on its other branch when cancelled.
        const { req, body } = spec
          ? mutatedRequest(route.method, route.path, spec, i, w)
          : freeRequest(route.method, route.path, i, w);
        if (DEBUG === "2") console.log(describe(req, i, "").slice(0, 600));
        const wrote = writes.count;
        const start = performance.now();
        const res = await t.app.request(req);
        // An event stream stays open: its headers are the answer.
        if (res.headers.get("content-type")?.startsWith("text/event-stream")) await res.body?.cancel();
        else await res.arrayBuffer();
        const ms = performance.now() - start;
        calls++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (ms > slowest) [slowest, slowestCall] = [ms, describe(req, i, "")];
        const problems: string[] = [];
        if (res.status >= 500) problems.push(`answered ${res.status}`);
        if (ms > MAX_MS) problems.push(`took ${ms.toFixed(0)} ms`);
        // A call's after is the next call's before; brought up to date only when something was written,
        // by reading the keys written (the whole store listed where they are not known): what that changed
        // is what the call stored.
        const changes = writes.count !== wrote ? await bringUpToDate(snapshot, writes.touched()) : [];
        if (res.status >= 400 && res.status < 500 && changes.length) {
          problems.push(`answered ${res.status} but stored: ${changes.slice(0, 5).join("; ")}`);
        }
        if (problems.length) {
          failed++;
          const sent = bodyText(body);
          const what = `${problems.join(", ")}: ${describe(req, i, sent)}`;
          if (ALL) {
            if (failed <= 3) failures.push(`${name}: ${what}`);
            return true;
          }
          throw new Error(what);
        }
        return true;
      });
      const out = await fc.check(property, { seed, numRuns: RUNS, endOnFailure: true });
      // The write count and its keys are only a hint of when and what to read again: the whole store
      // listed, they must have missed nothing.
      listed = await kvSnapshot();
      assert.deepEqual(kvChanges(snapshot, listed), [], `${name}: a write the count missed`);
      if (out.failed) {
        failures.push(
          `${name}: ${out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance)}\n` +
            `    seed ${SEED}, route seed ${seed}, after ${out.numRuns} runs ` +
            `(replay: FUZZ_SEED=${SEED} FUZZ_ROUTE='${name}' deno test -A tests/security/fuzz_test.ts)`,
        );
      }
      if (ALL && failed) failures.push(`${name}: ${failed} failing calls of ${RUNS}`);
    }
    const secs = (performance.now() - t0) / 1000;
    let keys = 0;
    for await (const _ of t.kv().list({ prefix: [] })) keys++;
    console.log(`${keys} keys stored at the end`);
    console.log(
      `${routes.length} routes × ${RUNS} generated calls = ${calls} calls in ${secs.toFixed(1)} s (seed ${SEED}); ` +
        `statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}; ` +
        `slowest ${slowest.toFixed(0)} ms: ${slowestCall.slice(0, 200)}`,
    );
    assert.ok(calls >= routes.length * RUNS || failures.length > 0, `${calls} calls ran`);
    assert.deepEqual(failures, [], `seed ${SEED}:\n${failures.join("\n")}`);
  } finally {
    t.close();
  }
});
