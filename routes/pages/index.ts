/** Mounts a page for every route of the table; routes not built yet show 'coming soon'. */

import { type Context, Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { ROUTES } from "../table.ts";
import { config } from "../../config/config.ts";
import { fromThisMachine } from "../middleware.ts";
import { setSafety } from "../../kv/safety.ts";
import { acknowledgeWarning } from "../../kv/moderation.ts";
import { profileUrl } from "../../domain/format.ts";
import { firstUse } from "../../domain/firstUse.ts";

/**
 * Named by a variable: Deno reads a literal `import("./screens.tsx")` as part of main.ts's module
 * graph and resolves and prepares all of it (every npm package it reaches) at every start.
 */
const SCREENS = "./screens.tsx";

/**
 * The pages' code (routes/pages/screens.tsx), loaded at the first page asked for: an instance's
 * start and a test process's load no renderer, component or island until a page is wanted
 * (decision 0276). Requests that come while it loads wait for the same load.
 */
const screens = firstUse(() => import(SCREENS) as Promise<typeof import("./screens.tsx")>);

/** The pages' code, without a wait once it is loaded. */
function pagesCode() {
  return screens.now() ?? screens.load();
}

/**
 * Loads the pages' code ahead of the first page (an instance, once it serves): that page then waits
 * for none of it. A load that fails is reported and tried again at the first page.
 */
export function loadPagesCode(): Promise<void> {
  return screens.load().then(
    () => {},
    (err) => console.error("pages: their code failed to load; tried again at the first page:", err),
  );
}

/** The 404 page (the app's not-found handler, for any path outside the API). */
export async function notFoundPage(c: Context<AppEnv>): Promise<Response> {
  return (await pagesCode()).notFoundPage(c);
}

/** A page that failed: the 404 page for a 404, else 'Ooops!' (routes/pages/info.tsx). */
export async function pageErrorResponse(err: Error, c: Context<AppEnv>): Promise<Response> {
  return await (await pagesCode()).pageErrorResponse(err, c);
}

export const pages = new Hono<AppEnv>();

for (const route of ROUTES) {
  pages.get(route.path, async (c) => {
    const caller = c.get("caller");
    if ((route.access === "auth" || route.access === "admin") && !caller) return c.redirect("/login", 302);
    const code = await pagesCode();
    if (route.access === "admin" && !caller?.roles.includes("ADMIN")) return code.notFoundPage(c);
    // A new member first goes through onboarding (routes/pages/welcome.tsx), then home and the grid.
    if (caller?.onboarding && code.leadsToOnboarding(route.path)) return c.redirect("/welcome", 302);
    const page = code.PAGES[route.path];
    return page ? page(c) : code.comingSoonPage(c, route.title);
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
pages.get("/welcome", async (c) => (await pagesCode()).onboardingPage(c));
pages.post("/welcome", async (c) => (await pagesCode()).onboardingStep(c));

// Support's problem report: a plain form post, for visitors too.
pages.post("/support", async (c) => (await pagesCode()).supportReport(c));

// The profile route without an id goes to one's own profile, as an unknown id does.
pages.get("/profile/", (c) => c.redirect("/profile", 302));
pages.get("/profile", (c) => {
  const caller = c.get("caller");
  return c.redirect(caller ? profileUrl(caller.profileId) : "/login", 302);
});

// The dev outbox holds login links: it exists only without SMTP_URL, and only for this machine.
pages.get("/dev/outbox", async (c) => {
  const code = await pagesCode();
  if (config.smtpUrl || !fromThisMachine(c)) return code.notFoundPage(c);
  return code.outboxPage(c);
});
