/**
 * Texts written inline in islands until issue 13 part 5 moved them here, in the three languages
 * (domain/i18n.ts). English is byte-identical to what the islands wrote before.
 */

import { catalogue } from "./i18n.ts";
import * as es from "./locales/es.ts";
import * as ptBR from "./locales/ptBR.ts";
import { EN_UI_TEXTS } from "./locales/en/uiTexts.ts";

export const UI_TEXTS = catalogue("UI_TEXTS", EN_UI_TEXTS, { es: es.UI_TEXTS, "pt-BR": ptBR.UI_TEXTS });
