/**
 * /games/dungeon: how the dungeon works and how many members serve a time-out now (a count, never
 * who), and, for a member serving one, their reform card with the quiz and the appeal. Admins see
 * the stays in force and the appeals waiting below.
 */

import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { renderPage } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import { dungeonAdminList, dungeonView } from "../../kv/games/dungeon.ts";
import { DUNGEON_TEXTS, itemsOf } from "../../domain/dungeon.ts";
import { titleText } from "../../domain/texts.ts";
import Dungeon from "../../islands/Dungeon.tsx";

export async function dungeonPage(c: Context<AppEnv>) {
  const caller = c.get("caller")!;
  const admin = caller.roles.includes("ADMIN");
  const [view, items] = await Promise.all([
    dungeonView(caller.profileId),
    admin ? dungeonAdminList() : Promise.resolve(null),
  ]);
  const T = DUNGEON_TEXTS;
  return renderPage(
    c,
    "Bad Boy Dungeon",
    <section className="page game-page dungeon-page">
      <h1>{titleText("Bad Boy Dungeon")}</h1>
      <p className="game-intro">{T.intro}</p>
      <p className="game-credits dungeon-serving" role="status">{T.serving(view.serving)}</p>
      <Island of={Dungeon} props={{ card: view.card, ...(items ? { admin: items } : {}) }} />
      <section className="game-card dungeon-how" aria-labelledby="dungeon-how-title">
        <h2 id="dungeon-how-title">{T.howTitle}</h2>
        <ol>
          {itemsOf(T.how).map((line, i) => <li key={i}>{line}</li>)}
        </ol>
      </section>
      <p className="game-back">
        <a href="/games">{titleText("Community")}</a>
      </p>
    </section>,
  );
}
