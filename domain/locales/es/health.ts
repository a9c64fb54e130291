/** The Health Incident Report's texts in Spanish (GAME_TEXTS.health), apart so other languages do not load them. */

import type { Translation } from "../../i18n.ts";
import type { EnHealth } from "../en/health.ts";
import { formatDay } from "../../volunteer.ts";

export const HEALTH_ES: Translation<EnHealth> = {
  conditions: {
    SYPHILIS: "Sífilis",
    GONORRHOEA: "Gonorrea",
    CHLAMYDIA: "Clamidia",
    HIV: "VIH",
    HEPATITIS_A: "Hepatitis A",
    HEPATITIS_B: "Hepatitis B",
    HEPATITIS_C: "Hepatitis C",
    MPOX: "Mpox (viruela del mono)",
    OTHER: "Otra infección",
  },
  advice: {
    SYPHILIS:
      "Hazte un análisis de sangre de sífilis, aunque no tengas síntomas como una llaga indolora o un sarpullido. El tratamiento es sencillo, normalmente una inyección de penicilina. Un análisis poco después del contacto puede salir negativo: repítelo si tu clínica lo aconseja.",
    GONORRHOEA:
      "Hazte la prueba: un análisis de orina y frotis de garganta y recto, según el sexo que tuviste. A menudo no da síntomas. Se trata con antibióticos, normalmente una inyección.",
    CHLAMYDIA:
      "Hazte la prueba: un análisis de orina y frotis de garganta y recto, según el sexo que tuviste. A menudo no da síntomas. Se trata con antibióticos.",
    HIV:
      "Hazte la prueba del VIH. Si el contacto pudo ser en las últimas 72 horas, ve ya a una clínica de salud sexual o a urgencias y pide la PEP (profilaxis posexposición). Repite la prueba tras el periodo ventana que te indique tu clínica.",
    HEPATITIS_A:
      "Pregunta en una clínica o a tu médico por la vacuna de la hepatitis A: puesta en las dos semanas siguientes al contacto puede evitar la enfermedad. Atento a fiebre, cansancio, orina oscura o piel u ojos amarillos.",
    HEPATITIS_B:
      "Hazte un análisis de sangre de hepatitis B. Si no estás vacunado, pregunta enseguida por la vacuna y la inmunoglobulina: en los días siguientes al contacto pueden evitar la infección.",
    HEPATITIS_C:
      "Hazte un análisis de sangre de hepatitis C (anticuerpos, y una prueba viral si tu clínica lo aconseja). Los tratamientos actuales curan a casi todo el mundo.",
    MPOX:
      "Vigila fiebre, ganglios inflamados, sarpullido o llagas durante los 21 días tras el contacto. Pregunta en una clínica por la vacuna de la mpox: en los cuatro días siguientes al contacto puede evitar la enfermedad. Si aparecen síntomas, evita el contacto cercano y hazte la prueba.",
    OTHER:
      "Ve a una clínica de salud sexual o a tu médico para una revisión y di que te avisaron de una posible exposición.",
  },
  reportIntro:
    "¿Te diagnosticaron una infección? Avisa a los miembros con los que intercambiaste mensajes, sin tu nombre: cada uno recibe un aviso de salud en menos de un día, y nadie, ni siquiera los administradores, puede ver quién lo envió.",
  conditionLabel: "¿Qué te diagnosticaron?",
  chooseCondition: "Elige…",
  periodLabel: "¿Cuánto tiempo atrás?",
  periodOption: (days: number) => `Los últimos ${days} días`,
  usualPeriod: (days: number) => `Lo habitual para esta infección: ${days} días.`,
  contactsTitle: "A quién avisar",
  contactsHelp:
    "Miembros con los que intercambiaste mensajes (en ambos sentidos) en ese periodo. Desmarca a quien no quieras avisar.",
  noContacts: "Ningún miembro con el que intercambiaras mensajes en ese periodo.",
  send: "Enviar los avisos",
  sending: "Enviando…",
  sent: (n: number) =>
    `Hecho. ${n} ${
      n === 1 ? "miembro recibirá" : "miembros recibirán"
    } el aviso en menos de 24 horas, sin tu nombre. No se guarda nada de este aviso de tu lado. Gracias por cuidar de la comunidad.`,
  remaining: (n: number) => `Puedes enviar ${n} ${n === 1 ? "aviso" : "avisos"} más este mes.`,
  limitReached: "Ya enviaste 2 avisos este mes. Podrás enviar más el mes que viene.",
  tooNew: "Las cuentas con menos de 7 días aún no pueden enviar avisos de salud.",
  notAContact: "Solo puedes avisar a miembros con los que intercambiaste mensajes en ese periodo.",
  sendFailed: "No se pudieron enviar los avisos. Inténtalo de nuevo.",
  privacyNote:
    "El aviso dice qué y cuándo, nunca quién. Tu elección de miembros no se guarda, y tu exportación de datos no la mostrará.",
  cootiesIntro:
    "Alguien con quien intercambiaste mensajes nos dijo que le diagnosticaron una infección. Eligió avisarte de forma anónima: nosotros tampoco sabemos quién es.",
  noNotices: "No tienes avisos de salud. Nada que hacer.",
  noticeTitle: (condition: string) => `Posible exposición: ${condition}`,
  noticeWindow: (since: number, until: number) => `Entre el ${formatDay(since)} y el ${formatDay(until)}.`,
  whatToDo: "Qué hacer",
  generalAdvice:
    "Las pruebas son confidenciales y no tienes que decir cómo te enteraste. Mientras tanto, usa preservativo y cuéntale a tu clínica este aviso.",
  reportAbuse: "Denunciar este aviso como abuso",
  abuseReported: "Gracias. El aviso se quitó y se contó como abuso.",
  adminTitle: "Avisos de salud (administradores: solo recuentos)",
  adminCounts: (reports: number, notices: number, pending: number, abuse: number) =>
    `Informes: ${reports}. Avisos mostrados: ${notices}. En espera: ${pending}. Denunciados como abuso: ${abuse}.`,
};
