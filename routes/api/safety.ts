/**
 * Safety where being gay is a crime, and discreet mode (kv/safety.ts, domain/safety.ts):
 *   GET /api/safety → {atRisk, country, noticeSeen, showToEveryone, discreet}
 *   PUT /api/safety {showToEveryone?, discreet?, noticeSeen?: true}
 * Discreet mode belongs to the device (what its tabs, history and home screen show), so it is a
 * cookie, not an account setting. Turning "show me to everyone" on or off applies at the member's
 * next position report.
 */

import { Hono } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../env.ts";
import { bodyOf } from "../validate.ts";
import { isSecureContext, requireCaller } from "../middleware.ts";
import { DISCREET_COOKIE, isDiscreet } from "../device.ts";
import { getSafety, safetyPlace, setSafety } from "../../kv/safety.ts";
import { answer } from "../answer.ts";

export const safety = new Hono<AppEnv>()
  .get("/safety", async (c) => {
    const caller = requireCaller(c);
    const [place, settings] = await Promise.all([safetyPlace(caller.profileId), getSafety(caller.profileId)]);
    return answer(c, "GET /api/safety", {
      ...place,
      noticeSeen: settings.noticeSeen,
      showToEveryone: settings.showToEveryone,
      discreet: isDiscreet(c),
    });
  })
  .put("/safety", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "PUT /api/safety");
    const { discreet, ...change } = body;
    const settings = await setSafety(caller.profileId, change);
    if (discreet === true) {
      setCookie(c, DISCREET_COOKIE, "1", {
        path: "/",
        sameSite: "Lax",
        secure: isSecureContext(c),
        maxAge: 400 * 24 * 3600,
      });
    } else if (discreet === false) deleteCookie(c, DISCREET_COOKIE, { path: "/", secure: isSecureContext(c) });
    const place = await safetyPlace(caller.profileId);
    return answer(c, "PUT /api/safety", {
      ...place,
      noticeSeen: settings.noticeSeen,
      showToEveryone: settings.showToEveryone,
      discreet: discreet ?? isDiscreet(c),
    });
  });
