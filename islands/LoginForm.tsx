/**
 * Login (spec §2, §5, §8): email and password, show password, remember me. A login link's
 * token (in the fragment, or the query for older links) signs in at once and is removed from
 * the address bar. "Log in with a passkey" asks the device for a passkey of this site (the
 * WebAuthn code loads only when pressed). The form is plain HTML; its behaviour is a small script
 * without React (islands/LoginForm.enhance.ts), so the login page loads no React.
 */

import { TEXTS } from "../domain/texts.ts";

/** The texts the script shows, in the member's language (the server reads the catalogue). */
export interface LoginFormProps {
  texts: {
    loginIncorrect: string;
    emailPasswordRequired: string;
    invalidEmail: string;
    passkeyUnsupported: string;
    passkeyCancelled: string;
    login: string;
    loggingIn: string;
  };
}

/** The props of the login form, from the catalogue. */
export function loginFormProps(): LoginFormProps {
  const {
    loginIncorrect,
    emailPasswordRequired,
    invalidEmail,
    passkeyUnsupported,
    passkeyCancelled,
    login,
    loggingIn,
  } = TEXTS;
  return {
    texts: {
      loginIncorrect,
      emailPasswordRequired,
      invalidEmail,
      passkeyUnsupported,
      passkeyCancelled,
      login,
      loggingIn,
    },
  };
}

export default function LoginForm(_: LoginFormProps) {
  return (
    <form className="stack narrow" noValidate>
      <label>
        {TEXTS.email}
        <input type="email" name="username" autoComplete="username" required />
      </label>
      <label>
        {TEXTS.password}
        <input type="password" name="password" autoComplete="current-password" required />
      </label>
      <label className="check">
        <input type="checkbox" data-show="" /> {TEXTS.showPassword}
      </label>
      <label className="check">
        <input type="checkbox" data-remember="" defaultChecked /> {TEXTS.rememberMe}
      </label>
      <button type="submit" className="primary">{TEXTS.login}</button>
      <button type="button" className="passkey-login">
        {TEXTS.passkeyLogin}
      </button>
      <p className="links">
        <a href="/register">{TEXTS.needToRegister}</a> <a href="/register">{TEXTS.forgotPassword}</a>
      </p>
    </form>
  );
}
