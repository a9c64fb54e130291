/** English texts of the app's own screens (domain/screenTexts.ts): the catalogue's keys and the words the translations follow. */

export const EN_SCREEN_TEXTS = {
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
  /** Marks a conversation with a secret chat in the list (the word only: nothing of what it holds). */
  secretChatMarker: "Secret chat",
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
  finishing: "Saving where you are…",
  finishFailed:
    "Where you are could not be saved, so nobody nearby would see you yet. Check your connection and try again.",
  finishRetry: "Try again",
};

export type EnScreenTexts = typeof EN_SCREEN_TEXTS;
