/** Spanish texts of moderation (domain/moderation.ts). */

import type { Translation } from "../../i18n.ts";
import type { EnModeration } from "../en/moderation.ts";

export const MODERATION_ES: Translation<EnModeration> = {
  warningTitle: "Un aviso de los moderadores",
  warningOk: "Entendido",
  reviewTitle: "Tu perfil está en revisión",
  review:
    "Varios miembros denunciaron tu perfil. Hasta que un moderador lo revise, los demás miembros no lo ven. Puedes seguir usando la app.",
  sendingPaused: "El envío está en pausa hasta que un moderador revise tu cuenta.",
  spamHeld: "Este mensaje podría ser spam: ¿mostrarlo?",
  spamShow: "Mostrarlo",
  spamSecret:
    "Los chats secretos no se revisan así en busca de spam: sus textos se cifran en los dispositivos. Los límites de envío y las denuncias sí se aplican.",
  registerBlocked: "Esta dirección no se puede usar para registrarse: una cuenta con ella está suspendida o vetada.",
  kinds: { WARNING: "Aviso", SUSPENSION: "Suspensión", BAN: "Veto" },
};
