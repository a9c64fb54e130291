/**
 * Texts of the app's screens that are ours, not the spec's (the photo-first profile,
 * the chat screen, the conversation list, onboarding), in the three languages; and the chat
 * list's relative times ("2 min", "Yesterday").
 */

import { catalogue, type Locale } from "./i18n.ts";
import * as es from "./locales/es.ts";
import * as ptBR from "./locales/ptBR.ts";

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
  welcomeTitle: "Welcome",
  stepOf: (i: number, n: number) => `Step ${i} of ${n}`,
  nameStep: "Who are you?",
  nameHint: "Your name shows on your profile. Others see your age, never your birthdate. Members must be 18 or older.",
  birthdateRequired: "Please enter your birthdate.",
  pictureStep: "Add a first picture",
  pictureWhy:
    "Members with a picture get far more likes and replies: it is the first thing others see on the grid. You can crop it, add more or make some private later.",
  choosePicture: "Choose a picture",
  characteristicsStep: "What are you into?",
  characteristicsHint: "Tick what describes you: others can look for it. Each one is saved as you tick it.",
  locationStep: "Where are you?",
  locationHint:
    "The grid and the map show who is around you. Others see you at a fixed point about a kilometre from where you are, never your exact place.",
  modeRandom: "A random point near Phoenix",
  modeRandomWhy: "Where you start until you choose one of the others.",
  modeWalk: "Walk: place yourself",
  modeGps: "GPS: this device's location",
  modeGpsWhy:
    "So the people you see are really around you. Your browser asks for permission; your exact position never leaves our server.",
  useGps: "Use my location",
  useWalk: "I'll place myself on the map",
  locationNow: (mode: string) => `Now: ${mode}`,
  next: "Continue",
  skip: "Skip for now",
  back: "Back",
  finish: "Show me who is around",
};

export type EnScreenTexts = typeof EN;

export const SCREEN_TEXTS = catalogue("SCREEN_TEXTS", EN, { es: es.SCREEN_TEXTS, "pt-BR": ptBR.SCREEN_TEXTS });

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
