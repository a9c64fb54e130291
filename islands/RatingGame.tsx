/**
 * The Rating Game (design.md, Community games): nearby members' public pictures in a swipe deck.
 * Right or Nice saves a picture LIKE, left or Meh a DISLIKE, down or Skip UNDETERMINED (the
 * picture likes of spec §7), through `PUT /api/games/ratinggame`, which also gives the credit for
 * a judgement: Nice or Meh earns one, a Skip only passes the picture and earns nothing.
 */

import { useState } from "react";
import { api, ApiFailure } from "./queries/api.ts";
import { swipeLikeType } from "./queries/likes.ts";
import { useCardSwipe } from "./useSwipe.ts";
import { useShowsNsfw } from "./useShowsNsfw.ts";
import { SwipeButtons } from "../components/SwipeButtons.tsx";
import { BriefPicture } from "../components/BriefPicture.tsx";
import { shortName } from "../domain/format.ts";
import { DISCOVERY_TEXTS, swipeStamp } from "../domain/discovery.ts";
import { phrase } from "../domain/phrases.ts";
import { GAME_TEXTS } from "../domain/games.ts";
import { apiPath } from "../domain/apiPath.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import type { RatingCard } from "../domain/shapes/games.ts";
import { BackToGames } from "../components/BackToGames.tsx";

export interface RatingGameProps {
  deck: RatingCard[];
  credits: number;
}

export default function RatingGame(props: RatingGameProps) {
  const [deck, setDeck] = useState(props.deck);
  const [credits, setCredits] = useState(props.credits);
  const [error, setError] = useState("");
  const [announce, setAnnounce] = useState("");
  const [refilling, setRefilling] = useState(false);
  const nsfw = useShowsNsfw();
  const top = deck[0];

  const refill = async () => {
    setRefilling(true);
    try {
      const r = await api<{ items: RatingCard[]; credits: number }>(apiPath("GET /api/games/ratinggame/deck", {}));
      setDeck(r.items);
      setCredits(r.credits);
    } catch {
      setError(GAME_TEXTS.loadFailed);
    } finally {
      setRefilling(false);
    }
  };

  const { swipe, handlers, look, leaving } = useCardSwipe(
    top?.picId,
    (direction, picId) => {
      const likeType = swipeLikeType(direction);
      if (likeType === "ERROR") return false;
      setError("");
      api<{ credits: number }>(apiPath("PUT /api/games/ratinggame", {}), {
        method: "PUT",
        json: { profilePicId: picId, profilePicProfileId: top!.profileId, likeType },
      }).then((r) => setCredits(r.credits)).catch((e) =>
        setError(e instanceof ApiFailure && e.status < 500 ? e.message : GAME_TEXTS.saveFailed)
      );
      setAnnounce(direction === "down" ? phrase("Skipped") : swipeStamp(direction));
      return true;
    },
    (picId) => setDeck((d) => d.filter((c) => c.picId !== picId)),
  );

  return (
    <div className="game rating-game swipe">
      <p className="game-credits" aria-live="polite">{GAME_TEXTS.credits(credits)}</p>
      <div className="deck" aria-label={UI_TEXTS.picturesToRate}>
        {deck[1] && (
          <div key={deck[1].picId} className="swipe-card behind" aria-hidden="true">
            <BriefPicture picId={deck[1].picId} name={deck[1].profileName} scale={512} nsfw={nsfw} eager />
          </div>
        )}
        {top && (
          <div key={top.picId} className="swipe-card" style={look?.style} data-pic-id={top.picId} {...handlers}>
            <BriefPicture picId={top.picId} name={top.profileName} scale={512} nsfw={nsfw} eager />
            {look?.stamp && (
              <span className={`stamp stamp-${look.stamp}`} style={{ opacity: look.stampOpacity }} aria-hidden="true">
                {swipeStamp(look.stamp)}
              </span>
            )}
            <div className="swipe-card-info">
              <h2>{shortName(top.profileName)}</h2>
            </div>
          </div>
        )}
        {!top && (
          <div className="deck-end">
            <p>{GAME_TEXTS.ratingEmpty}</p>
            <button type="button" onClick={refill} disabled={refilling}>{UI_TEXTS.lookAgain}</button>
          </div>
        )}
      </div>
      <SwipeButtons onSwipe={swipe} disabled={!top || !!leaving} />
      {error && <p className="error" role="alert">{error}</p>}
      <p className="visually-hidden" role="status">{announce}</p>
      <p className="swipe-hint">{DISCOVERY_TEXTS.swipeHint}</p>
      <BackToGames />
    </div>
  );
}
