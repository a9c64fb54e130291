/** How the fuzz suite (fuzz_test.ts) turns a generated input into a request, and describes one that failed. */

import { ORIGIN } from "../api.ts";
import { type World } from "./world.ts";
import { type CallSpec } from "./calls.ts";
import { type Body, FIELDS, type Input, type Str } from "./inputs.ts";

// --- how a generated call is sent

export function resolve(s: Str, w: World): string {
  if ("nasty" in s) return s.nasty;
  if ("random" in s) return s.random;
  if ("hexId" in s) return s.hexId;
  const id = s.id;
  if (id === "owner" || id === "other" || id === "blocked" || id === "admin") return w[id].profileId;
  return w.ids[id];
}

/** Percent-encodes any string, lone surrogates too (as UTF-8 of U+FFFD, as a browser would). */
export function encode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return Array.from(new TextEncoder().encode(s), (b) => `%${b.toString(16).padStart(2, "0")}`).join("");
  }
}

/** Header values must be ByteStrings: anything else is sent as its UTF-8 bytes, one char each. */
export function latin1(s: string): string {
  // An ASCII string is its own UTF-8 (the 10,000-character cookie is one): not spread byte by byte.
  // deno-lint-ignore no-control-regex -- ASCII is U+0000 to U+007F
  const bytes = /^[\u0000-\u007f]*$/.test(s)
    ? s
    : Array.from(new TextEncoder().encode(s), (b) => String.fromCharCode(b)).join("");
  return bytes.replace(/[\r\n\0]/g, " ");
}

/** Puts a generated JSON text's placeholders (`placeholder`) in: the world's ids and the nasty strings. */
export function fill(text: string, w: World): string {
  // deno-lint-ignore no-control-regex -- the placeholder's marks are control characters on purpose
  return text.replace(/\u0001([^\u0002]*)\u0002/g, (_, s) => JSON.stringify(resolve(JSON.parse(s), w)));
}

/**
 * A call's headers by (lower-case) name: checked once, by the Request they go to (a Headers object
 * checked each value again, the 10,000-character cookie too).
 */
export type HeaderMap = Map<string, string>;

/** The headers of a generated caller. */
export function headersOf(i: Input, w: World): HeaderMap {
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
export function bodyOf(b: Body, headers: HeaderMap, w: World): BodyInit | undefined {
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
export function keyOf(choice: { existing: number } | { field: string }, keys: string[]): string {
  return "field" in choice ? choice.field : keys.length ? keys[choice.existing % keys.length] : FIELDS[choice.existing];
}

/** A call built from nothing: the route's path with generated parameters, query, body and headers. */
export function freeRequest(method: string, path: string, i: Input, w: World): { req: Request; body?: BodyInit } {
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
export function mutatedRequest(
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
export function bodyText(body: BodyInit | undefined): string {
  if (typeof body === "string") return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof FormData) {
    return JSON.stringify([...body].map(([k, v]) => [k, typeof v === "string" ? v : `(a file of ${v.size} bytes)`]));
  }
  return "";
}

/** A short description of a call, for a failure report. */
export function describe(req: Request, i: Input, sent: string): string {
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
