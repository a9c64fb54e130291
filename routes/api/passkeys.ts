/**
 * Passkeys (WebAuthn, with @simplewebauthn/server): a member adds passkeys in Account settings,
 * lists and removes them, and logs in with one on /login. User verification is required, the
 * signature counter is checked, and every challenge is single use for 5 minutes. Adding a passkey
 * adds a way in that outlives a password change, so it needs the member to confirm who they are
 * first, as a new password does (routes/reauth.ts).
 *
 *   POST   /api/passkeys/register/options   (member)  {currentPassword?} → creation options
 *   POST   /api/passkeys/register           (member)  {response, name?} → the passkey
 *   GET    /api/passkeys                    (member)  → the member's passkeys
 *   DELETE /api/passkeys/{id}               (member)
 *   POST   /api/passkeys/login/options      (anyone)  → {options, challengeId}
 *   POST   /api/passkeys/login              (anyone)  {challengeId, response, rememberMe?} → as POST /api/auth
 */

import { type Context, Hono } from "hono";
import { Buffer } from "node:buffer";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { AppEnv } from "../env.ts";
import { badRequest, conflict, notFound, tooMany, unauthorized } from "../errors.ts";
import { bodyOf, credentialIdSchema, idParam } from "../validate.ts";
import { clientAddress, requireCaller } from "../middleware.ts";
import { logIn } from "../login.ts";
import { requireReauth } from "../reauth.ts";
import { config } from "../../config/config.ts";
import { deviceOf } from "../../domain/device.ts";
import { TEXTS } from "../../domain/texts.ts";
import { getAccount } from "../../kv/accounts.ts";
import { randomToken } from "../../kv/ids.ts";
import { hit } from "../../kv/ratelimit.ts";
import {
  addPasskey,
  deletePasskey,
  getPasskey,
  listPasskeys,
  MAX_PASSKEYS,
  type Passkey,
  putChallenge,
  takeChallenge,
  usePasskey,
} from "../../kv/passkeys.ts";
import { answer } from "../answer.ts";
import { firstUse } from "../../domain/firstUse.ts";

/**
 * The WebAuthn library, loaded at the first passkey call rather than with the app (domain/firstUse.ts,
 * outside the calling request's context): it brings hundreds of certificate-parsing modules that
 * every process (and every test file) would otherwise load and resolve at start, for calls most
 * processes never get.
 */
const webauthn = firstUse(() => import("@simplewebauthn/server"));

/** The relying party: this app's public origin and its host name (the passkey is bound to it). */
function relyingParty(c: Context<AppEnv>): { origin: string; rpID: string; rpName: string } {
  const origin = config.publicOrigin ?? new URL(c.req.url).origin;
  return { origin, rpID: new URL(origin).hostname, rpName: c.get("brand").name };
}

/** What a browser's passkey answer must match: the challenge we sent, this site, a verified member. */
function expected(c: Context<AppEnv>, challenge: string) {
  const rp = relyingParty(c);
  return {
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    requireUserVerification: true,
  };
}

/** What the member sees of a passkey (never the key). */
const viewOf = (p: Passkey) => ({
  id: p.id,
  name: p.name,
  backedUp: p.backedUp,
  tsCreated: p.tsCreated,
  lastUsed: p.lastUsed,
});

export const passkeys = new Hono<AppEnv>()
  .get("/passkeys", async (c) => {
    const caller = requireCaller(c);
    return answer(c, "GET /api/passkeys", (await listPasskeys(caller.accountId)).map(viewOf));
  })
  .post("/passkeys/register/options", async (c) => {
    const caller = requireCaller(c);
    await requireReauth(caller, (await bodyOf(c, "POST /api/passkeys/register/options")).currentPassword);
    const existing = await listPasskeys(caller.accountId);
    if (existing.length >= MAX_PASSKEYS) throw conflict(`At most ${MAX_PASSKEYS} passkeys.`, "too_many_passkeys");
    const rp = relyingParty(c);
    const options = await (await webauthn.load()).generateRegistrationOptions({
      rpName: rp.rpName,
      rpID: rp.rpID,
      userName: caller.email,
      userDisplayName: caller.name || caller.email,
      userID: new TextEncoder().encode(caller.accountId),
      attestationType: "none",
      excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
    });
    await putChallenge(`register-${caller.sessionId}`, {
      challenge: options.challenge,
      purpose: "register",
      accountId: caller.accountId,
    });
    return answer(c, "POST /api/passkeys/register/options", { ...options });
  })
  .post("/passkeys/register", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "POST /api/passkeys/register");
    const waiting = await takeChallenge(`register-${caller.sessionId}`);
    if (!waiting || waiting.accountId !== caller.accountId) throw badRequest(TEXTS.passkeyExpired, "no_challenge");
    const result = await (await webauthn.load()).verifyRegistrationResponse({
      response: body.response as unknown as RegistrationResponseJSON,
      ...expected(c, waiting.challenge),
    }).catch(() => null);
    if (!result?.verified) throw badRequest(TEXTS.passkeyNotVerified, "not_verified");
    const { credential, credentialDeviceType, credentialBackedUp } = result.registrationInfo;
    const stored = await addPasskey({
      id: credential.id,
      accountId: caller.accountId,
      publicKey: Buffer.from(credential.publicKey).toString("base64url"),
      counter: credential.counter,
      transports: credential.transports ?? [],
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
      name: body.name || deviceOf(c.req.header("user-agent") ?? "") || "Passkey",
    });
    if (!stored) throw conflict("This passkey is already registered.", "passkey_exists");
    return answer(c, "POST /api/passkeys/register", viewOf((await getPasskey(credential.id))!));
  })
  .delete("/passkeys/:id", async (c) => {
    const caller = requireCaller(c);
    const id = idParam(c, "id", credentialIdSchema);
    if (!(await deletePasskey(caller.accountId, id))) throw notFound("No such passkey.");
    return answer(c, "DELETE /api/passkeys/:id", { ok: true });
  })
  .post("/passkeys/login/options", async (c) => {
    if (!(await hit("loginByAddress", clientAddress(c)))) throw tooMany();
    const rp = relyingParty(c);
    // No allowCredentials: the authenticator offers the passkeys it holds for this site.
    const options = await (await webauthn.load()).generateAuthenticationOptions({
      rpID: rp.rpID,
      userVerification: "required",
    });
    const challengeId = randomToken(18);
    await putChallenge(`login-${challengeId}`, { challenge: options.challenge, purpose: "login" });
    return answer(c, "POST /api/passkeys/login/options", { options: { ...options }, challengeId });
  })
  .post("/passkeys/login", async (c) => {
    const body = await bodyOf(c, "POST /api/passkeys/login");
    if (!(await hit("loginByAddress", clientAddress(c)))) throw tooMany();
    const waiting = await takeChallenge(`login-${body.challengeId}`);
    if (!waiting || waiting.purpose !== "login") throw unauthorized(TEXTS.passkeyExpired);
    const passkey = await getPasskey(body.response.id);
    if (!passkey) throw unauthorized(TEXTS.passkeyUnknown);
    const result = await (await webauthn.load()).verifyAuthenticationResponse({
      response: body.response as unknown as AuthenticationResponseJSON,
      ...expected(c, waiting.challenge),
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, "base64url")),
        counter: passkey.counter,
        transports: passkey.transports,
      },
    }).catch(() => null);
    if (!result?.verified) throw unauthorized(TEXTS.passkeyNotVerified);
    // A counter that did not move past the stored one (when the authenticator counts) is a cloned key.
    if (!(await usePasskey(passkey.id, passkey.counter, result.authenticationInfo.newCounter))) {
      throw unauthorized(TEXTS.passkeyNotVerified);
    }
    const account = await getAccount(passkey.accountId);
    if (!account) throw unauthorized(TEXTS.passkeyUnknown);
    await logIn(c, account, body.rememberMe ?? false, "passkey");
    return answer(c, "POST /api/passkeys/login", {
      profileId: account.defaultProfileId,
      email: account.email,
      needsPassword: !account.passwordHash,
    });
  });
