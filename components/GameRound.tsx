/**
 * The parts of a vote round that the judging games share (GPT Buster, Community Arbitration):
 * the judged member's head, the two verdict buttons, what I said beside the community's tally,
 * and the button to the next round.
 */

import { BriefPicture } from "./BriefPicture.tsx";
import { profileUrl, shortName } from "../domain/format.ts";
import { GAME_TEXTS } from "../domain/games.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";

/** The judged member: their picture and name (and age, when the game shows it), linking to their profile. */
export function GameMemberHead(
  { profileId, name, picId, age }: { profileId: string; name: string; picId: string | null; age?: number | null },
) {
  return (
    <header className="game-card-head">
      <span className="game-avatar">
        <BriefPicture picId={picId ?? undefined} name={name} scale={256} nsfw={false} />
      </span>
      <a href={profileUrl(profileId)}>
        {shortName(name)}
        {age !== undefined && age !== null && <span className="muted">, {age}</span>}
      </a>
    </header>
  );
}

/** A verdict the member may give: its label, its button's look and what it sends. */
export interface Verdict {
  label: string;
  className: "vote-yes" | "vote-no";
  vote: () => void;
}

/** The round's verdict buttons, in the game's order. */
export function VerdictButtons({ verdicts, busy }: { verdicts: Verdict[]; busy: boolean }) {
  return (
    <div className="game-buttons">
      {verdicts.map((v) => (
        <button key={v.label} type="button" className={v.className} disabled={busy} onClick={v.vote}>
          {v.label}
        </button>
      ))}
    </div>
  );
}

/** "You said …. The community says:" above a game's tally. */
export function YouSaid({ said }: { said: string }) {
  return (
    <p>
      {UI_TEXTS.youSaid} <strong>{said}</strong>. {GAME_TEXTS.communitySays}
    </p>
  );
}

/** The button to the next round, focused once the tally shows. */
export function NextRound({ label, busy, next }: { label: string; busy: boolean; next: () => void }) {
  return (
    <div className="game-buttons">
      <button type="button" className="primary" disabled={busy} onClick={next} autoFocus>
        {label}
      </button>
    </div>
  );
}
