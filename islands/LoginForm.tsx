/**
 * Login (spec §2, §5, §8): email and password, show password, remember me. A login link's
 * token (in the fragment, or the query for older links) signs in at once and is removed from
 * the address bar. "Log in with a passkey" asks the device for a passkey of this site (the
 * WebAuthn code loads only when pressed).
 */

import { type FormEvent, useEffect, useState } from "react";
import { api, ApiFailure } from "./queries/api.ts";
import { TEXTS } from "../domain/texts.ts";
import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { apiPath } from "../domain/apiPath.ts";

interface LoginAnswer {
  profileId: string;
  email: string;
  needsPassword: boolean;
}

/** Reads a login token from `#token=` or `?token=`. */
function tokenFromLocation(): string | null {
  const hash = new URLSearchParams(location.hash.slice(1)).get("token");
  return hash ?? new URLSearchParams(location.search).get("token");
}

export default function LoginForm() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [show, setShow] = useState(false);
  const [remember, setRemember] = useState(true);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  async function send(form: FormData) {
    setBusy(true);
    setError("");
    try {
      await api<LoginAnswer>(apiPath("POST /api/auth", {}), { method: "POST", form, isLogin: true });
      location.assign("/");
    } catch (e) {
      if (e instanceof ApiFailure) {
        setError(
          e.status === 401
            ? (form.has("token") ? e.message : TEXTS.loginIncorrect)
            : e.status === 400 || e.status === 429 || e.status === 403
            ? e.message
            : `${e.status} ${e.statusText}`,
        );
      } else setError(String(e));
      setBusy(false);
    }
  }

  useEffect(() => {
    const token = tokenFromLocation();
    if (!token) return;
    history.replaceState(null, "", "/login");
    setPassword("••••••••••••");
    const form = new FormData();
    form.set("token", token);
    form.set("rememberMe", "true");
    void send(form);
  }, []);

  async function passkeyLogin() {
    setBusy(true);
    setError("");
    try {
      const { startAuthentication, browserSupportsWebAuthn } = await import("@simplewebauthn/browser");
      if (!browserSupportsWebAuthn()) throw new Error(TEXTS.passkeyUnsupported);
      const { options, challengeId } = await api<
        { options: PublicKeyCredentialRequestOptionsJSON; challengeId: string }
      >(
        apiPath("POST /api/passkeys/login/options", {}),
        { method: "POST", isLogin: true },
      );
      const response = await startAuthentication({ optionsJSON: options });
      await api<LoginAnswer>(apiPath("POST /api/passkeys/login", {}), {
        method: "POST",
        json: { challengeId, response, rememberMe: remember },
        isLogin: true,
      });
      location.assign("/");
    } catch (e) {
      const cancelled = e instanceof Error && e.name === "NotAllowedError";
      setError(cancelled ? TEXTS.passkeyCancelled : e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const address = email.trim().toLowerCase();
    if (!address || !password) return setError(TEXTS.emailPasswordRequired);
    if (!address.includes("@")) return setError(TEXTS.invalidEmail);
    const form = new FormData();
    form.set("username", address);
    form.set("password", password);
    form.set("rememberMe", String(remember));
    void send(form);
  }

  return (
    <form className="stack narrow" onSubmit={submit} noValidate>
      <label>
        {TEXTS.email}
        <input
          type="email"
          name="username"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
        />
      </label>
      <label>
        {TEXTS.password}
        <input
          type={show ? "text" : "password"}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
        />
      </label>
      <label className="check">
        <input type="checkbox" checked={show} onChange={(e) => setShow(e.target.checked)} /> {TEXTS.showPassword}
      </label>
      <label className="check">
        <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> {TEXTS.rememberMe}
      </label>
      {error && <p className="error" role="alert">{error}</p>}
      <button type="submit" className="primary" disabled={busy}>{busy ? TEXTS.loggingIn : TEXTS.login}</button>
      <button type="button" className="passkey-login" onClick={passkeyLogin} disabled={busy}>
        {TEXTS.passkeyLogin}
      </button>
      <p className="links">
        <a href="/register">{TEXTS.needToRegister}</a> <a href="/register">{TEXTS.forgotPassword}</a>
      </p>
    </form>
  );
}
