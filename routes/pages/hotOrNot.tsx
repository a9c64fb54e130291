/** Hot or Not: vote on pairs of an anonymous member's pictures; test your own and read the private result. */

import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { renderPage } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import { GAME_TEXTS } from "../../domain/games.ts";
import { titleText } from "../../domain/texts.ts";
import { hotOrNotState } from "../../kv/games/hotOrNot.ts";
import HotOrNot from "../../islands/HotOrNot.tsx";

export async function hotOrNotPage(c: Context<AppEnv>) {
  const state = await hotOrNotState(c.get("caller")!.profileId);
  return renderPage(
    c,
    "Hot or Not",
    <section className="page game-page">
      <h1>{titleText("Hot or Not")}</h1>
      <p className="game-intro">{GAME_TEXTS.hotOrNot.intro}</p>
      <Island of={HotOrNot} props={{ state }} />
    </section>,
  );
}
