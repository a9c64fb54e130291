/**
 * Texts of the app's screens added to make it feel like an app (the filter sheet, home's people
 * nearby, dismissing the banner, chat times, confirming a block, settings' sections, empty states
 * and retries), in every language. Not the spec's texts: those stay in their catalogues.
 */

import { catalogue } from "./i18n.ts";
import * as es from "./locales/es.ts";
import * as ptBR from "./locales/ptBR.ts";
import * as fr from "./locales/fr.ts";
import * as ar from "./locales/ar.ts";

const EN = {
  filter: "Filter",
  filters: "Filters",
  age: "Age",
  ageFrom: "From",
  ageTo: "To",
  distance: "Distance",
  anyDistance: "Any distance",
  within: (d: string) => `Within ${d}`,
  onlineNow: "Online now",
  withPictures: "With pictures",
  tags: "Tags",
  showResults: "Show results",
  whoIsAround: "Who is around",
  seeEveryone: "See everyone",
  nobodyAroundYet: "Nobody is around yet. Set your place on the map to meet people nearby.",
  openMap: "Open the map",
  dismiss: "Dismiss",
  back: "Back",
  today: "Today",
  yesterday: "Yesterday",
  retry: "Try again",
  confirmBlock: (name: string) => `Block ${name}? They will not see you, and you will not see them.`,
  yesBlock: "Block",
  settingsSections: "Settings",
  sectionAccount: "Account",
  sectionPrivacy: "Privacy and safety",
  sectionNotifications: "Notifications",
  sectionDevices: "Devices and passkeys",
  sectionData: "My data",
  noChatsYet: "No conversations yet. Say hi to someone nearby.",
  findPeople: "Find people nearby",
  nextProfile: "Next profile",
  previousProfile: "Previous profile",
};

export type EnFeelTexts = typeof EN;

export const FEEL_TEXTS = catalogue("FEEL_TEXTS", EN, {
  es: es.FEEL_TEXTS,
  "pt-BR": ptBR.FEEL_TEXTS,
  fr: fr.FEEL_TEXTS,
  ar: ar.FEEL_TEXTS,
});
