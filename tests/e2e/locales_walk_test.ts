/**
 * Every page in every language, in one browser over one seeded store (the walk of tests/e2e/everyPage.ts):
 * - each language (and the pseudo-locale) on a phone: no React hydration error, no page error, the
 *   page's language and direction; English is walked by tests/e2e/a11y_test.ts, whose axe runs on
 *   the same loads (decision 0241). Only a browser shows the first two: its Intl writes some dates
 *   otherwise than the server's in one language and not another (decision 0264);
 * - the pseudo-locale (en-XA: every catalogue text accented, bracketed and longer), on a phone and
 *   a desktop: no visible text that did not come from a catalogue (members' own texts, names and
 *   numbers aside), and no element whose text overflows its box;
 * - Arabic on a phone, light and dark: the page is right to left, shot for docs/screens/ar/.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  docShot,
  NEIGHBOUR_DESCRIPTION,
  SAVE_SHOTS,
  settledPaint,
  sideBySide,
  startHarness,
  type ViewportName,
} from "./harness.ts";
import { MESSAGE, seedWalker, walkEveryPage } from "./everyPage.ts";
import { seriousViolations } from "./axe.ts";
import { LOCALES, PSEUDO_LOCALE } from "../../domain/i18n.ts";

Deno.env.set("PSEUDO_LOCALE", "1");

/** Members' own words in the store (names, descriptions, messages): not catalogue texts. */
const NAMES = ["Near 0", "Near 1", "Near 2", "Walker", "Chrome on Linux"];
const OWN_WORDS = [NEIGHBOUR_DESCRIPTION, MESSAGE];
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
  await page.waitForFunction(() => [...document.images].filter((i) => i.loading !== "lazy").every((i) => i.complete));
  await docShot(page, `${SCREENS}${name}.png`);
}

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
    "e2e - every page in every language but English (the accessibility walk's): no hydration or page error; the pseudo-locale finds no foreign text nor overflow; Arabic is right to left",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    // Every page in four languages and twice more in the pseudo-locale (a few walks side by side):
    // more than one journey's time.
    const h = await startHarness({ limitMs: 480_000 });
    try {
      const found: string[] = [];
      const walker = await seedWalker(h);
      /** The screens shot in Arabic: the main ones, and another member's profile. */
      const shots: Record<string, string> = { ...SHOTS, [`/profile/${walker.neighbour}`]: "profile" };

      /** Opens every page in a language, logged out then in, and runs `check` on each. */
      const walk = (lang: string, vp: ViewportName, check?: (page: Page, path: string, at: string) => Promise<void>) =>
        walkEveryPage(h, walker, found, { lang, vp, axe: lang === "ar" }, check);
      /** The pseudo-locale on a viewport: no foreign text, no overflow. */
      const walkPseudo = (vp: ViewportName) =>
        walk(PSEUDO_LOCALE, vp, async (page, _path, at) => {
          // Both only read the page: asked at once, their round trips overlap.
          const [texts, overflows] = await Promise.all([
            foreignTexts(page, [...NAMES, ...OWN_WORDS, walker.email]),
            overflowing(page),
          ]);
          for (const t of texts) found.push(`${at}: text ${t}`);
          for (const o of overflows) found.push(`${at}: overflow ${o}`);
        });
      // The walks share nothing but the member's session (each its own context and page): they go
      // side by side, the longest (Arabic with axe, the pseudo-locale's text walks) first.
      const walks: (() => Promise<void>)[] = [
        // Arabic on a phone: axe finds no serious violation, and the main screens are shot, light
        // and then dark (the same page: its dark look is the style sheets', when the phone's turns).
        () =>
          walk("ar", "phone", async (page, path, at) => {
            for (const v of await seriousViolations(page)) found.push(`${at}: ${v}`);
            // The screens of docs/screens/ar/, when screenshots are taken (`deno task screens`).
            if (!shots[path] || !SAVE_SHOTS) return;
            await shootAr(page, `${shots[path]}-light`);
            await page.emulateMedia({ colorScheme: "dark" });
            await settledPaint(page);
            await shootAr(page, `${shots[path]}-dark`);
            await page.emulateMedia({ colorScheme: "light" });
          }),
        () => walkPseudo("phone"),
        () => walkPseudo("desktop"),
        // English on a phone: the accessibility walk's (tests/e2e/a11y_test.ts).
        ...LOCALES.filter((l) => l !== "ar" && l !== "en").map((l) => () => walk(l, "phone")),
      ];
      await sideBySide(walks, (w) => w());
      assert.deepEqual(found, []);
    } finally {
      await h.close();
    }
  },
});
