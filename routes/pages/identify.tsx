/** 3 2 1 Identify: verify yourself, judge others' selfies, and (admins) decide the disagreements. */

import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { renderPage } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import { getCredits } from "../../kv/games/credits.ts";
import { adminQueue, adminView, identifyStatus, nextJudgeItem } from "../../kv/games/identify.ts";
import { IDENTIFY_TEXTS } from "../../domain/identify.ts";
import { titleText } from "../../domain/texts.ts";
import Identify from "../../islands/Identify.tsx";

export async function identifyPage(c: Context<AppEnv>) {
  const caller = c.get("caller")!;
  const me = caller.profileId;
  const admin = caller.roles.includes("ADMIN");
  const [status, deal, credits, queue] = await Promise.all([
    identifyStatus(me),
    nextJudgeItem(me),
    getCredits(me),
    admin ? adminQueue() : Promise.resolve(null),
  ]);
  return renderPage(
    c,
    "3 2 1 Identify",
    <section className="page game-page">
      <h1>{titleText("3 2 1 Identify")}</h1>
      <p className="game-intro">{IDENTIFY_TEXTS.intro}</p>
      <Island
        of={Identify}
        props={{ status, deal, credits, ...(queue ? { queue: queue.map(adminView) } : {}) }}
      />
    </section>,
  );
}
