/** The app feel's texts in English (domain/feelTexts.ts puts the languages together). */

export const EN_FEEL = {
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
  blockingHides: (name: string) =>
    `Blocking hides you and ${name} from each other everywhere: map, lists, chat and likes.`,
  /** "Show me to everyone" in discreet mode: the same choice, without saying what the app is for. */
  showToEveryoneDiscreet: "Show me to everyone nearby, even where that is dangerous",
};

export type EnFeelTexts = typeof EN_FEEL;
