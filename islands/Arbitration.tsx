/**
 * Community Arbitration (design.md, Community games): an open report (reason, the reporter's
 * text, the reported profile's public text) judged 'Violation' or 'No violation', once. The
 * reporter and the reported member never see it. An admin confirms or dismisses in the end.
 */

import { useVoteRounds } from "./useVoteRounds.ts";
import { GameMemberHead, NextRound, VerdictButtons, YouSaid } from "../components/GameRound.tsx";
import { GAME_TEXTS } from "../domain/games.ts";
import { apiPath } from "../domain/apiPath.ts";
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
            <GameMemberHead
              profileId={item.reported.profileId}
              name={item.reported.profileName}
              picId={item.reported.picId}
            />
            <blockquote className="game-text">{item.reported.description || GAME_TEXTS.noText}</blockquote>
          </article>
        )}
      {item && !result && (
        <VerdictButtons
          busy={busy}
          verdicts={[
            { label: GAME_TEXTS.violation, className: "vote-no", vote: () => vote("VIOLATION") },
            { label: GAME_TEXTS.noViolation, className: "vote-yes", vote: () => vote("NO_VIOLATION") },
          ]}
        />
      )}
      {result && (
        <>
          <div className="game-tally" role="status">
            <YouSaid said={result.mine === "VIOLATION" ? GAME_TEXTS.violation : GAME_TEXTS.noViolation} />
            <p className="tally-legend">
              <span>{GAME_TEXTS.violation}: {result.case.violation}</span>
              <span>{GAME_TEXTS.noViolation}: {result.case.noViolation}</span>
            </p>
          </div>
          <NextRound label={GAME_TEXTS.nextReport} busy={busy} next={next} />
        </>
      )}
      {error && <p className="error" role="alert">{error}</p>}
      <BackToGames />
    </div>
  );
}
