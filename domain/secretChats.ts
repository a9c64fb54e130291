/**
 * Texts of secret chats (end-to-end encrypted conversations, docs/secret-chats.md). The
 * notification's text says only that a secret message came: it may show on a lock screen.
 */

import { catalogue } from "./i18n.ts";
import { EN_SECRET } from "./locales/en/secretChats.ts";
import { SECRET_TEXTS as es } from "./locales/es/secretChats.ts";
import { SECRET_TEXTS as ptBR } from "./locales/ptBR/secretChats.ts";
import { SECRET_TEXTS as fr } from "./locales/fr/secretChats.ts";
import { SECRET_TEXTS as ar } from "./locales/ar/secretChats.ts";

export const SECRET_TEXTS = catalogue("SECRET_TEXTS", EN_SECRET, { es, "pt-BR": ptBR, fr, ar });

/** A device keeps at most this many unused key packages on the server. */
export const KEY_PACKAGE_STOCK = 20;
