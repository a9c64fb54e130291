/** The link back to the games list under every game's screen. */

import { GAME_TEXTS } from "../domain/games.ts";

export function BackToGames() {
  return (
    <p className="game-back">
      <a href="/games">{GAME_TEXTS.backToGames}</a>
    </p>
  );
}
