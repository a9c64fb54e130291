/** Brazilian Portuguese: every catalogue of the app (domain/i18n.ts), "você". */

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
import { TEXTS_PT_BR } from "./texts.ts";
import { DISCOVERY_PT_BR } from "./discovery.ts";
import { GAMES_PT_BR } from "./games.ts";
import { NOTIFICATIONS_PT_BR } from "./notifications.ts";
import { MODERATION_PT_BR } from "./moderation.ts";
import { UI_TEXTS_PT_BR } from "./uiTexts.ts";
import { SCREEN_TEXTS_PT_BR } from "./screenTexts.ts";
import { VERIFIED_PT_BR } from "./verified.ts";
import { FEEL_PT_BR } from "./feel.ts";
import { PHRASES_PT_BR } from "./phrases.ts";

export const TEXTS: Translation<EnTexts> = TEXTS_PT_BR;
export const DISCOVERY_TEXTS: Translation<EnDiscovery> = DISCOVERY_PT_BR;
export const GAME_TEXTS: Translation<EnGames> = GAMES_PT_BR;
export const NOTIFICATION_TEXTS: Translation<EnNotifications> = NOTIFICATIONS_PT_BR;
export const MODERATION_TEXTS: Translation<EnModeration> = MODERATION_PT_BR;
export const UI_TEXTS: Translation<EnUiTexts> = UI_TEXTS_PT_BR;
export const SCREEN_TEXTS: Translation<EnScreenTexts> = SCREEN_TEXTS_PT_BR;
export const FEEL_TEXTS: Translation<EnFeelTexts> = FEEL_PT_BR;
export const PHRASES = { phrases: PHRASES_PT_BR };
export const VERIFIED_TEXTS: Translation<EnVerified> = VERIFIED_PT_BR;
