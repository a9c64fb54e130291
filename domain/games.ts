/** Texts and volunteer rules of the community games (the spec shows none; design.md describes the games). */

import { catalogue } from "./i18n.ts";
import * as es from "./locales/es/mod.ts";
import * as ptBR from "./locales/ptBR/mod.ts";
import * as fr from "./locales/fr/mod.ts";
import * as ar from "./locales/ar/mod.ts";
import { EN_GAMES } from "./locales/en/games.ts";

export { formatDay, VOLUNTEER_CREDITS, VOLUNTEER_ROLE_DAYS, VOLUNTEER_WINDOW_DAYS } from "./volunteer.ts";

export const GAME_TEXTS = catalogue("GAME_TEXTS", EN_GAMES, {
  es: es.GAME_TEXTS,
  "pt-BR": ptBR.GAME_TEXTS,
  fr: fr.GAME_TEXTS,
  ar: ar.GAME_TEXTS,
});
