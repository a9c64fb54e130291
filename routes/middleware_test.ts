import assert from "node:assert/strict";
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { securityHeaders } from "./middleware.ts";
import { livePort, setLivePort } from "./livePort.ts";
import { SPECULATION_RULES_HASH } from "./speculation.ts";
import { AFTER_PICTURES_HASH } from "./afterPictures.ts";

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

const ours = new Hono().use(securityHeaders()).get("/", (c) => c.json({ ok: true }, 200, { "x-powered-by": "x" }));
const reference = new Hono().use(honoReference()).get("/", (c) => c.json({ ok: true }, 200, { "x-powered-by": "x" }));

Deno.test("securityHeaders - the same headers, in the same words, as before they were worked out once (with and without a live port)", async () => {
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
