/**
 * Texts of the app's screens that are ours, not the spec's (issue 12: the photo-first profile,
 * the chat screen, the conversation list, onboarding), in the three languages; and the chat
 * list's relative times ("2 min", "Yesterday").
 */

import { catalogue, type Locale } from "./i18n.ts";

const EN = {
  pictureOf: (i: number, n: number) => `Picture ${i} of ${n}`,
  previousPicture: "Previous picture",
  nextPicture: "Next picture",
  addPicture: "Add a picture",
  profileActions: "Profile actions",
  chat: "Chat",
  notes: "Notes",
  actions: "Actions",
  away: (d: string) => `${d} away`,
  backToProfile: "Back to the profile",
  viewProfile: "Profile",
  attachPictures: "Attach pictures",
  unread: (n: number) => (n === 1 ? "1 unread message" : `${n} unread messages`),
  picture: "Picture",
  you: "You:",
  now: "now",
  minutes: (n: number) => `${n} min`,
  yesterday: "Yesterday",
};

export const SCREEN_TEXTS = catalogue("SCREEN_TEXTS", EN, {
  es: {
    pictureOf: (i: number, n: number) => `Foto ${i} de ${n}`,
    previousPicture: "Foto anterior",
    nextPicture: "Foto siguiente",
    addPicture: "Añadir una foto",
    profileActions: "Acciones del perfil",
    chat: "Chat",
    notes: "Notas",
    actions: "Acciones",
    away: (d: string) => `a ${d}`,
    backToProfile: "Volver al perfil",
    viewProfile: "Perfil",
    attachPictures: "Adjuntar fotos",
    unread: (n: number) => (n === 1 ? "1 mensaje sin leer" : `${n} mensajes sin leer`),
    picture: "Foto",
    you: "Tú:",
    now: "ahora",
    minutes: (n: number) => `${n} min`,
    yesterday: "Ayer",
  },
  "pt-BR": {
    pictureOf: (i: number, n: number) => `Foto ${i} de ${n}`,
    previousPicture: "Foto anterior",
    nextPicture: "Próxima foto",
    addPicture: "Adicionar uma foto",
    profileActions: "Ações do perfil",
    chat: "Chat",
    notes: "Notas",
    actions: "Ações",
    away: (d: string) => `a ${d}`,
    backToProfile: "Voltar ao perfil",
    viewProfile: "Perfil",
    attachPictures: "Anexar fotos",
    unread: (n: number) => (n === 1 ? "1 mensagem não lida" : `${n} mensagens não lidas`),
    picture: "Foto",
    you: "Você:",
    now: "agora",
    minutes: (n: number) => `${n} min`,
    yesterday: "Ontem",
  },
});

/**
 * When a message was sent, as a chat list says it: "now", "2 min" within the hour, the time of
 * day today ("14:05"), "Yesterday", the weekday within a week, else the date. `at` is now;
 * both are read in the reader's time zone (the browser's; the server prints UTC instead).
 */
export function chatTimeText(ts: number, at: number, lang: Locale): string {
  const s = Math.max(0, Math.round((at - ts) / 1000));
  if (s < 60) return SCREEN_TEXTS.now;
  if (s < 3600) return SCREEN_TEXTS.minutes(Math.floor(s / 60));
  const d = new Date(ts), today = new Date(at);
  const dayStart = (x: Date) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  const days = Math.round((dayStart(today) - dayStart(d)) / 86_400_000);
  if (days <= 0) return d.toLocaleTimeString(lang, { hour: "numeric", minute: "2-digit" });
  if (days === 1) return SCREEN_TEXTS.yesterday;
  if (days < 7) return d.toLocaleDateString(lang, { weekday: "long" });
  const sameYear = d.getFullYear() === today.getFullYear();
  return d.toLocaleDateString(lang, { month: "short", day: "numeric", ...(sameYear ? {} : { year: "numeric" }) });
}
