/**
 * Community Arbitration (design.md, Community games): an open report (reason, the reporter's
 * text, the reported profile's public text) judged 'Violation' or 'No violation', once. The
 * reporter and the reported member never see it. An admin confirms or dismisses in the end.
 */

import { useVoteRounds } from "./useVoteRounds.ts";
import { BriefPicture } from "../components/BriefPicture.tsx";
import { profileUrl, shortName } from "../domain/format.ts";
import { GAME_TEXTS } from "../domain/games.ts";
import { apiPath } from "../domain/apiPath.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import type { ArbItem, ArbVerdict } from "../domain/shapes/games.ts";
import type { ArbCase } from "../domain/shapes/moderation.ts";
import { BackToGames } from "../components/BackToGames.tsx";

export interface ArbitrationProps {
  item: ArbItem | null;
  credits: number;
  /** Report reason ids to their labels. */
  reasons: Record<string, string>;
}

export default function Arbitration(props: ArbitrationProps) {
  const { item, credits, result: round, busy, error, vote, next } = useVoteRounds<
    ArbItem,
    ArbVerdict,
    { case: ArbCase; credits: number }
  >({
    item: props.item,
    credits: props.credits,
    nextPath: apiPath("GET /api/games/arbitration/next", {}),
    votePath: (it) => apiPath("PUT /api/games/arbitration/:reportId", { reportId: it.report.id }),
  });
  const result = round && { case: round.answer.case, mine: round.mine };

  return (
    <div className="game arbitration">
      <p className="game-credits" aria-live="polite">{GAME_TEXTS.credits(credits)}</p>
      {!item
        ? <p className="game-empty">{GAME_TEXTS.arbEmpty}</p>
        : (
          <article className="game-card" data-report-id={item.report.id}>
            <dl className="arb-report">
              <dt>{GAME_TEXTS.reportReason}</dt>
              <dd>{props.reasons[item.report.reason] ?? item.report.reason}</dd>
              <dt>{GAME_TEXTS.reportText}</dt>
              <dd className="game-text">{item.report.text || GAME_TEXTS.noText}</dd>
            </dl>
            <h2 className="arb-reported">{GAME_TEXTS.reportedProfile}</h2>
            <header className="game-card-head">
              <span className="game-avatar">
                <BriefPicture
                  picId={item.reported.picId ?? undefined}
                  name={item.reported.profileName}
                  scale={256}
                  nsfw={false}
                />
              </span>
              <a href={profileUrl(item.reported.profileId)}>
                {shortName(item.reported.profileName)}
              </a>
            </header>
            <blockquote className="game-text">{item.reported.description || GAME_TEXTS.noText}</blockquote>
          </article>
        )}
      {item && !result && (
        <div className="game-buttons">
          <button type="button" className="vote-no" disabled={busy} onClick={() => vote("VIOLATION")}>
            {GAME_TEXTS.violation}
          </button>
          <button type="button" className="vote-yes" disabled={busy} onClick={() => vote("NO_VIOLATION")}>
            {GAME_TEXTS.noViolation}
          </button>
        </div>
      )}
      {result && (
        <>
          <div className="game-tally" role="status">
            <p>
              {UI_TEXTS.youSaid}{" "}
              <strong>{result.mine === "VIOLATION" ? GAME_TEXTS.violation : GAME_TEXTS.noViolation}</strong>.{" "}
              {GAME_TEXTS.communitySays}
            </p>
            <p className="tally-legend">
              <span>{GAME_TEXTS.violation}: {result.case.violation}</span>
              <span>{GAME_TEXTS.noViolation}: {result.case.noViolation}</span>
            </p>
          </div>
          <div className="game-buttons">
            <button type="button" className="primary" disabled={busy} onClick={next} autoFocus>
              {GAME_TEXTS.nextReport}
            </button>
          </div>
        </>
      )}
      {error && <p className="error" role="alert">{error}</p>}
      <BackToGames />
    </div>
  );
}
