/** Spanish texts of the games (domain/games.ts). */

import type { Translation } from "../../i18n.ts";
import type { EnGames } from "../en/games.ts";
import { HEALTH_ES } from "./health.ts";
import { HOT_OR_NOT_ES } from "./hotOrNot.ts";
import { formatDay, VOLUNTEER_CREDITS, VOLUNTEER_ROLE_DAYS, VOLUNTEER_WINDOW_DAYS } from "../../volunteer.ts";

export const GAMES_ES: Translation<EnGames> = {
  credits: (n: number) => `Créditos de voluntario: ${n}`,
  creditsNote:
    "Un juicio real da un crédito: Guay o Meh, un voto, o un recorte que su dueño usó. Saltar no da nada. Como máximo 20 al día.",
  volunteerUntil: (ts: number) => `Voluntario hasta el ${formatDay(ts)}. ¡Gracias por ayudar!`,
  volunteerStanding: "Eres voluntario. ¡Gracias por ayudar!",
  volunteerProgress: (recent: number, toGo: number) =>
    `${recent} ${
      recent === 1 ? "crédito" : "créditos"
    } en los últimos ${VOLUNTEER_WINDOW_DAYS} días: te faltan ${toGo} para ser voluntario.`,
  get volunteerHow() {
    return `Gana ${VOLUNTEER_CREDITS} créditos en ${VOLUNTEER_WINDOW_DAYS} días y serás voluntario durante ${VOLUNTEER_ROLE_DAYS} días: como los miembros Pro, los voluntarios no tienen límites diarios. Cada crédito mientras sigas en ${VOLUNTEER_CREDITS} o más lo mantiene.`;
  },
  volunteerProgressLabel: "Créditos para el rol de voluntario",
  membershipLink: "Membresía: Pro y voluntarios",
  human: "Humano",
  machine: "Máquina o falso",
  communitySays: "La comunidad hasta ahora:",
  nextProfile: "Siguiente perfil",
  gptIntro: "¿Este texto de perfil lo escribió una persona real, o una máquina o un perfil falso?",
  gptEmpty: "No quedan textos de perfil por juzgar cerca de ti. Vuelve más tarde.",
  ratingIntro: "Valora fotos de miembros cercanos: Guay, Meh o Saltar. Guay y Meh dan un crédito; Saltar no da nada.",
  ratingEmpty: "No quedan fotos por valorar cerca de ti. Vuelve más tarde.",
  arbIntro:
    "Un miembro denunció este perfil. Lee la denuncia y el perfil, y di si incumple las normas. Al final decide un administrador.",
  arbEmpty: "No hay denuncias abiertas para ti ahora mismo. ¡Gracias por ayudar!",
  violation: "Infracción",
  noViolation: "Sin infracción",
  reportReason: "Motivo",
  reportText: "Lo que escribió quien denunció",
  reportedProfile: "El perfil denunciado",
  noText: "(sin texto)",
  nextReport: "Siguiente denuncia",
  cropIntro:
    "Sugiere un mejor recorte de retrato para la foto de un miembro. Su dueño decide si lo usa; ganas un crédito cuando lo hace.",
  cropHelp: "Ayuda a un miembro",
  cropForYou: "Recortes sugeridos para tus fotos",
  cropYourPicture: "Tu foto con el recorte sugerido",
  cropAccept: "Usar este recorte",
  cropDismiss: "Descartar",
  cropAccepted: "Hecho: tu foto ahora usa este recorte.",
  cropDismissed: "Descartado.",
  cropSize: "Tamaño",
  cropLeftRight: "Izquierda / derecha",
  cropUpDown: "Arriba / abajo",
  cropSuggest: "Sugerir este recorte",
  cropSkip: "Saltar",
  cropSent: "¡Gracias! Tu sugerencia se envió. Ganas un crédito si el dueño la usa.",
  cropEmpty: "Ninguna foto cerca de ti necesita ayuda ahora. Vuelve más tarde.",
  adminReports: "Denuncias (administradores)",
  adminNoReports: "No hay denuncias.",
  adminConfirm: "Confirmar infracción",
  adminDismiss: "Descartar",
  adminFlagged: "Perfiles señalados (administradores)",
  adminNoFlagged: "No hay perfiles señalados.",
  saveFailed: "No se pudo guardar tu voto. Inténtalo de nuevo.",
  loadFailed: "No se pudo cargar el siguiente. Inténtalo de nuevo.",
  backToGames: "Volver a los juegos",
  health: HEALTH_ES,
  hotOrNot: HOT_OR_NOT_ES,
};
