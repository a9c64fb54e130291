/** Spanish: every catalogue of the app (domain/i18n.ts). Neutral Spanish, "tú". */

import type { Translation } from "../../i18n.ts";
import type { EnTexts } from "../en/texts.ts";
import type { EnDiscovery } from "../en/discovery.ts";
import type { EnGames } from "../en/games.ts";
import type { EnNotifications } from "../en/notifications.ts";
import type { EnModeration } from "../en/moderation.ts";
import type { EnScreenTexts } from "../en/screenTexts.ts";
import type { EnUiTexts } from "../en/uiTexts.ts";
import type { EnFeelTexts } from "../en/feel.ts";
import type { EnVerified } from "../en/verified.ts";
import { TEXTS_ES } from "./texts.ts";
import { DISCOVERY_ES } from "./discovery.ts";
import { GAMES_ES } from "./games.ts";
import { NOTIFICATIONS_ES } from "./notifications.ts";
import { MODERATION_ES } from "./moderation.ts";
import { UI_TEXTS_ES } from "./uiTexts.ts";
import { SCREEN_TEXTS_ES } from "./screenTexts.ts";
import { VERIFIED_ES } from "./verified.ts";
import { FEEL_ES } from "./feel.ts";
import { PHRASES_ES } from "./phrases.ts";

export const TEXTS: Translation<EnTexts> = TEXTS_ES;
export const DISCOVERY_TEXTS: Translation<EnDiscovery> = DISCOVERY_ES;
export const GAME_TEXTS: Translation<EnGames> = GAMES_ES;
export const NOTIFICATION_TEXTS: Translation<EnNotifications> = NOTIFICATIONS_ES;
export const MODERATION_TEXTS: Translation<EnModeration> = MODERATION_ES;
export const UI_TEXTS: Translation<EnUiTexts> = UI_TEXTS_ES;
export const SCREEN_TEXTS: Translation<EnScreenTexts> = SCREEN_TEXTS_ES;
export const FEEL_TEXTS: Translation<EnFeelTexts> = FEEL_ES;
export const PHRASES = { phrases: PHRASES_ES };
export const VERIFIED_TEXTS: Translation<EnVerified> = VERIFIED_ES;
