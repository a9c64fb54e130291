/**
 * Texts of the spec, word for word, used by the server and the islands alike; in English here,
 * translated in domain/locales/ (domain/i18n.ts: reading a text gives the language in use).
 */

import { catalogue } from "./i18n.ts";
import * as es from "./locales/es.ts";
import * as ptBR from "./locales/ptBR.ts";

const EN_TEXTS = {
  notFound: "Well, this is embarrassing. The feature you requested was not found.",
  serverTrouble: "Sorry this app is having trouble communicating with the server.",
  loginIncorrect: "Password and/or Email address is incorrect",
  settingsSaveFailed:
    "Could not save your settings.  Perhaps your email address is already registred to another account.",
  passwordsDoNotMatch: "Passwords do not match",
  acknowledgementsRequired: "Acceptance of all of the acknowledgements above are required.",
  contactFailed: "Message sending failed, please try again another time.",
  contactSent: "Message Sent, you may receive a reply to the email address asscoiated with your account.",
  contactNameRequired: "Please provide your full name",
  supportReportSent: "Thank you. Your report reached us; we will answer at the email address you gave.",
  showingNsfw: "Showing NSFW",
  hidingNsfw: "Hiding NSFW",
  sorryTitle: "Ooops!",
  registerTitle: "Register / Recover Login",
  requesting: "Requesting...",
  sending: "Sending...",
  saved: "Saved",
  loginAgain: "Login Again",
  // --- passkeys (ours)
  passkeyLogin: "Log in with a passkey",
  passkeyAdd: "Add a passkey",
  passkeyExpired: "The passkey request expired. Please try again.",
  passkeyNotVerified: "That passkey could not be verified.",
  passkeyUnknown: "This passkey is not registered here. Log in another way and add it in Account settings.",
  passkeyUnsupported: "This browser does not support passkeys.",
  passkeyCancelled: "The passkey request was cancelled or timed out.",
  thisDevice: "(this device)",
  notificationsNone: "None",
  conversationsTitle: "Your Conversations",
  noConversations: "No conversations yet. Say hello to someone nearby!",
  mapChatEmpty: "No messages found in your area.",
  thatsAll: "That's all folks...",
  hasNotSeen: "has not seen",
  picNoLongerShared: "This picture is no longer shared with you.",
  // --- safety where being gay is a crime, discreet mode (ours)
  safetyNoticeTitle: "Your safety here",
  safetyNotice:
    'You appear to be in a country where same-sex relations are against the law. To protect you, we hide you from everyone except the members you liked, show distances only as "nearby", and show no one on the map. Meet in public places first, tell a friend where you are going, never send pictures that show your face or your home to people you have not met, and remember that police have used dating apps to entrap people. You can change what others see in Account settings.',
  safetyNoticeOk: "I understand",
  nearby: "nearby",
  showToEveryone: "Show me to everyone nearby, even where being gay is a crime",
  discreetMode: "Discreet mode on this device: neutral page titles and icon, and a quick exit (press Esc twice)",
  quickExit: "Quick exit",
  neutralTitle: "Notes",
  viewOnce: "View once",
  viewOnceOpen: "Private picture, view once: tap to open",
  viewOnceOpened: "Opened",
  viewOnceNotOpened: "Not opened yet",
  typing: "Typing...",
  onlineNow: "Online now",
  lastSeen: "Last seen",
  hidePresence: "Hide my online status (then I see no one's either)",
  deleteForMe: "Delete for me",
  unsend: "Unsend",
  deleteConversation: "Delete conversation",
  deleteConversationConfirm: "Delete this conversation from your list? It comes back if either of you writes again.",
  lockPictures: "Lock my private pictures",
  picturesLocked: "Locked: pictures you sent that are not public no longer show to this member.",
  lockPicturesFailed: "Locking failed, please try again.",
  pushNotSupported: "Notifications aren't supported on this device.",
  pushMessagingNotSupported: "Push messaging isn't supported on this device",
  pushDenied:
    "Notifications are blocked for this site. To get them, allow notifications for this site in your browser or device settings.",
  pushSubscribeFailed: "Unable to subscribe to push. ",
  pushGetSubscriptionFailed: "Error during getSubscription()...",
  comingSoon: "Coming soon: this part of the app is being built.",
  underDevelopment: "This site is under active development. Registration for your area may not be available yet.",
  // --- likes, notes, block and report (spec §2 Likes, Profile view); tab texts the spec leaves open are ours
  like: "Like",
  removeLike: "Remove Like",
  likedYouEmpty: "Some day your prince will come...",
  thatsAllFolks: "That's all folks...",
  yourPicsEmpty: "No likes on your pictures yet. A fresh picture might catch an eye...",
  yourPicsEnd: "That's every like on your pictures.",
  youLikedEmpty: "You haven't liked anyone yet. Go on, make someone's day...",
  youLikedEnd: "That's everyone you liked.",
  theirPicsEmpty: "You haven't liked any pictures yet. Seen something nice? Tap Like...",
  theirPicsEnd: "That's every picture you liked.",
  loadMore: "Load More",
  blockedRedirecting: "Blocked and Redirecting...",
  blockIgnore: "Block / Ignore",
  reportViolation: "Report Violation",
  reportSent: "Thank you. Your report was sent to the moderators.",
  reportFailed: "The report could not be sent, please try again later.",
  noteSaveFailed: "Your note could not be saved. It is kept here: press Done to try again.",
  // --- the map and location reporting (spec §2 Map, §8 geolocation errors), word for word
  walkMessage: "Manage your own location - Drag your position anywhere you like.",
  gpsMessage: "Using device location to place you automatically.",
  hiddenLabel: "Hidden",
  showingLabel: "Showing",
  hidingMessage: "You are hiding...",
  visibleMessage: "You are  visible to others.",
  zoomIn: "Zoom in to see profiles.",
  tooManyProfiles: "Too many profiles to display.",
  gpsPrefix: "GPS: ",
  gpsStale: "GPS: ...",
  geoDenied: "Geolocation denied, your device refused to provide location",
  geoUnavailable: "Geolocation unable to provide location",
  geoTimeout: "Geolocation timed out",
  geoOther: "OTHER ERROR",
  // --- confirming who changes the email or password or ends other sessions (ours)
  currentPassword: "Current password",
  currentPasswordRequired: "Please enter your current password to confirm.",
  currentPasswordWrong: "Your current password is not correct.",
  freshLoginRequired:
    "To confirm, log in again with a new login link (Register / Recover Login), then do this within 10 minutes.",
  reauthThrottled:
    "Too many tries with your current password. Please wait an hour, or log in again with a new login link.",
  linkOnlyNotice:
    "You logged in with a link. To set a password or change your email, log in again with a new login link, then do it within 10 minutes.",
  freshLinkNotice: "You logged in with a login link just now: for 10 minutes, changes need no current password.",
  logOutEverywhereElse: "Log out everywhere else",
  loggedOutEverywhereElse: "Your other devices are logged out.",
  onlyThisDevice: "No other device is logged in.",
  // --- the profile editor's birthdate (ours: the spec leaves the refusal open)
  birthdate: {
    invalid: "The birthdate must be a real, past date written YYYY-MM-DD.",
    under_age: "Members must be 18 or older. Please enter your real birthdate.",
  },
  // --- login and registration forms, the tabs and home (ours, where the spec names no text)
  email: "Email",
  password: "Password",
  showPassword: "Show password",
  rememberMe: "Remember me",
  login: "Login",
  loggingIn: "Logging in...",
  needToRegister: "Need to Register?",
  forgotPassword: "Forgot Password?",
  emailPasswordRequired: "Email and password are both required.",
  invalidEmail: "Please enter a valid email address.",
  acknowledgements: "Acknowledgements",
  sendLoginLink: "Send me a login link",
  checkEmail: "Check your email: we sent you a login link. It works once, for one hour.",
  backToLogin: "Back to Login",
  linkLoginNotice: "You are logged in with a login link.",
  setPasswordLink: "Set a password in Account settings",
  tabs: { grid: "Grid", map: "Map", chats: "Chats", likes: "Likes", me: "Me" },
  acks: {
    technology:
      "Technology: I accept the use of cookies, the sharing of my geolocation, and the logging of identifiers such as my email and IP address.",
    age:
      "Age: I am an adult, it is legal for me to enter a site with adult content where I am, and I release the site of liability.",
    law: "Law: I will follow the community guidelines.",
  },
  myDataTitle: "Your data",
  downloadMyData: "Download my data",
  downloadIntro:
    "A ZIP of everything we store about you: your account, profile, pictures in every size, likes, notes, messages, places and more.",
  exportRequested:
    "We are preparing your data. We will email you a link: it works once, for 24 hours, while you are logged in.",
  exportReady: "Your data is ready.",
  downloadZip: "Download the ZIP",
  exportGone: "This download link was used, has expired, or is not yours.",
  deleteMyAccount: "Delete my account",
  deleteIntro:
    "This deletes your profile, pictures, likes, notes, the messages you sent and everything else about you. It cannot be undone.",
  deleteConfirm: "Delete my account forever",
  cancel: "Cancel",
  accountDeleted: "Your account is being deleted. You are logged out.",
  deletedMember: "Deleted member",
  theme: "Colours",
  themeSystem: "As this device is set",
  themeLight: "Light",
  themeDark: "Dark",
  newMark: "New",
  pictureCount: (n: number) => (n === 1 ? "1 picture" : `${n} pictures`),
  noPicture: (name: string) => `${name} has no picture`,
  nameEmailRequired: "Name and email are required.",
  setPasswordBelow: "You logged in with a link. Set a password below.",
  name: "Name",
  newPassword: "New password",
  repeatNewPassword: "Repeat new password",
  save: "Save",
  membership: "Membership",
  standardMember: "Standard member.",
  proMember: "Pro member: no limits.",
  volunteerMember: "Volunteer: no limits. Thank you for helping!",
  membershipDues: "Membership dues",
  volunteerCredits: "Volunteer credits",
  loggedInDevices: "Logged-in devices",
  logOut: "Log out",
  blockedMembers: "Blocked members",
  noneBlocked: "You have not blocked anyone.",
  unblock: "Unblock",
  pushNotifications: "Push notifications",
  noPushDevice: "No device gets push notifications yet.",
  remove: "Remove",
  subscribe: "Subscribe",
  version: "Version",
  reportDeviceLocation: "Report my device location",
  openInMaps: "Open in maps",
  passkeys: "Passkeys",
  noPasskeys: "No passkeys yet.",
  passkeyAdded: "Passkey added.",
  safetyAndPrivacy: "Safety and privacy",
  message: "Message",
  send: "Send",
  privateNotes: "Private notes",
  yourTags: "Your tags",
  notesOnlyYou: "Only you can see your notes and tags.",
  note: "Note",
  tags: "Tags",
  tagPlaceholder: "Type a tag, then Enter",
  done: "Done",
  saving: "Saving...",
  chooseReason: "Please choose a reason.",
  close: "Close",
  reason: "Reason",
  chooseAReason: "Choose a reason",
  whatHappened: "What happened?",
  sendReport: "Send Report",
  actions: "Actions",
  blockFailed: "Blocking failed, please try again.",
  viewMyProfile: "View My Profile",
  aboutYou: "About You",
  birthdateLabel: "Birthdate",
  height: "Height",
  weight: "Weight",
  description: "Description",
  characteristics: "Characteristics",
  nameRequired: "Name is required.",
  profileSaveFailed: "Could not save your profile.",
  followBrowser: "My browser's language",
  language: "Language",
  /** Route titles and menu labels (routes/table.ts), by their English words. */
  titles: {
    "Home": "Home",
    "Login": "Login",
    "Register / Recover Login": "Register / Recover Login",
    "Register": "Register",
    "Gaydar Map": "Gaydar Map",
    "Profile Tiles": "Profile Tiles",
    "Swype Profiles": "Swype Profiles",
    "Read Profiles": "Read Profiles",
    "Your Conversations": "Your Conversations",
    "Personal Chat": "Personal Chat",
    "Map Chat": "Map Chat",
    "Notifications": "Notifications",
    "Liked You": "Liked You",
    "Likes": "Likes",
    "View Likes": "View Likes",
    "Community": "Community",
    "Edit Profile": "Edit Profile",
    "Profile Editor": "Profile Editor",
    "Account Settings": "Account Settings",
    "Account": "Account",
    "Membership Dues": "Membership Dues",
    "About Us": "About Us",
    "Terms of Service and Privacy Policy": "Terms of Service and Privacy Policy",
    "GPT Buster": "GPT Buster",
    "The Rating Game": "The Rating Game",
    "Help my Photos": "Help my Photos",
    "3 2 1 Identify": "3 2 1 Identify",
    "Community Arbitration": "Community Arbitration",
    "Admin Dashboard": "Admin Dashboard",
    "Moderation": "Moderation",
    "About": "About",
    "Terms": "Terms",
    "Privacy": "Privacy",
    "Support": "Support",
    "Logout": "Logout",
  } as Record<string, string>,
} as const;

export const TEXTS = catalogue("TEXTS", EN_TEXTS, { es: es.TEXTS, "pt-BR": ptBR.TEXTS });
export type EnTexts = typeof EN_TEXTS;

/** A route title or menu label in the language in use (the English words where none is translated). */
export function titleText(english: string): string {
  return TEXTS.titles[english] ?? english;
}

/** The three acknowledgements of registration (spec §5): technology, age and law. */
export const ACKNOWLEDGEMENTS = [
  {
    id: "technology",
    text:
      "Technology: I accept the use of cookies, the sharing of my geolocation, and the logging of identifiers such as my email and IP address.",
  },
  {
    id: "age",
    text:
      "Age: I am an adult, it is legal for me to enter a site with adult content where I am, and I release the site of liability.",
  },
  {
    id: "law",
    text: "Law: I will follow the community guidelines.",
  },
] as const;

/** Maximum length of messages, notes, narratives and contact messages. */
export const MAX_TEXT = 4000;

/** The reasons a member may give when reporting a violation (Report Violation). */
export const REPORT_REASONS = [
  { id: "underage", label: "Appears to be under 18" },
  { id: "harassment", label: "Harassment or threats" },
  { id: "spam", label: "Spam, scam or advertising" },
  { id: "fake", label: "Fake profile or impersonation" },
  { id: "illegal", label: "Illegal activity" },
  { id: "pictures", label: "Pictures that break the rules" },
  { id: "other", label: "Something else" },
] as const;

/** A report reason id. */
export type ReportReason = typeof REPORT_REASONS[number]["id"];

/**
 * The mail to an account's old address after its email changed. Discreet, as on a lock screen:
 * no app name or content, just the change and where to get help.
 */
export function emailChangedMail(helpUrl: string, when: Date): { subject: string; text: string } {
  return {
    subject: "Your account email was changed",
    text: [
      "Hello,",
      "",
      `The email address of your account was changed on ${when.toUTCString()}.`,
      "This address no longer receives mail or login links for it.",
      "",
      "If you made this change, there is nothing to do.",
      `If you did not, someone else may be using your account: tell us at ${helpUrl} and give this address.`,
    ].join("\n"),
  };
}
