/**
 * A member's main journey in each of the five languages, in one browser over one store: a visitor
 * whose browser asks for the language registers, opens the mailed link (its mail in that language),
 * goes through onboarding, finds a neighbour on the grid, opens their profile, likes them, writes
 * to them, and in Account settings sees each language listed in its own name and picks another,
 * which the next page follows. Every text checked is the catalogue's in that language, and the
 * page's lang and direction are the language's.
 */

import assert from "node:assert/strict";
import { mailedLink, shot, sideBySide, startHarness, VIEWPORTS, waitHydrated } from "./harness.ts";
import { createAccount } from "../../kv/accounts.ts";
import { updateProfile } from "../../kv/profiles.ts";
import { addPicture } from "../../kv/pictures.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { listOutbox } from "../../kv/outbox.ts";
import { portraitPicture } from "../fixtures/pictures.ts";
import { dir, type Locale, LOCALE_NAMES, LOCALES, withLocale } from "../../domain/i18n.ts";
import { TEXTS, titleText } from "../../domain/texts.ts";
import { SCREEN_TEXTS } from "../../domain/screenTexts.ts";
import { phrase } from "../../domain/phrases.ts";

/** The browser's language for each of the app's. */
const BROWSER: Record<Locale, string> = { en: "en-US", es: "es-ES", "pt-BR": "pt-BR", fr: "fr-FR", ar: "ar-EG" };
const NEIGHBOUR = "Sami";

Deno.test({
  name: "e2e - the main journey in each language: register, onboarding, grid, profile, like, chat, settings",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const h = await startHarness();
    try {
      // A neighbour with a picture, in the middle of the onboarding's random spot near Phoenix.
      const other = (await createAccount({ email: "sami@example.com", name: NEIGHBOUR }))!;
      await updateProfile(other.defaultProfileId, { profilename: NEIGHBOUR, birthdate: "1991-06-02" });
      await addPicture(other.defaultProfileId, await portraitPicture(0));
      await reportPosition(other.defaultProfileId, { lat: 33.4484, lon: -112.074, use: "OVERRIDE", hide: false });

      // Each language's journey is its own member in its own context: they go side by side.
      await sideBySide(LOCALES, async (lang, i) => {
        const t = <T>(f: () => T) => withLocale(lang, f);
        const context = await h.browser.newContext({
          viewport: VIEWPORTS.phone,
          isMobile: true,
          hasTouch: true,
          baseURL: h.origin,
          locale: BROWSER[lang],
        });
        const page = await context.newPage();
        const go = async (path: string) => {
          await page.goto(path);
          await waitHydrated(page);
        };

        // Register, in the browser's language.
        await go("/register");
        assert.equal(await page.getAttribute("html", "lang"), lang);
        assert.equal(await page.getAttribute("html", "dir"), dir(lang));
        const email = `journey-${lang.toLowerCase()}@example.com`;
        await page.getByLabel(t(() => TEXTS.email), { exact: true }).fill(email);
        for (const box of await page.getByRole("checkbox").all()) await box.check();
        await page.getByRole("button", { name: t(() => TEXTS.sendLoginLink) }).click();
        await page.getByText(t(() => TEXTS.checkEmail)).waitFor();
        const link = await mailedLink(email, { onboarding: true });
        const mail = (await listOutbox()).find((m) => m.to === email);
        assert.equal(mail?.subject, t(() => phrase("Your login link")), `the login mail in ${lang}`);

        // Onboarding: name and birthdate, no picture yet, a characteristic, the spot near Phoenix.
        await go(link);
        await page.waitForURL(`${h.origin}/welcome`);
        await waitHydrated(page);
        await page.getByText(t(() => SCREEN_TEXTS.stepOf(1, 4))).waitFor();
        await page.getByLabel(t(() => TEXTS.name), { exact: true }).fill(`Journey ${i}`);
        await page.getByLabel(t(() => TEXTS.birthdateLabel)).fill("1990-05-06");
        await page.getByRole("button", { name: t(() => SCREEN_TEXTS.next) }).click();
        await page.getByText(t(() => SCREEN_TEXTS.stepOf(2, 4))).waitFor();
        await page.getByRole("button", { name: t(() => SCREEN_TEXTS.skip) }).click();
        await page.getByText(t(() => SCREEN_TEXTS.stepOf(3, 4))).waitFor();
        await page.getByRole("checkbox", { name: t(() => phrase("Coffee")) }).check();
        await page.getByRole("button", { name: t(() => SCREEN_TEXTS.next) }).click();
        await page.getByText(t(() => SCREEN_TEXTS.stepOf(4, 4))).waitFor();
        await page.getByRole("button", { name: t(() => SCREEN_TEXTS.finish) }).click();

        // The grid, with the neighbour; their profile.
        await page.waitForURL(`${h.origin}/search/tile`);
        await waitHydrated(page);
        await page.getByRole("heading", { name: t(() => titleText("Profile Tiles")), level: 1 }).waitFor();
        await page.locator(".tab-bar").getByText(t(() => TEXTS.tabs.grid)).waitFor();
        if (lang === "ar") await shot(page, "lang-ar-grid");
        await page.getByRole("link", { name: NEIGHBOUR }).first().click();
        await page.waitForURL(new RegExp(`/profile/${other.defaultProfileId}`));
        await waitHydrated(page);

        // Like, then write.
        await page.getByRole("button", { name: t(() => TEXTS.like) }).click();
        await page.getByRole("button", { name: t(() => TEXTS.removeLike) }).waitFor();
        const box = page.getByRole("textbox", { name: t(() => TEXTS.message) });
        assert.equal(await box.getAttribute("placeholder"), t(() => phrase("Message {name}", { name: NEIGHBOUR })));
        await box.fill(`Hello from ${lang}`);
        await page.getByRole("button", { name: t(() => TEXTS.send), exact: true }).click();
        await page.getByRole("log").getByText(`Hello from ${lang}`).waitFor();
        if (lang === "ar") {
          // A member's own words keep their own direction in a right-to-left page, waiting or delivered
          // (the waiting bubble is replaced by the delivered one, so the delivered one is measured).
          // Found and measured in one step in the page, so a re-render between the two cannot detach it.
          const direction = await page.waitForFunction((text) => {
            const el = [...document.querySelectorAll("[role=log] .bubble:not(.queued) .text")]
              .find((e) => e.textContent === text && e.isConnected);
            return el ? getComputedStyle(el).direction : "";
          }, `Hello from ${lang}`);
          assert.equal(await direction.jsonValue(), "ltr");
          await shot(page, "lang-ar-profile");
        }

        // Settings: each language in its own name; another one chosen, the next page follows it.
        await go("/settings");
        await page.getByRole("heading", { name: t(() => titleText("Account Settings")), level: 1 }).waitFor();
        const select = page.locator(".settings-section select");
        const names = await select.locator("option").allTextContents();
        for (const l of LOCALES) assert.ok(names.includes(LOCALE_NAMES[l]), `${LOCALE_NAMES[l]} listed in ${lang}`);
        const next = LOCALES[(i + 1) % LOCALES.length];
        const reloaded = page.waitForEvent("load");
        await select.selectOption(next);
        await reloaded;
        await waitHydrated(page);
        await page.getByRole("heading", { name: withLocale(next, () => titleText("Account Settings")), level: 1 })
          .waitFor();
        assert.equal(await page.getAttribute("html", "lang"), next);
        assert.equal(await page.getAttribute("html", "dir"), dir(next));
        await context.close();
      });
    } finally {
      await h.close();
    }
  },
});
