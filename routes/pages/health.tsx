/** The Health Incident Report and You got Cooties pages (kv/healthNotices.ts). */

import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { titledPage } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import { GAME_TEXTS } from "../../domain/games.ts";
import { healthCounts, listHealthNotices, oldEnough, reportsLeft } from "../../kv/healthNotices.ts";
import HealthReport from "../../islands/HealthReport.tsx";
import Cooties from "../../islands/Cooties.tsx";

/** /games/healthreport: the report; admins see the totals below it (counts only, never a member). */
export async function healthReportPage(c: Context<AppEnv>) {
  const caller = c.get("caller")!;
  const remaining = await reportsLeft(caller.profileId);
  const counts = caller.roles.includes("ADMIN") ? await healthCounts() : null;
  return titledPage(
    c,
    "Health Incident Report",
    <>
      <p className="game-intro">{GAME_TEXTS.health.reportIntro}</p>
      <Island of={HealthReport} props={{ remaining, tooNew: !oldEnough(caller.accountCreated) }} />
      {counts && (
        <section className="admin-health" aria-labelledby="admin-health-title">
          <h2 id="admin-health-title">{GAME_TEXTS.health.adminTitle}</h2>
          <p>{GAME_TEXTS.health.adminCounts(counts.reports, counts.notices, counts.pending, counts.abuse)}</p>
        </section>
      )}
    </>,
    "page game-page",
  );
}

/** /games/cooties: the caller's health notices, never who sent them. */
export async function cootiesPage(c: Context<AppEnv>) {
  const me = c.get("caller")!.profileId;
  const items = await listHealthNotices(me);
  return titledPage(
    c,
    "You got Cooties",
    <>
      <p className="game-intro">{GAME_TEXTS.health.cootiesIntro}</p>
      <Island of={Cooties} props={{ items }} />
    </>,
    "page game-page",
  );
}
