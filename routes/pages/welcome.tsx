/**
 * Onboarding: /welcome, the four steps a new member goes through after their first
 * login, before the grid (islands/Onboarding.tsx). While a member has a step, home and the
 * discovery pages lead here; once done, /welcome leads to the grid. POST /welcome keeps the step
 * reached (a form field `step`: a step, or "done").
 */

import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { renderPage } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import Onboarding from "../../islands/Onboarding.tsx";
import { loadProfileView } from "../../kv/profileViews.ts";
import { knownLocation } from "../../kv/positions.ts";
import { setOnboarding } from "../../kv/accounts.ts";
import { isOnboardingStep } from "../../domain/onboarding.ts";
import { SCREEN_TEXTS } from "../../domain/screenTexts.ts";

/** Pages a member with onboarding still to do is sent from to /welcome: home and the discovery screens. */
export function leadsToOnboarding(path: string): boolean {
  return path === "/" || path.startsWith("/search/");
}

export async function onboardingPage(c: Context<AppEnv>) {
  const caller = c.get("caller");
  if (!caller) return c.redirect("/login", 302);
  if (!caller.onboarding) return c.redirect("/search/tile", 302);
  const profile = (await loadProfileView(caller.profileId, caller.profileId))!;
  return renderPage(
    c,
    SCREEN_TEXTS.welcomeTitle,
    <section className="page narrow-page onboarding-page">
      <Island
        of={Onboarding}
        props={{ step: caller.onboarding, profile, known: await knownLocation(caller.profileId) }}
      />
    </section>,
    { tabs: false },
  );
}

export async function onboardingStep(c: Context<AppEnv>) {
  const caller = c.get("caller");
  if (!caller) return c.json({ error: { code: "unauthorized", message: "Please log in." } }, 401);
  const step = (await c.req.parseBody()).step;
  if (step !== "done" && !isOnboardingStep(step)) {
    return c.json({ error: { code: "bad_request", message: "Unknown step." } }, 400);
  }
  await setOnboarding(caller.accountId, step === "done" ? null : step);
  return c.body(null, 204);
}
