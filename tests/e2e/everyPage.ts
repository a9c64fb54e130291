/**
 * The walk of every page (the route table's, logged out and then in), as the locales walk
 * (tests/e2e/locales_walk_test.ts) and the accessibility walk (tests/e2e/a11y_test.ts) take it: one
 * member with content around, and every page opened once per language, viewport and colour scheme
 * in a context of its own. On each page the walk checks what every page must show in every
 * language (no React hydration error, no page error, `<html lang dir>`), then hands the page to the
 * walk's own check (axe, foreign texts, shots). The English walks are the accessibility file's: its
 * axe runs on the pages the locales checks loaded (decision 0241).
 */

import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import {
  type Harness,
  logInThroughApi,
  seedNeighbours,
  type ViewportName,
  VIEWPORTS,
  waitHydrated,
} from "./harness.ts";
import { ROUTES } from "../../routes/table.ts";
import { type Account, getAccountByEmail, setLanguage, setRoles } from "../../kv/accounts.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { updateProfile } from "../../kv/profiles.ts";
import { addPicture } from "../../kv/pictures.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { sendPrivateMessage } from "../../kv/messages.ts";
import { putProfileLike } from "../../kv/likes.ts";
import { perceptualHash } from "../../images/pipeline.ts";
import { issueChallenge, submitSelfie } from "../../kv/games/identify.ts";
import { portraitPicture } from "../fixtures/pictures.ts";
import { PSEUDO_LOCALE } from "../../domain/i18n.ts";
import { axeInEveryDocument } from "./axe.ts";

export const PUBLIC = ["/", "/login", "/register", "/aboutus", "/support", "/tos", "/sorry", "/nope"];

/** The walker's message from a neighbour: a member's own words, not a catalogue text. */
export const MESSAGE = "Hello there, are you around tonight?";

/** React's hydration errors (#418, #423, #425) and "did not match" warnings in a console text. */
const HYDRATION = /#41[89]|#42[35]|hydrat|did not match/i;

/** The walker, seeded once per file: whom the walks log in as, and the pages they open. */
export interface Walker {
  email: string;
  /** The walker's session cookies: each walk's context starts from them. */
  session: Awaited<ReturnType<BrowserContext["cookies"]>>;
  /** The walker's profile, and the nearest neighbour's (who wrote and liked the walker). */
  me: string;
  neighbour: string;
  /** Every page a member can open (`/logout` aside), and the neighbour's profile beside one's own. */
  loggedIn: string[];
}

/**
 * The walker: an admin with a name, a picture and a place, a week old (so a judge of 3 2 1 Identify,
 * with a selfie to judge), three neighbours, a message and a like from the nearest. Made without a
 * page; the account's own language is none, so each walk's is its context's.
 */
export async function seedWalker(h: Harness, email = "walker@example.com"): Promise<Walker> {
  const first = await h.browser.newContext();
  await logInThroughApi(first, h.origin, email);
  const session = await first.cookies();
  await first.close();
  const account = (await getAccountByEmail(email))!;
  await setRoles(account.id, ["USER", "ADMIN"]);
  const me = account.defaultProfileId;
  await updateProfile(me, { profilename: "Walker", birthdate: "1990-01-01" });
  // The walker may judge selfies (3 2 1 Identify: an account a week old, with a public picture),
  // so the judging screen is walked too.
  await addPicture(me, await portraitPicture(9));
  const entry = await kv().get<Account>(keys.account(account.id));
  await kv().set(entry.key, { ...entry.value!, tsCreated: entry.value!.tsCreated - 8 * 24 * 3_600_000 });
  await reportPosition(me, { lat: 33.4484, lon: -112.074, use: "OVERRIDE", hide: false });
  const near = await seedNeighbours("walk");
  const neighbour = near[0];
  await sendPrivateMessage(neighbour, me, MESSAGE, []);
  await putProfileLike(neighbour, me, "LIKE");
  // A selfie being judged (3 2 1 Identify): the walker, a judge and an admin, walks the
  // judging screen and the admins' queue.
  const challenge = await issueChallenge(near[1], false);
  assert.ok(challenge.ok);
  const selfie = await portraitPicture(7);
  const sent = await submitSelfie(near[1], challenge.challenge.id, selfie, await perceptualHash(selfie.bytes), []);
  assert.ok(sent.ok);
  await setLanguage(account.id, null);
  const loggedIn = ROUTES.filter((r) => ["auth", "admin", "any"].includes(r.access) && r.path !== "/logout")
    .map((r) => r.path.replace(":profileId", me).replace(":game", "cooties"))
    .concat(`/profile/${neighbour}`);
  return { email, session, me, neighbour, loggedIn };
}

/** How a walk sees the pages: its language, viewport and colour scheme, and whether axe runs in it. */
export interface Look {
  lang: string;
  vp: ViewportName;
  scheme?: "light" | "dark";
  /** axe is injected into the page: the context bypasses the app's CSP for it. */
  axe?: boolean;
}

/**
 * Opens every page in a look, logged out then in, in a context of its own (as a member's browser
 * in that language: its navigator.language, a time zone not the server's). On each page: no
 * hydration or page error and the page's language and direction, into `found`, then `check`.
 */
export async function walkEveryPage(
  h: Harness,
  walker: Walker,
  found: string[],
  { lang, vp, scheme = "light", axe = false }: Look,
  check?: (page: Page, path: string, at: string) => Promise<void>,
): Promise<void> {
  const context = await h.browser.newContext({
    colorScheme: scheme,
    bypassCSP: axe,
    baseURL: h.origin,
    // As every browser test but the offline one (harness.ts): the app's service worker would
    // precache the whole build in each context and take every request of the walk through itself.
    serviceWorkers: "block",
    viewport: VIEWPORTS[vp],
    isMobile: vp === "phone",
    hasTouch: vp === "phone",
    locale: lang === PSEUDO_LOCALE ? "en-US" : lang,
    timezoneId: "America/Phoenix",
  });
  // Every page of an axe walk is checked: axe's source goes to the browser once, not once a page.
  if (axe) await axeInEveryDocument(context);
  const page = await context.newPage();
  const where = { at: "" };
  page.on("pageerror", (e) => found.push(`${where.at}: page error ${e.message.slice(0, 200)}`));
  page.on("console", (m) => {
    if (m.type() === "error" && HYDRATION.test(m.text())) found.push(`${where.at}: ${m.text().slice(0, 200)}`);
  });
  if (lang === PSEUDO_LOCALE) {
    await context.addCookies([{ name: "lang", value: PSEUDO_LOCALE, url: h.origin }]);
  }
  for (const [paths, logged] of [[PUBLIC, false], [walker.loggedIn, true]] as const) {
    if (logged) await context.addCookies(walker.session);
    for (const path of paths) {
      const at = where.at = `${lang} ${vp}${scheme === "dark" ? " dark" : ""} ${path}`;
      await page.goto(path);
      await waitHydrated(page);
      // React reports a hydration error just after hydrating: two frames later it has. The
      // page's language and direction are read in the same call (one round trip a page, not three).
      const { lng, dir } = await page.evaluate(
        (frames) =>
          new Promise<{ lng: string | null; dir: string | null }>((done) => {
            const read = () =>
              done({
                lng: document.documentElement.getAttribute("lang"),
                dir: document.documentElement.getAttribute("dir"),
              });
            if (frames) requestAnimationFrame(() => requestAnimationFrame(read));
            else read();
          }),
        lang !== PSEUDO_LOCALE,
      );
      if (lng !== lang) found.push(`${at}: <html lang=${lng}>`);
      if (dir !== (lang === "ar" ? "rtl" : "ltr")) found.push(`${at}: <html dir=${dir}>`);
      if (check) await check(page, path, at);
    }
  }
  await context.close();
}
