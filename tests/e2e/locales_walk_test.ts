/**
 * Every page in every language, in one browser over one seeded store:
 * - each language (and the pseudo-locale) on a phone: no React hydration error, no page error;
 * - the pseudo-locale (en-XA: every catalogue text accented, bracketed and longer), on a phone and
 *   a desktop: no visible text that did not come from a catalogue (members' own texts, names and
 *   numbers aside), and no element whose text overflows its box;
 * - Arabic on a phone, light and dark: the page is right to left, shot for docs/screens/ar/.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  logInThroughApi,
  NEIGHBOUR_DESCRIPTION,
  seedNeighbours,
  settledPaint,
  sideBySide,
  startHarness,
  type ViewportName,
  VIEWPORTS,
  waitHydrated,
} from "./harness.ts";
import { seriousViolations } from "./axe.ts";
import { ROUTES } from "../../routes/table.ts";
import { type Account, getAccountByEmail, setLanguage, setRoles } from "../../kv/accounts.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { updateProfile } from "../../kv/profiles.ts";
import { addPicture } from "../../kv/pictures.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { sendPrivateMessage } from "../../kv/messages.ts";
import { putProfileLike } from "../../kv/likes.ts";
import { normalizeUpload, perceptualHash } from "../../images/pipeline.ts";
import { issueChallenge, submitSelfie } from "../../kv/games/identify.ts";
import { portrait } from "../fixtures/pictures.ts";
import { LOCALES, PSEUDO_LOCALE } from "../../domain/i18n.ts";

Deno.env.set("PSEUDO_LOCALE", "1");

const PUBLIC = ["/", "/login", "/register", "/aboutus", "/support", "/tos", "/sorry", "/nope"];
/** Members' own words in the store (names, descriptions, messages): not catalogue texts. */
const NAMES = ["Near 0", "Near 1", "Near 2", "Walker", "Chrome on Linux"];
const OWN_WORDS = [
  NEIGHBOUR_DESCRIPTION,
  "Hello there, are you around tonight?",
];
/** Not words to translate: the brand, the map's attribution, units, role codes and abbreviations. */
const NOT_TEXT = /^(Lambda|NSFW|OpenStreetMap|Leaflet|GPS|km|mi|ft|m|USER|ADMIN|ZIP|[A-Z]{1,4}|Unsplash)$/;
/**
 * Where the walk does not look: bodies written whole per language (checked by tests/i18n_test.ts),
 * times and numbers (Intl writes them, English in the pseudo-locale), codes, and the map's credits.
 */
const SKIP = "script,style,noscript,time,code,[translate=no],[data-per-language],.leaflet-control-attribution," +
  ".map-preview-attribution,[hidden],[aria-hidden=true]";

/** The Arabic screens of docs/screens/ar/ (phone, light and dark), by path (a profile besides). */
const SHOTS: Record<string, string> = {
  "/": "home",
  "/search/tile": "grid",
  "/search/swype": "swipe",
  "/search/map": "map",
  "/chat/personal": "chats",
  "/likes/profilelikedyou": "likes",
  "/settings": "settings",
};
const SCREENS = new URL("../../docs/screens/ar/", import.meta.url).pathname;

/** The first screenful as docs/screens/ar/<name>.png, once its pictures are in. */
async function shootAr(page: Page, name: string): Promise<void> {
  await Deno.mkdir(SCREENS, { recursive: true });
  await page.waitForFunction(() => [...document.images].filter((i) => i.loading !== "lazy").every((i) => i.complete));
  await page.screenshot({ path: `${SCREENS}${name}.png` });
}

/** React's hydration errors (#418, #423, #425) and "did not match" warnings in a console text. */
const HYDRATION = /#41[89]|#42[35]|hydrat|did not match/i;

/** The texts on the page that are not catalogue texts (pseudo-locale pages only). */
async function foreignTexts(page: Page, allowed: string[]): Promise<string[]> {
  return await page.evaluate(({ allowed, notText, skip }) => {
    const re = new RegExp(notText);
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement!;
      if (el.closest(skip)) continue;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden" || style.display === "none" || !el.getClientRects().length) continue;
      let text = n.textContent!.trim();
      for (const a of allowed) text = text.replaceAll(a, "");
      // Catalogue texts are bracketed and accented: what remains of plain ASCII words is not one
      // (tokens with a digit are ids, versions and numbers).
      text = text.replace(/⟦[^⟧]*⟧?/g, "").replace(/[^⟦]*⟧/g, "").replace(/\S*\d\S*/g, "");
      const words = text.match(/[A-Za-z][A-Za-z']+/g)?.filter((w) => !re.test(w)) ?? [];
      if (words.length) out.push(`${el.tagName.toLowerCase()}${el.className ? "." + el.className : ""}: ${text}`);
    }
    // A field's placeholder is visible text too.
    for (const el of document.querySelectorAll<HTMLInputElement>("input[placeholder],textarea[placeholder]")) {
      if (!el.getClientRects().length || el.closest(skip)) continue;
      let text = el.placeholder;
      for (const a of allowed) text = text.replaceAll(a, "");
      text = text.replace(/⟦[^⟧]*⟧?/g, "");
      if (text.match(/[A-Za-z][A-Za-z']+/g)?.some((w) => !re.test(w))) out.push(`placeholder: ${el.placeholder}`);
    }
    return out;
  }, { allowed, notText: NOT_TEXT.source, skip: SKIP });
}

/** Elements whose own text overflows their box (scrollable and clipped boxes aside). */
async function overflowing(page: Page): Promise<string[]> {
  return await page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.body.querySelectorAll<HTMLElement>("*")) {
      if (![...el.childNodes].some((c) => c.nodeType === 3 && c.textContent!.trim())) continue;
      const style = getComputedStyle(el);
      if (style.display === "none" || style.visibility === "hidden" || !el.getClientRects().length) continue;
      if (el.closest(".leaflet-container,[aria-hidden=true],.sr-only,.visually-hidden")) continue;
      if (/(auto|scroll|hidden|clip)/.test(style.overflowX) || style.textOverflow === "ellipsis") continue;
      if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0 && style.display !== "inline") {
        out.push(
          `${el.tagName.toLowerCase()}${
            el.className ? "." + el.className : ""
          } (${el.scrollWidth}>${el.clientWidth}): ${el.textContent!.trim().slice(0, 60)}`,
        );
      }
    }
    return out;
  });
}

Deno.test({
  name:
    "e2e - every page in every language: no hydration or page error; the pseudo-locale finds no foreign text nor overflow; Arabic is right to left",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    // Every page six times over and twice more in the pseudo-locale (a few walks side by side):
    // more than one journey's time.
    const h = await startHarness({ limitMs: 480_000 });
    try {
      const found: string[] = [];
      /**
       * A browser context as a member's in a language: its navigator.language, a time zone not the
       * server's. `where.at` names the page it is on, for what its page reports.
       */
      const contextIn = async (lang: string, vp: ViewportName) => {
        const context = await h.browser.newContext({
          colorScheme: "light",
          // axe is injected into the page (the Arabic walk runs it).
          bypassCSP: lang === "ar",
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
        const page = await context.newPage();
        const where = { at: "" };
        page.on("pageerror", (e) => found.push(`${where.at}: page error ${e.message.slice(0, 200)}`));
        page.on("console", (m) => {
          if (m.type() === "error" && HYDRATION.test(m.text())) found.push(`${where.at}: ${m.text().slice(0, 200)}`);
        });
        return { context, page, where };
      };
      const email = "walker@example.com";
      // The walker's session, made without a page: each walk's context starts from its cookie.
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
      await addPicture(me, await normalizeUpload(await portrait(9)));
      const entry = await kv().get<Account>(keys.account(account.id));
      await kv().set(entry.key, { ...entry.value!, tsCreated: entry.value!.tsCreated - 8 * 24 * 3_600_000 });
      await reportPosition(me, { lat: 33.4484, lon: -112.074, use: "OVERRIDE", hide: false });
      const near = await seedNeighbours("walk");
      const neighbour = near[0];
      await sendPrivateMessage(neighbour, me, OWN_WORDS[1], []);
      await putProfileLike(neighbour, me, "LIKE");
      // A selfie being judged (3 2 1 Identify): the walker, a judge and an admin, walks the
      // judging screen and the admins' queue in every language.
      const challenge = await issueChallenge(near[1], false);
      assert.ok(challenge.ok);
      const selfie = await normalizeUpload(await portrait(7));
      const sent = await submitSelfie(near[1], challenge.challenge.id, selfie, await perceptualHash(selfie.bytes), []);
      assert.ok(sent.ok);
      // Every page, and another member's profile (its like and chat bar) beside one's own.
      const loggedIn = ROUTES.filter((r) => ["auth", "admin", "any"].includes(r.access) && r.path !== "/logout")
        .map((r) => r.path.replace(":profileId", me).replace(":game", "cooties"))
        .concat(`/profile/${neighbour}`);

      /** The screens shot in Arabic: the main ones, and another member's profile. */
      const shots: Record<string, string> = { ...SHOTS, [`/profile/${neighbour}`]: "profile" };

      /** Opens every page in a language, logged out then in, and runs `check` on each. */
      const walk = async (
        lang: string,
        vp: ViewportName,
        check?: (page: Page, path: string, at: string) => Promise<void>,
      ) => {
        const { context, page, where } = await contextIn(lang, vp);
        if (lang === PSEUDO_LOCALE) {
          await context.addCookies([{ name: "lang", value: PSEUDO_LOCALE, url: h.origin }]);
        }
        for (const [paths, logged] of [[PUBLIC, false], [loggedIn, true]] as const) {
          if (logged) await context.addCookies(session);
          for (const path of paths) {
            const at = where.at = `${lang} ${vp} ${path}`;
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
      };
      /** The pseudo-locale on a viewport: no foreign text, no overflow. */
      const walkPseudo = (vp: ViewportName) =>
        walk(PSEUDO_LOCALE, vp, async (page, _path, at) => {
          // Both only read the page: asked at once, their round trips overlap.
          const [texts, overflows] = await Promise.all([
            foreignTexts(page, [...NAMES, ...OWN_WORDS, email]),
            overflowing(page),
          ]);
          for (const t of texts) found.push(`${at}: text ${t}`);
          for (const o of overflows) found.push(`${at}: overflow ${o}`);
        });
      await setLanguage(account.id, null);
      // The walks share nothing but the member's session (each its own context and page): they go
      // side by side, the longest (Arabic with axe, the pseudo-locale's text walks) first.
      const walks: (() => Promise<void>)[] = [
        // Arabic on a phone: axe finds no serious violation, and the main screens are shot, light
        // and then dark (the same page: its dark look is the style sheets', when the phone's turns).
        () =>
          walk("ar", "phone", async (page, path, at) => {
            for (const v of await seriousViolations(page)) found.push(`${at}: ${v}`);
            if (!shots[path]) return;
            await shootAr(page, `${shots[path]}-light`);
            await page.emulateMedia({ colorScheme: "dark" });
            await settledPaint(page);
            await shootAr(page, `${shots[path]}-dark`);
            await page.emulateMedia({ colorScheme: "light" });
          }),
        () => walkPseudo("phone"),
        () => walkPseudo("desktop"),
        ...LOCALES.filter((l) => l !== "ar").map((l) => () => walk(l, "phone")),
      ];
      await sideBySide(walks, (w) => w());
      assert.deepEqual(found, []);
    } finally {
      await h.close();
    }
  },
});
