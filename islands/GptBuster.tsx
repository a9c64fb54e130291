/**
 * GPT Buster (design.md, Community games): a nearby member's profile text, judged 'Human' or
 * 'Machine or fake'. After a vote the community tally of that profile shows, then the next one.
 * Every vote earns a volunteer credit (at most 20 a day).
 */

import { useVoteRounds } from "./useVoteRounds.ts";
import { GameMemberHead, NextRound, VerdictButtons, YouSaid } from "../components/GameRound.tsx";
import { GAME_TEXTS } from "../domain/games.ts";
import { apiPath } from "../domain/apiPath.ts";
import type { GptItem, GptTally, GptVerdict } from "../domain/shapes/games.ts";
import { BackToGames } from "../components/BackToGames.tsx";

export interface GptBusterProps {
  item: GptItem | null;
  credits: number;
}

function TallyBar({ tally, mine }: { tally: GptTally; mine: GptVerdict }) {
  const total = tally.human + tally.machine;
  const human = Math.round((tally.human / total) * 100);
  return (
    <div className="game-tally" role="status">
      <YouSaid said={mine === "HUMAN" ? GAME_TEXTS.human : GAME_TEXTS.machine} />
      <div className="tally-bar" aria-hidden="true">
        <span className="tally-yes" style={{ width: `${human}%` }} />
        <span className="tally-no" style={{ width: `${100 - human}%` }} />
      </div>
      <p className="tally-legend">
        <span>{GAME_TEXTS.human}: {tally.human}</span>
        <span>{GAME_TEXTS.machine}: {tally.machine}</span>
      </p>
    </div>
  );
}

export default function GptBuster(props: GptBusterProps) {
  const { item, credits, result: round, busy, error, vote, next } = useVoteRounds<
    GptItem,
    GptVerdict,
    { tally: GptTally; credits: number }
  >({
    item: props.item,
    credits: props.credits,
    nextPath: apiPath("GET /api/games/gptbuster/next", {}),
    votePath: (it) => apiPath("PUT /api/games/gptbuster/:profileId", { profileId: it.profileId }),
  });
  const result = round && { tally: round.answer.tally, mine: round.mine };

  return (
    <div className="game gpt-buster">
      <p className="game-credits" aria-live="polite">{GAME_TEXTS.credits(credits)}</p>
      {!item
        ? <p className="game-empty">{GAME_TEXTS.gptEmpty}</p>
        : (
          <article className="game-card" data-profile-id={item.profileId}>
            <GameMemberHead
              profileId={item.profileId}
              name={item.profileName}
              picId={item.picId}
              age={item.profileAge}
            />
            <blockquote className="game-text">{item.description}</blockquote>
          </article>
        )}
      {item && !result && (
        <VerdictButtons
          busy={busy}
          verdicts={[
            { label: GAME_TEXTS.human, className: "vote-yes", vote: () => vote("HUMAN") },
            { label: GAME_TEXTS.machine, className: "vote-no", vote: () => vote("MACHINE") },
          ]}
        />
      )}
      {result && (
        <>
          <TallyBar tally={result.tally} mine={result.mine} />
          <NextRound label={GAME_TEXTS.nextProfile} busy={busy} next={next} />
        </>
      )}
      {error && <p className="error" role="alert">{error}</p>}
      <BackToGames />
    </div>
  );
}
