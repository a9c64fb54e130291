/** Spanish texts of notifications (domain/notifications.ts). */

import type { Translation } from "../../i18n.ts";
import type { EnNotifications } from "../en/notifications.ts";

export const NOTIFICATIONS_ES: Translation<EnNotifications> = {
  messages: (n: number) => n <= 1 ? "Tienes un mensaje nuevo." : `Tienes ${n} mensajes nuevos.`,
  profileLiked: "A alguien le gustó tu perfil.",
  picLiked: "A alguien le gustó tu foto.",
  cropSuggested: "Alguien sugirió un recorte para tu foto.",
  healthNotice: "Un aviso de salud para ti.",
  neutral: "Tienes una nota nueva.",
  secretMessage: "Nuevo mensaje secreto",
  dungeonThirdStay: "Un miembro empezó una tercera pausa en 90 días.",
  reportWaited: "Un reporte lleva 48 horas esperando una decisión.",
  dungeonStay1:
    "Estás en pausa durante 24 horas: sin primeros mensajes, me gusta ni publicaciones en el Chat del mapa. La Mazmorra te dice por qué y cómo acortarla.",
  dungeonStay2:
    "Estás en pausa durante 3 días: sin primeros mensajes, me gusta ni publicaciones en el Chat del mapa. La Mazmorra te dice por qué y cómo acortarla.",
  dungeonStay3:
    "Estás en pausa durante 7 días: sin primeros mensajes, me gusta ni publicaciones en el Chat del mapa. La Mazmorra te dice por qué y cómo acortarla.",
};
