/** Login, Register / Recover Login and Logout pages. */

import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { renderPage, titledPage } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import { TEXTS, titleText } from "../../domain/texts.ts";
import LoginForm, { loginFormProps } from "../../islands/LoginForm.tsx";
import RegisterForm, { registerFormProps } from "../../islands/RegisterForm.tsx";
import Logout from "../../islands/Logout.tsx";
import { UI_TEXTS } from "../../domain/uiTexts.ts";

export function loginPage(c: Context<AppEnv>) {
  return titledPage(
    c,
    "Login",
    <Island of={LoginForm} props={loginFormProps()} />,
  );
}

export function registerPage(c: Context<AppEnv>) {
  return renderPage(
    c,
    TEXTS.registerTitle,
    <section className="page">
      <h1>{TEXTS.registerTitle}</h1>
      <p className="narrow">
        {UI_TEXTS.registerIntro}
      </p>
      <Island of={RegisterForm} props={registerFormProps()} />
    </section>,
  );
}

export function logoutPage(c: Context<AppEnv>) {
  return renderPage(
    c,
    "Logout",
    <section className="page">
      <h1>{titleText("Logout")}</h1>
      <Island of={Logout} props={{}} />
    </section>,
    { tabs: false },
  );
}
