/** The login form's behaviour (islands/LoginForm.tsx renders it): see there. */

import { api, ApiFailure } from "./queries/api.ts";
import { apiPath } from "../domain/apiPath.ts";
import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import type { Enhancement } from "./enhance.ts";
import type { LoginFormProps } from "./LoginForm.tsx";
import type { ApiAnswer } from "../domain/contract.ts";

type LoginAnswer = ApiAnswer<"POST /api/auth">;

/** Reads a login token from `#token=` or `?token=`. */
function tokenFromLocation(): string | null {
  const hash = new URLSearchParams(location.hash.slice(1)).get("token");
  return hash ?? new URLSearchParams(location.search).get("token");
}

const enhanceLoginForm: Enhancement<LoginFormProps> = (root, { texts }) => {
  const form = root.querySelector("form")!;
  const email = form.querySelector<HTMLInputElement>("input[name=username]")!;
  const password = form.querySelector<HTMLInputElement>("input[name=password]")!;
  const show = form.querySelector<HTMLInputElement>("input[data-show]")!;
  const remember = form.querySelector<HTMLInputElement>("input[data-remember]")!;
  const submitButton = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const passkeyButton = form.querySelector<HTMLButtonElement>("button.passkey-login")!;
  let errorLine: HTMLParagraphElement | undefined;

  /** Shows the error above the buttons, or none. */
  function setError(text: string) {
    if (!text) {
      errorLine?.remove();
      errorLine = undefined;
      return;
    }
    if (!errorLine) {
      errorLine = document.createElement("p");
      errorLine.className = "error";
      errorLine.setAttribute("role", "alert");
      submitButton.before(errorLine);
    }
    errorLine.textContent = text;
  }

  function setBusy(busy: boolean) {
    submitButton.disabled = busy;
    submitButton.textContent = busy ? texts.loggingIn : texts.login;
    passkeyButton.disabled = busy;
  }

  async function send(body: FormData) {
    setBusy(true);
    setError("");
    try {
      await api<LoginAnswer>(apiPath("POST /api/auth", {}), { method: "POST", form: body, isLogin: true });
      location.assign("/");
    } catch (e) {
      if (e instanceof ApiFailure) {
        setError(
          e.status === 401
            ? (body.has("token") ? e.message : texts.loginIncorrect)
            : e.status === 400 || e.status === 429 || e.status === 403
            ? e.message
            : `${e.status} ${e.statusText}`,
        );
      } else setError(String(e));
      setBusy(false);
    }
  }

  async function passkeyLogin() {
    setBusy(true);
    setError("");
    try {
      const { startAuthentication, browserSupportsWebAuthn } = await import("@simplewebauthn/browser");
      if (!browserSupportsWebAuthn()) throw new Error(texts.passkeyUnsupported);
      const { options, challengeId } = await api<
        { options: PublicKeyCredentialRequestOptionsJSON; challengeId: string }
      >(
        apiPath("POST /api/passkeys/login/options", {}),
        { method: "POST", isLogin: true },
      );
      const response = await startAuthentication({ optionsJSON: options });
      await api<LoginAnswer>(apiPath("POST /api/passkeys/login", {}), {
        method: "POST",
        json: { challengeId, response, rememberMe: remember.checked },
        isLogin: true,
      });
      location.assign("/");
    } catch (e) {
      const cancelled = e instanceof Error && e.name === "NotAllowedError";
      setError(cancelled ? texts.passkeyCancelled : e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  }

  show.addEventListener("change", () => password.type = show.checked ? "text" : "password");
  passkeyButton.addEventListener("click", () => void passkeyLogin());
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const address = email.value.trim().toLowerCase();
    if (!address || !password.value) return setError(texts.emailPasswordRequired);
    if (!address.includes("@")) return setError(texts.invalidEmail);
    const body = new FormData();
    body.set("username", address);
    body.set("password", password.value);
    body.set("rememberMe", String(remember.checked));
    void send(body);
  });

  const token = tokenFromLocation();
  if (!token) return;
  history.replaceState(null, "", "/login");
  password.value = "••••••••••••";
  const body = new FormData();
  body.set("token", token);
  body.set("rememberMe", "true");
  void send(body);
};
export default enhanceLoginForm;
