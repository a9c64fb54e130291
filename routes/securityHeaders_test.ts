import assert from "node:assert/strict";
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { JSON_SECURITY_HEADERS, securityHeaderList, securityHeaders } from "./securityHeaders.ts";
import { livePort, setLivePort } from "./livePort.ts";
import { SPECULATION_RULES_HASH } from "./speculation.ts";
import { AFTER_PICTURES_HASH } from "./afterPictures.ts";
import { ORIGIN, testApp } from "../tests/api.ts";
import { isJson } from "./bodylimit.ts";

/** The headers design.md asks for, as Hono's `secureHeaders()` gave them with the app's options. */
function honoReference() {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", SPECULATION_RULES_HASH, AFTER_PICTURES_HASH],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "blob:"],
      connectSrc: ["'self'", () => {
        const port = livePort();
        return port === null ? "" : `ws://*:${port} wss://*:${port}`;
      }],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      workerSrc: ["'self'"],
      manifestSrc: ["'self'"],
    },
    strictTransportSecurity: "max-age=63072000; includeSubDomains",
    xContentTypeOptions: "nosniff",
    referrerPolicy: "no-referrer",
    xFrameOptions: "DENY",
    crossOriginResourcePolicy: "same-origin",
    crossOriginOpenerPolicy: "same-origin",
  });
}

/** A JSON answer's security headers, exactly (decision 0294), by lower-case name. */
const JSON_SET: Record<string, string> = {
  "content-security-policy": "default-src 'none'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'",
  "cross-origin-resource-policy": "same-origin",
  "referrer-policy": "no-referrer",
  "strict-transport-security": "max-age=63072000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
};

/** Every security header either set names (the full set's names include the JSON set's). */
const SECURITY_NAMES = securityHeaderList(null).map(([name]) => name.toLowerCase());

/** The security headers of an answer, by lower-case name. */
function securityOf(headers: Headers): Record<string, string> {
  return Object.fromEntries([...headers].filter(([name]) => SECURITY_NAMES.includes(name)));
}

/** The full set of a page (and of any answer but JSON), by lower-case name. */
function fullSet(): Record<string, string> {
  return Object.fromEntries(securityHeaderList(livePort()).map(([name, value]) => [name.toLowerCase(), value]));
}

const ours = new Hono().use(securityHeaders())
  .get("/", (c) => c.html("<p>hi</p>", 200, { "x-powered-by": "x" }))
  .get("/json", (c) => c.json({ ok: true }, 200, { "x-powered-by": "x" }));
const reference = new Hono().use(honoReference()).get("/", (c) => c.html("<p>hi</p>", 200, { "x-powered-by": "x" }));

Deno.test("securityHeaders - a page's: the same headers, in the same words, as Hono's secureHeaders() with the app's options (with and without a live port)", async () => {
  try {
    for (const port of [null, 8443, null]) {
      setLivePort(port);
      const [a, b] = await Promise.all([ours.request("/"), reference.request("/")]);
      assert.deepEqual([...a.headers], [...b.headers], `live port ${port}`);
      assert.equal(a.headers.get("x-powered-by"), null);
      assert.match(
        a.headers.get("content-security-policy")!,
        port ? /connect-src 'self' ws:\/\/\*:8443 / : /connect-src 'self' ;/,
      );
    }
  } finally {
    setLivePort(null);
  }
});

Deno.test("securityHeaders - a JSON answer's: exactly CSP (nothing allowed, never framed), HSTS, nosniff, no referrer, X-Frame-Options DENY, CORP", async () => {
  const r = await ours.request("/json");
  assert.deepEqual(securityOf(r.headers), JSON_SET);
  assert.equal(r.headers.get("x-powered-by"), null);
  assert.deepEqual(await r.json(), { ok: true });
  // The JSON set is the full set's headers but the document-only ones, with a stricter policy.
  const full = fullSet();
  for (const [name, value] of JSON_SECURITY_HEADERS) {
    if (name !== "Content-Security-Policy") assert.equal(full[name.toLowerCase()], value, name);
  }
});

Deno.test("securityHeaders - what counts as a JSON answer is its type", () => {
  for (const type of ["application/json", "application/json; charset=UTF-8", "Application/JSON;charset=utf-8"]) {
    assert.ok(isJson(type), type);
  }
  for (
    const type of [null, "", "text/html; charset=UTF-8", "application/manifest+json", "application/jsonx", "text/json"]
  ) {
    assert.ok(!isJson(type), String(type));
  }
});

Deno.test("securityHeaders - the app: JSON answers (signed in, errors, compressed) get the JSON set; pages, HTML error pages, an HTML page under /api/ and static files the full set", async () => {
  const t = await testApp();
  try {
    const { cookie } = await t.member();
    const json = [
      await t.call("GET", "/api/ping", { cookie }),
      await t.call("GET", "/api/ping"),
      // An error answer in the one error shape.
      await t.call("GET", "/api/nothing/here", { cookie }),
      await t.call("GET", "/api/profile-note?profileId=x"),
      // Compressed (its headers copied onto the compressed answer): the kit's call would read its bytes as text.
      await t.app.request(`${ORIGIN}/api/openapi.json`, { headers: { "accept-encoding": "br" } }),
    ];
    assert.equal(json[4].headers.get("content-encoding"), "br");
    for (const r of json) {
      assert.match(r.headers.get("content-type")!, /^application\/json/);
      assert.deepEqual(securityOf(r.headers), JSON_SET, `${r.status} ${r.headers.get("content-type")}`);
    }
    const full = fullSet();
    const others = [
      await t.call("GET", "/aboutus"),
      await t.call("GET", "/aboutus", { cookie }),
      // The HTML error page of a path that is no page.
      await t.call("GET", "/no/such/page"),
      // HTML under /api/: the API's reference.
      await t.call("GET", "/api/docs"),
      await t.call("GET", "/static/icon.svg"),
      await t.call("GET", "/static/manifest.webmanifest"),
    ];
    assert.equal(others[2].status, 404);
    for (const r of others) {
      assert.doesNotMatch(r.headers.get("content-type") ?? "", /^application\/json/);
      assert.deepEqual(securityOf(r.headers), full, `${r.status} ${r.headers.get("content-type")}`);
    }
  } finally {
    t.close();
  }
});
