/**
 * The pages' code: every screen's renderer by route path, and the pages the routes' own handling
 * shows (404, 'coming soon', 'Ooops!', onboarding, support's report, the dev outbox). Loaded at
 * the first page asked for (routes/pages/index.ts), not with the app: with it come React's server
 * renderer, the components, the islands rendered on the server and the icons, which an instance
 * answering only the API, and a test process testing it, never need (decision 0276).
 */

import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { homePage } from "./home.tsx";
import { loginPage, logoutPage, registerPage } from "./auth.tsx";
import {
  aboutPage,
  billingPage,
  comingSoonPage,
  notFoundPage,
  offlinePage,
  sorryPage,
  supportPage,
  supportReport,
  tosPage,
} from "./info.tsx";
import { contactPage, dashboardPage, outboxPage, settingsPage } from "./account.tsx";
import { profilePage } from "./profile.tsx";
import { memberPage, moderationPage } from "./admin.tsx";
import { profileEditPage } from "./profileEdit.tsx";
import { picCarouselPage, picEditPage, picUploadPage } from "./pictures.tsx";
import { likesPage } from "./likes.tsx";
import { rateSwipePage } from "./rateSwipe.tsx";
import { profileListPage, swypePage, tilesPage } from "./discovery.tsx";
import { mapPage } from "./map.tsx";
import { notificationsPage } from "./notifications.tsx";
import { conversationsPage, mapChatPage } from "./chat.tsx";
import { leadsToOnboarding, onboardingPage, onboardingStep } from "./welcome.tsx";
import { arbitrationPage, gamesPage, gptBusterPage, photoCropPage, ratingGamePage } from "./games.tsx";
import { identifyPage } from "./identify.tsx";
import { hotOrNotPage } from "./hotOrNot.tsx";
import { dungeonPage } from "./dungeon.tsx";
import { cootiesPage, healthReportPage } from "./health.tsx";

export { comingSoonPage, leadsToOnboarding, notFoundPage, onboardingPage, onboardingStep, outboxPage, supportReport };
export { pageErrorResponse } from "./info.tsx";

type Page = (c: Context<AppEnv>) => Response | Promise<Response>;

/** The built pages by route path. Other issues add theirs here. */
export const PAGES: Record<string, Page> = {
  "/": homePage,
  "/login": loginPage,
  "/register": registerPage,
  "/logout": logoutPage,
  "/settings": settingsPage,
  "/contactus": contactPage,
  "/dashboard": dashboardPage,
  "/admin/moderation": moderationPage,
  "/admin/members/:profileId": memberPage,
  "/aboutus": aboutPage,
  "/support": supportPage,
  "/tos": tosPage,
  "/billing": billingPage,
  "/sorry": sorryPage,
  "/offline": offlinePage,
  "/games": gamesPage,
  "/games/gptbuster": gptBusterPage,
  "/games/ratinggame": ratingGamePage,
  "/games/arbitration": arbitrationPage,
  "/games/photocrop": photoCropPage,
  "/games/identify": identifyPage,
  "/games/hotornot": hotOrNotPage,
  "/games/healthreport": healthReportPage,
  "/games/cooties": cootiesPage,
  "/games/dungeon": dungeonPage,
  "/notifications": notificationsPage,
  "/chat/personal": conversationsPage,
  "/chat/broadcast": mapChatPage,
  "/profile/:profileId": profilePage,
  "/profileEdit": profileEditPage,
  "/profilePicUpload": picUploadPage,
  "/profilePicEdit": picEditPage,
  "/profilePicCarousel": picCarouselPage,
  "/search/map": mapPage,
  "/likes/profilelikedyou": likesPage,
  "/likes/profilelikedyourpics": likesPage,
  "/likes/youlikedprofile": likesPage,
  "/likes/youlikedprofilepics": likesPage,
  "/profilePicRateSwipe": rateSwipePage,
  "/search/tile": tilesPage,
  "/search/swype": swypePage,
  "/search/profile": profileListPage,
};
