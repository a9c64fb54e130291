/** Mounts a page for every route of the table; routes not built yet show 'coming soon'. */

import { type Context, Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { ROUTES } from "../table.ts";
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
import { config } from "../../config/config.ts";
import { fromThisMachine } from "../middleware.ts";
import { setSafety } from "../../kv/safety.ts";
import { acknowledgeWarning } from "../../kv/moderation.ts";
import { profileUrl } from "../../domain/format.ts";

type Page = (c: Context<AppEnv>) => Response | Promise<Response>;

/** The built pages by route path. Other issues add theirs here. */
const PAGES: Record<string, Page> = {
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

export const pages = new Hono<AppEnv>();

for (const route of ROUTES) {
  const page = PAGES[route.path];
  pages.get(route.path, (c) => {
    const caller = c.get("caller");
    if ((route.access === "auth" || route.access === "admin") && !caller) return c.redirect("/login", 302);
    if (route.access === "admin" && !caller?.roles.includes("ADMIN")) return notFoundPage(c);
    // A new member first goes through onboarding (routes/pages/welcome.tsx), then home and the grid.
    if (caller?.onboarding && leadsToOnboarding(route.path)) return c.redirect("/welcome", 302);
    return page ? page(c) : comingSoonPage(c, route.title);
  });
}

// The safety notice's acknowledgement: a plain form post, back to the page it was on.
pages.post("/safety/notice", async (c) => {
  const caller = c.get("caller");
  if (!caller) return c.redirect("/login", 303);
  const back = (await c.req.parseBody()).back;
  await setSafety(caller.profileId, { noticeSeen: true });
  return c.redirect(safeBack(back), 303);
});

/** Where a notice's form returns to: a path of this app, else home. */
function safeBack(back: unknown): string {
  return typeof back === "string" && /^\/(?!\/)[\w\-\/]*$/.test(back) ? back : "/";
}

// A moderation warning's acknowledgement: a plain form post, back to the page it was on.
pages.post("/moderation/notice", async (c) => {
  const caller = c.get("caller");
  if (!caller) return c.redirect("/login", 303);
  const back = (await c.req.parseBody()).back;
  await acknowledgeWarning(caller.accountId);
  return c.redirect(safeBack(back), 303);
});

// Onboarding: the steps after the first login, and the step reached (not in the route table: a member
// with it done never sees it again).
pages.get("/welcome", onboardingPage);
pages.post("/welcome", onboardingStep);

// Support's problem report: a plain form post, for visitors too.
pages.post("/support", supportReport);

// The profile route without an id goes to one's own profile, as an unknown id does.
pages.get("/profile/", (c) => c.redirect("/profile", 302));
pages.get("/profile", (c) => {
  const caller = c.get("caller");
  return c.redirect(caller ? profileUrl(caller.profileId) : "/login", 302);
});

// The dev outbox holds login links: it exists only without SMTP_URL, and only for this machine.
pages.get("/dev/outbox", (c) => {
  if (config.smtpUrl || !fromThisMachine(c)) return notFoundPage(c);
  return outboxPage(c);
});
