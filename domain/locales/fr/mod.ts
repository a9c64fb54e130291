/** French: every catalogue of the app (domain/i18n.ts). "Tu", as members speak to each other. */

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
import { TEXTS_FR } from "./texts.ts";
import { DISCOVERY_FR } from "./discovery.ts";
import { GAMES_FR } from "./games.ts";
import { NOTIFICATIONS_FR } from "./notifications.ts";
import { MODERATION_FR } from "./moderation.ts";
import { UI_TEXTS_FR } from "./uiTexts.ts";
import { SCREEN_TEXTS_FR } from "./screenTexts.ts";
import { VERIFIED_FR } from "./verified.ts";
import { FEEL_FR } from "./feel.ts";
import { PHRASES_FR } from "./phrases.ts";

export const TEXTS: Translation<EnTexts> = TEXTS_FR;
export const DISCOVERY_TEXTS: Translation<EnDiscovery> = DISCOVERY_FR;
export const GAME_TEXTS: Translation<EnGames> = GAMES_FR;
export const NOTIFICATION_TEXTS: Translation<EnNotifications> = NOTIFICATIONS_FR;
export const MODERATION_TEXTS: Translation<EnModeration> = MODERATION_FR;
export const UI_TEXTS: Translation<EnUiTexts> = UI_TEXTS_FR;
export const SCREEN_TEXTS: Translation<EnScreenTexts> = SCREEN_TEXTS_FR;
export const PHRASES = { phrases: PHRASES_FR };
export const FEEL_TEXTS: Translation<EnFeelTexts> = FEEL_FR;
export const VERIFIED_TEXTS: Translation<EnVerified> = VERIFIED_FR;
