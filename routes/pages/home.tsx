/**
 * Home (/): cards for visitors or members, the NSFW toggle and the development banner. A member
 * meets people first: who is around (online now first, nearest first) leads, above the cards. The
 * banner and the login-link notice are dismissed once: a member's dismissal is kept on their
 * account (every device of theirs), a visitor's in a cookie on this device.
 */

import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../env.ts";
import { renderPage } from "./render.tsx";
import { Cards, HOME_CARDS, HOME_CARDS_LOGGED_OUT } from "../../components/Cards.tsx";
import { Island } from "../../components/Island.tsx";
import { BriefPicture } from "../../components/BriefPicture.tsx";
import { OnlineDot } from "../../components/OnlineDot.tsx";
import { VerifiedBadge } from "../../components/VerifiedBadge.tsx";
import { TEXTS, titleText } from "../../domain/texts.ts";
import { FEEL_TEXTS } from "../../domain/feelTexts.ts";
import { profileUrl, shortName } from "../../domain/format.ts";
import NsfwToggle from "../../islands/NsfwToggle.tsx";
import { profileBriefs } from "../../kv/briefs.ts";
import type { ProfileBrief } from "../../domain/shapes/briefs.ts";
import { presenceOf } from "../../kv/presence.ts";
import { isSecureContext } from "../middleware.ts";
import { isDiscreet } from "../device.ts";
import { type Dismissable, dismissNotice, getAccount } from "../../kv/accounts.ts";

/** The cookie that keeps the banner dismissed on this device (a visitor's; a member's is on the account). */
const BANNER_COOKIE = "banner";
/** `/?dismiss=` values: the notice each dismisses. */
const DISMISS_QUERY: Record<string, Dismissable> = { banner: "banner", "link-login": "link-login" };
/** How many members home shows, and how many nearest it picks them from. */
const AROUND_SHOWN = 12, AROUND_READ = 30;

/** Who is around the member: online now first, then the nearest, each group nearest first. */
async function whoIsAround(profileId: string): Promise<{ brief: ProfileBrief; online: boolean }[]> {
  const page = await profileBriefs(profileId, { kind: "nearest" }, { size: AROUND_READ });
  const presence = await presenceOf(profileId, page.items.map((b) => b.profileId));
  const all = page.items.map((brief) => ({ brief, online: !!presence[brief.profileId]?.online }));
  return [...all.filter((a) => a.online), ...all.filter((a) => !a.online)].slice(0, AROUND_SHOWN);
}

function Around({ people }: { people: { brief: ProfileBrief; online: boolean }[] }) {
  return (
    <section className="around" aria-labelledby="around-title">
      <div className="around-head">
        <h2 id="around-title">{FEEL_TEXTS.whoIsAround}</h2>
        {people.length > 0 && <a href="/search/tile">{FEEL_TEXTS.seeEveryone}</a>}
      </div>
      {people.length === 0
        ? (
          <div className="empty-state">
            <p>{FEEL_TEXTS.nobodyAroundYet}</p>
            <a className="button primary" href="/search/map">{FEEL_TEXTS.openMap}</a>
          </div>
        )
        : (
          <ul className="around-list">
            {people.map(({ brief: b, online }, i) => (
              <li key={b.profileId}>
                <a href={profileUrl(b.profileId)}>
                  <span className="avatar">
                    <BriefPicture
                      picId={b.profilePicIds[0]}
                      name={b.profileName}
                      scale={256}
                      nsfw={false}
                      eager={i < 6}
                    />
                  </span>
                  <span className="around-name badged">
                    <OnlineDot online={online} />
                    <span className="name-cut">{shortName(b.profileName)}</span>
                    {b.verified && <VerifiedBadge />}
                  </span>
                </a>
              </li>
            ))}
          </ul>
        )}
    </section>
  );
}

export async function homePage(c: Context<AppEnv>) {
  const caller = c.get("caller");
  // Dismissing a notice: kept on the member's account and for this device, then home again without the query.
  const dismiss = c.req.query("banner") === "dismiss" ? "banner" : DISMISS_QUERY[c.req.query("dismiss") ?? ""];
  if (dismiss) {
    if (caller) await dismissNotice(caller.accountId, dismiss);
    if (dismiss === "banner") {
      setCookie(c, BANNER_COOKIE, "dismissed", {
        path: "/",
        sameSite: "Lax",
        secure: isSecureContext(c),
        maxAge: 400 * 24 * 3600,
      });
    }
    return c.redirect("/", 303);
  }
  const dismissed = caller ? (await getAccount(caller.accountId))?.dismissed ?? [] : [];
  const bannerShown = getCookie(c, BANNER_COOKIE) !== "dismissed" && !dismissed.includes("banner");
  const linkLoginShown = !!caller && !caller.hasPassword && !dismissed.includes("link-login");
  const people = caller ? await whoIsAround(caller.profileId) : null;
  return renderPage(
    c,
    "Home",
    <>
      {bannerShown && (
        <p className="banner" role="note">
          <span>{TEXTS.underDevelopment}</span>
          <a
            className="banner-dismiss"
            href="/?dismiss=banner"
            aria-label={FEEL_TEXTS.dismiss}
            title={FEEL_TEXTS.dismiss}
          >
            ×
          </a>
        </p>
      )}
      {!caller && c.req.query("deleted") === "1" && <p className="notice" role="status">{TEXTS.accountDeleted}</p>}
      <h1 className="visually-hidden">{titleText("Home")}</h1>
      {linkLoginShown && (
        <p className="banner notice-link-login" role="note">
          <span>
            {TEXTS.linkLoginNotice} <a href="/settings">{TEXTS.setPasswordLink}</a>.
          </span>
          <a
            className="banner-dismiss"
            href="/?dismiss=link-login"
            aria-label={FEEL_TEXTS.dismiss}
            title={FEEL_TEXTS.dismiss}
          >
            ×
          </a>
        </p>
      )}
      {people && <Around people={people} />}
      <Cards items={caller ? HOME_CARDS : HOME_CARDS_LOGGED_OUT} discreet={isDiscreet(c)} />
      {caller && (
        <div className="row center">
          <Island of={NsfwToggle} props={{}} />
        </div>
      )}
    </>,
  );
}
