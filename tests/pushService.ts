/**
 * A push service for tests, on loopback, that speaks the protocol the app's push worker speaks:
 * RFC 8030 delivery (POST to a subscription's endpoint, `TTL` and `Urgency` headers, 201 when
 * taken), RFC 8291 payload encryption (aes128gcm, decrypted here with `http_ece`) and RFC 8292
 * VAPID (the `Authorization: vapid t=..., k=...` token verified with `jose`: ES256 by the key `k`,
 * audience this service's origin, an expiry within 24 hours, a subject).
 *
 * A subscription is made as a browser would: a P-256 key pair made with WebCrypto and a 16-byte
 * auth secret. A test scripts the service's answers per subscription (a status and headers, e.g.
 * 429 with `Retry-After`) and reads what each delivery carried, decrypted.
 */

import { Buffer } from "node:buffer";
import { createECDH, type ECDH } from "node:crypto";
import ece from "http_ece";
import { decodeProtectedHeader, importJWK, type JWTPayload, jwtVerify } from "jose";

/** What the browser hands the app for a subscription (POST /api/push-subscriptions's fields). */
export interface TestSubscription {
  endpoint: string;
  p256dh_base64: string;
  auth_base64: string;
}

/** One delivery as the service saw it: checked, decrypted, and what it answered. */
export interface Delivery {
  endpoint: string;
  status: number;
  ttl: number;
  urgency: string | null;
  contentEncoding: string | null;
  /** The VAPID token's claims (verified). */
  claims: JWTPayload;
  /** The VAPID public key the token was signed with (base64url). */
  vapidKey: string;
  /** The decrypted payload, parsed. */
  payload: Record<string, string>;
  at: number;
}

const b64url = (b: Uint8Array) => Buffer.from(b).toString("base64url");

interface Device {
  ecdh: ECDH;
  auth: Buffer;
  answers: { status: number; headers?: Record<string, string> }[];
}

/** Starts a push service on 127.0.0.1 (any free port). */
export function startPushService() {
  const devices = new Map<string, Device>();
  const deliveries: Delivery[] = [];
  const problems: string[] = [];
  let next = 0;

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const endpoint = `${origin}${url.pathname}`;
    const device = devices.get(endpoint);
    const body = new Uint8Array(await req.arrayBuffer());
    if (req.method !== "POST") return new Response(null, { status: 405 });
    if (!device) return new Response(null, { status: 404 });
    try {
      const auth = req.headers.get("authorization") ?? "";
      const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(auth);
      if (!m) throw new Error(`no VAPID authorization: ${auth}`);
      const [, token, k] = m;
      if (decodeProtectedHeader(token).alg !== "ES256") throw new Error("VAPID token not ES256");
      const raw = Buffer.from(k, "base64url");
      if (raw.length !== 65 || raw[0] !== 4) throw new Error("VAPID key is not an uncompressed P-256 point");
      const key = await importJWK({
        kty: "EC",
        crv: "P-256",
        x: b64url(raw.subarray(1, 33)),
        y: b64url(raw.subarray(33)),
      }, "ES256");
      const { payload: claims } = await jwtVerify(token, key, { audience: origin, algorithms: ["ES256"] });
      if (typeof claims.exp !== "number" || claims.exp * 1000 > Date.now() + 24 * 3_600_000 + 60_000) {
        throw new Error(`VAPID expiry missing or past 24 hours: ${claims.exp}`);
      }
      if (typeof claims.sub !== "string" || !/^(mailto:|https:)/.test(claims.sub)) {
        throw new Error(`VAPID subject is not a mailto: or https: URL: ${claims.sub}`);
      }
      const ttl = req.headers.get("ttl");
      if (ttl === null || !/^\d+$/.test(ttl)) throw new Error(`no TTL header: ${ttl}`);
      const plain = ece.decrypt(Buffer.from(body), {
        version: "aes128gcm",
        privateKey: device.ecdh,
        authSecret: device.auth,
      });
      const answer = device.answers.shift() ?? { status: 201 };
      deliveries.push({
        endpoint,
        status: answer.status,
        ttl: Number(ttl),
        urgency: req.headers.get("urgency"),
        contentEncoding: req.headers.get("content-encoding"),
        claims,
        vapidKey: k,
        payload: JSON.parse(new TextDecoder().decode(plain)),
        at: Date.now(),
      });
      return new Response(null, { status: answer.status, headers: answer.headers });
    } catch (e) {
      problems.push(e instanceof Error ? e.message : String(e));
      return new Response(null, { status: 400 });
    }
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;

  return {
    origin,
    deliveries,
    /** Requests the service refused as not following the protocol (a test expects none). */
    problems,
    /** Makes a subscription with fresh P-256 keys (WebCrypto) and a random auth secret. */
    async subscribe(): Promise<TestSubscription> {
      const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
      const publicRaw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
      const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
      const ecdh = createECDH("prime256v1");
      ecdh.setPrivateKey(Buffer.from(jwk.d!, "base64url"));
      const auth = Buffer.from(crypto.getRandomValues(new Uint8Array(16)));
      const endpoint = `${origin}/push/${++next}-${crypto.randomUUID()}`;
      devices.set(endpoint, { ecdh, auth, answers: [] });
      return { endpoint, p256dh_base64: b64url(publicRaw), auth_base64: b64url(auth) };
    },
    /** The next answers to deliveries to `endpoint`, in order (then 201). */
    answer(endpoint: string, ...answers: { status: number; headers?: Record<string, string> }[]): void {
      devices.get(endpoint)!.answers.push(...answers);
    },
    /** Deliveries to one endpoint. */
    to(endpoint: string): Delivery[] {
      return deliveries.filter((d) => d.endpoint === endpoint);
    },
    async close(): Promise<void> {
      await server.shutdown();
    },
  };
}

export type PushService = ReturnType<typeof startPushService>;
