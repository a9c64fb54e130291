/**
 * Arabic: every catalogue of the app (domain/i18n.ts). Modern Standard Arabic, addressing the
 * member in the masculine singular as apps commonly do; counts through plural() (six forms).
 */

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
import { TEXTS_AR } from "./texts.ts";
import { DISCOVERY_AR } from "./discovery.ts";
import { GAMES_AR } from "./games.ts";
import { NOTIFICATIONS_AR } from "./notifications.ts";
import { MODERATION_AR } from "./moderation.ts";
import { UI_TEXTS_AR } from "./uiTexts.ts";
import { SCREEN_TEXTS_AR } from "./screenTexts.ts";
import { VERIFIED_AR } from "./verified.ts";
import { FEEL_AR } from "./feel.ts";
import { PHRASES_AR } from "./phrases.ts";

export const TEXTS: Translation<EnTexts> = TEXTS_AR;
export const DISCOVERY_TEXTS: Translation<EnDiscovery> = DISCOVERY_AR;
export const GAME_TEXTS: Translation<EnGames> = GAMES_AR;
export const NOTIFICATION_TEXTS: Translation<EnNotifications> = NOTIFICATIONS_AR;
export const MODERATION_TEXTS: Translation<EnModeration> = MODERATION_AR;
export const UI_TEXTS: Translation<EnUiTexts> = UI_TEXTS_AR;
export const SCREEN_TEXTS: Translation<EnScreenTexts> = SCREEN_TEXTS_AR;
export const PHRASES = { phrases: PHRASES_AR };
export const FEEL_TEXTS: Translation<EnFeelTexts> = FEEL_AR;
export const VERIFIED_TEXTS: Translation<EnVerified> = VERIFIED_AR;
