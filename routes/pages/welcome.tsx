/**
 * Onboarding: /welcome, the four steps a new member goes through after their first
 * login, before the grid (islands/Onboarding.tsx). While a member has a step, home and the
 * discovery pages lead here; once done, /welcome leads to the grid. POST /welcome keeps the step
 * reached (a form field `step`: a step, or "done" with the point chosen on the last step).
 */

import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { renderPage } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import Onboarding from "../../islands/Onboarding.tsx";
import { loadProfileView } from "../../kv/profileViews.ts";
import * as z from "zod";
import { getOwnPosition, knownLocation } from "../../kv/positions/mod.ts";
import { saveOwnPosition } from "../ownPosition.ts";
import { ApiError, errorBody } from "../errors.ts";
import { randomDefaultPoint } from "../../domain/defaultPlace.ts";
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

/** The point a member chose on the last step, as POST /welcome "done" may carry it (form fields). */
const decimal = (min: number, max: number) =>
  z.string().trim().regex(/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/).transform(Number).pipe(
    z.number().min(min).max(max),
  );
const finishPoint = z.object({
  lat: decimal(-90, 90),
  lon: decimal(-180, 180),
  use: z.enum(["OVERRIDE", "DEVICE_GPS"]).default("OVERRIDE"),
  hide: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
});

/**
 * Keeps the step reached. "done" ends onboarding with the member in discovery: the point chosen on
 * the last step (`lat`, `lon`, `use`, `hide`, when given) is saved first, in the same request, so
 * a Finish tapped before the location reporter's own report went out loses nothing; without a
 * point and without a valid position, the member is placed at a random point near the default
 * city (as the reporter would have). Only once the position is saved is onboarding marked done:
 * a failed save answers an error and the member stays on the last step, to try again.
 */
export async function onboardingStep(c: Context<AppEnv>) {
  const caller = c.get("caller");
  if (!caller) return c.json(errorBody("unauthorized", "Please log in."), 401);
  const form = await c.req.parseBody();
  const step = form.step;
  if (step !== "done" && !isOnboardingStep(step)) return c.json(errorBody("bad_request", "Unknown step."), 400);
  if (step === "done") {
    const given = form.lat !== undefined || form.lon !== undefined;
    const point = finishPoint.safeParse(form);
    if (given && !point.success) {
      return c.json(
        errorBody("bad_request", "lat and lon must be a point on the globe (use: OVERRIDE or DEVICE_GPS)."),
        400,
      );
    }
    try {
      if (point.success) {
        const { lat, lon, use, hide } = point.data;
        await saveOwnPosition(caller.accountId, caller.profileId, { lat, lon, use, hide, gpsTimestamp: null });
      } else if (!(await getOwnPosition(caller.profileId))) {
        await saveOwnPosition(caller.accountId, caller.profileId, {
          ...randomDefaultPoint(),
          use: "OVERRIDE",
          hide: false,
          gpsTimestamp: null,
        });
      }
    } catch (e) {
      if (e instanceof ApiError) return c.json(errorBody(e.code, e.message), e.status);
      throw e;
    }
  }
  await setOnboarding(caller.accountId, step === "done" ? null : step);
  return c.body(null, 204);
}
