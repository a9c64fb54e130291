/** The community games: the cards with the member's volunteer credits, and the games themselves. */

import type { Context } from "hono";
import type { ReactElement } from "react";
import type { AppEnv } from "../env.ts";
import { renderPage, titledPage } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import { Cards, GAME_CARDS } from "../../components/Cards.tsx";
import { GAME_TEXTS } from "../../domain/games.ts";
import { REPORT_REASONS, reportReasonLabel, titleText } from "../../domain/texts.ts";
import { getCredits, volunteerStatus } from "../../kv/games/credits.ts";
import { listGptFlagged, nextGptItem } from "../../kv/games/gptBuster.ts";
import { ratingDeck } from "../../kv/games/ratingGame.ts";
import { listReportCases, nextArbItem } from "../../kv/games/arbitration.ts";
import { listCropSuggestions, nextCropItem } from "../../kv/games/helpPhotos.ts";
import PhotoCrop from "../../islands/PhotoCrop.tsx";
import AdminReports from "../../islands/AdminReports.tsx";
import GptBuster from "../../islands/GptBuster.tsx";
import RatingGame from "../../islands/RatingGame.tsx";
import Arbitration from "../../islands/Arbitration.tsx";
import { UI_TEXTS } from "../../domain/uiTexts.ts";
import type { VolunteerStatus } from "../../domain/shapes/games.ts";
import { profileUrl } from "../../domain/format.ts";

/** Where the caller stands toward the volunteer role: until when they are one, or how far to go. */
function VolunteerStanding({ status, storedRole }: { status: VolunteerStatus; storedRole: boolean }) {
  const line = status.volunteerUntil !== null
    ? GAME_TEXTS.volunteerUntil(status.volunteerUntil)
    : storedRole
    ? GAME_TEXTS.volunteerStanding
    : GAME_TEXTS.volunteerProgress(status.recentCredits, status.toGo);
  const volunteer = status.volunteerUntil !== null || storedRole;
  return (
    <section className={`volunteer${volunteer ? " is-volunteer" : ""}`} aria-label={GAME_TEXTS.volunteerProgressLabel}>
      <p className="volunteer-status">{line}</p>
      {!volunteer && (
        <progress
          className="volunteer-progress"
          max={status.threshold}
          value={Math.min(status.recentCredits, status.threshold)}
          aria-label={GAME_TEXTS.volunteerProgressLabel}
        />
      )}
      <p className="volunteer-how">
        {GAME_TEXTS.volunteerHow} <a href="/billing">{GAME_TEXTS.membershipLink}</a>
      </p>
      <p className="volunteer-how">{GAME_TEXTS.creditsNote}</p>
    </section>
  );
}

/**
 * /games: the game cards, the caller's volunteer credits (a standard member starts at 0), and
 * their standing toward the volunteer role (credits of the last 30 days, or until when).
 */
export async function gamesPage(c: Context<AppEnv>) {
  const caller = c.get("caller")!;
  const status = await volunteerStatus(caller.profileId, caller.accountId);
  // A VOLUNTEER role an admin stored (not earned) has no end date.
  const storedRole = caller.roles.includes("VOLUNTEER") && status.volunteerUntil === null;
  return titledPage(
    c,
    "Community",
    <>
      <p>{UI_TEXTS.gamesIntro}</p>
      <p className="game-credits" title={GAME_TEXTS.creditsNote}>{GAME_TEXTS.credits(status.credits)}</p>
      <VolunteerStanding status={status} storedRole={storedRole} />
      <Cards items={GAME_CARDS} />
    </>,
  );
}

function gameShell(c: Context<AppEnv>, title: string, intro: string, island: ReactElement, admin?: ReactElement) {
  return renderPage(
    c,
    title,
    <section className="page game-page">
      <h1>{titleText(title)}</h1>
      <p className="game-intro">{intro}</p>
      {island}
      {admin}
    </section>,
  );
}

const isAdmin = (c: Context<AppEnv>) => !!c.get("caller")?.roles.includes("ADMIN");

/** For admins under GPT Buster: the profiles the community flagged (no script needed). */
async function flaggedList() {
  const items = await listGptFlagged();
  return (
    <section className="admin-flagged" aria-labelledby="admin-flagged-title">
      <h2 id="admin-flagged-title">{GAME_TEXTS.adminFlagged}</h2>
      {items.length === 0 ? <p className="game-empty">{GAME_TEXTS.adminNoFlagged}</p> : (
        <ul>
          {items.map((f) => (
            <li key={f.profileId}>
              <a href={profileUrl(f.profileId)}>{f.profileName}</a>{" "}
              <span className="tally-legend">
                <span>{GAME_TEXTS.human}: {f.human}</span> <span>{GAME_TEXTS.machine}: {f.machine}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export async function gptBusterPage(c: Context<AppEnv>) {
  const me = c.get("caller")!.profileId;
  const [item, credits] = await Promise.all([nextGptItem(me), getCredits(me)]);
  return gameShell(
    c,
    "GPT Buster",
    GAME_TEXTS.gptIntro,
    <Island of={GptBuster} props={{ item, credits }} />,
    isAdmin(c) ? await flaggedList() : undefined,
  );
}

export async function ratingGamePage(c: Context<AppEnv>) {
  const me = c.get("caller")!.profileId;
  const [deck, credits] = await Promise.all([ratingDeck(me), getCredits(me)]);
  return gameShell(c, "The Rating Game", GAME_TEXTS.ratingIntro, <Island of={RatingGame} props={{ deck, credits }} />);
}

export async function arbitrationPage(c: Context<AppEnv>) {
  const me = c.get("caller")!.profileId;
  const [item, credits] = await Promise.all([nextArbItem(me), getCredits(me)]);
  const reasons = Object.fromEntries(REPORT_REASONS.map((r) => [r.id, reportReasonLabel(r.id)]));
  const admin = isAdmin(c)
    ? <Island of={AdminReports} props={{ items: await listReportCases(), reasons }} />
    : undefined;
  return gameShell(
    c,
    "Community Arbitration",
    GAME_TEXTS.arbIntro,
    <Island of={Arbitration} props={{ item, credits, reasons }} />,
    admin,
  );
}

export async function photoCropPage(c: Context<AppEnv>) {
  const me = c.get("caller")!.profileId;
  const [item, credits, mine] = await Promise.all([nextCropItem(me), getCredits(me), listCropSuggestions(me)]);
  // The owner never learns who suggested a crop.
  const suggestions = mine.map(({ suggesterProfileId: _, ownerProfileId: _o, gen: _g, ...s }) => s);
  return gameShell(
    c,
    "Help my Photos",
    GAME_TEXTS.cropIntro,
    <Island of={PhotoCrop} props={{ item, credits, suggestions }} />,
  );
}
