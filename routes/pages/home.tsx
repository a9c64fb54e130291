/** Home (/): cards for visitors or members, the NSFW toggle and the development banner. */

import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { renderPage } from "./render.tsx";
import { Cards, HOME_CARDS, HOME_CARDS_LOGGED_OUT } from "../../components/Cards.tsx";
import { Island } from "../../components/Island.tsx";
import { TEXTS, titleText } from "../../domain/texts.ts";
import NsfwToggle from "../../islands/NsfwToggle.tsx";

export function homePage(c: Context<AppEnv>) {
  const caller = c.get("caller");
  return renderPage(
    c,
    "Home",
    <>
      <p className="banner" role="note">{TEXTS.underDevelopment}</p>
      {!caller && c.req.query("deleted") === "1" && <p className="notice" role="status">{TEXTS.accountDeleted}</p>}
      <h1 className="visually-hidden">{titleText("Home")}</h1>
      {caller && !caller.hasPassword && (
        <p className="notice">
          {TEXTS.linkLoginNotice} <a href="/settings">{TEXTS.setPasswordLink}</a>.
        </p>
      )}
      <Cards items={caller ? HOME_CARDS : HOME_CARDS_LOGGED_OUT} />
      {caller && (
        <div className="row center">
          <Island of={NsfwToggle} props={{}} />
        </div>
      )}
    </>,
  );
}
