/**
 * How the app feels on a phone and a desktop: the photo-first profile (opens at its top,
 * the first picture full width at 4:5, swiped through with dots, the action bar at the thumb),
 * the full-height chat screen (header, one-line composer that grows, Enter sends, Shift+Enter a
 * new line, back to the profile) and the conversation list (bold unread with a count, "2 min",
 * "Yesterday", two lines of preview).
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { logInThroughApi, shot, sinceYesterdayNoon, startHarness, type ViewportName, VIEWPORTS } from "./harness.ts";
import { createAccount, getAccountByEmail } from "../../kv/accounts.ts";
import { updateProfile } from "../../kv/profiles.ts";
import { addPicture } from "../../kv/pictures.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { sendPrivateMessage } from "../../kv/messages.ts";
import { resetClock, shiftClock } from "../../kv/clock.ts";
import { portraitPicture } from "../fixtures/pictures.ts";
import { SCREEN_TEXTS } from "../../domain/screenTexts.ts";
import { TEXTS } from "../../domain/texts.ts";
import { FEEL_TEXTS } from "../../domain/feelTexts.ts";

const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;

for (const vp of ["phone", "desktop"] as ViewportName[]) {
  Deno.test(`e2e ${vp} - photo-first profile, full-height chat, conversation list`, async () => {
    const h = await startHarness();
    try {
      const { context, page } = await h.newPage(vp);
      const email = `feel-${vp}@example.com`;
      await logInThroughApi(context, h.origin, email);
      const me = (await getAccountByEmail(email))!.defaultProfileId;
      await reportPosition(me, { lat: 33.4484, lon: -112.074, use: "OVERRIDE", hide: false });
      const sam = (await createAccount({ email: `feel-sam-${vp}@example.com`, name: "Sam" }))!.defaultProfileId;
      await updateProfile(sam, {
        profilename: "Sam",
        birthdate: "1991-06-02",
        characteristics: ["coffee"],
        description: "Coffee first.\n".repeat(40),
      });
      for (let i = 0; i < 3; i++) await addPicture(sam, await portraitPicture(i));
      await reportPosition(sam, { lat: 33.4584, lon: -112.074, use: "OVERRIDE", hide: false });
      const alex = (await createAccount({ email: `feel-alex-${vp}@example.com`, name: "Alex" }))!.defaultProfileId;
      shiftClock(-sinceYesterdayNoon());
      await sendPrivateMessage(alex, me, "See you around.", []);
      resetClock();
      shiftClock(-2 * 60_000 - 5_000);
      await sendPrivateMessage(sam, me, "Hey! " + "A long message that goes on and on. ".repeat(8), []);
      resetClock();

      // --- the conversation list: Sam unread, bold, with a count; Alex read yesterday
      await page.goto("/chat/personal");
      const samRow = page.locator(".conversations > li", { hasText: "Sam" });
      await samRow.locator(".unread-count", { hasText: "1" }).waitFor();
      assert.equal(await samRow.getAttribute("class"), "unread");
      await samRow.locator(".when", { hasText: SCREEN_TEXTS.minutes(2) }).waitFor();
      const alexRow = page.locator(".conversations > li", { hasText: "Alex" });
      await alexRow.locator(".when", { hasText: SCREEN_TEXTS.yesterday }).waitFor();
      const lineHeight = await samRow.locator(".snippet").evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
      const snippetHeight = (await samRow.locator(".snippet").boundingBox())!.height;
      assert.ok(Math.abs(snippetHeight - 2 * lineHeight) < 2, `two lines of preview (${snippetHeight} px)`);
      assert.ok(
        await samRow.locator(".conversation-name").evaluate((el) => Number(getComputedStyle(el).fontWeight) >= 700),
        "bold",
      );
      await shot(page, `${vp}-feel-conversations`);

      // --- the profile opens at its top: the name in view, the first picture at 4:5
      await page.goto(`/profile/${sam}`);
      await page.waitForFunction(() => [...document.images].slice(0, 1).every((i) => i.complete));
      assert.equal(await page.evaluate(() => scrollY), 0, "not scrolled");
      const hero = await box(page, ".profile-hero");
      assert.ok(Math.abs(hero.width / hero.height - 0.8) < 0.02, `4:5 (${hero.width}×${hero.height})`);
      if (vp === "phone") assert.equal(Math.round(hero.width), VIEWPORTS.phone.width, "full width");
      const name = await box(page, ".hero-caption h1");
      assert.ok(name.y > 0 && name.y + name.height <= VIEWPORTS[vp].height, "the name is in view");
      assert.equal(await page.locator(".hero-caption").textContent(), "Sam35");
      await page.getByText(SCREEN_TEXTS.away("")).first().waitFor();
      const dots = page.locator(".hero-dot");
      assert.equal(await dots.count(), 3);
      assert.equal(await dots.first().getAttribute("aria-current"), "true");
      // Swipe (the track scrolls sideways) to the second picture: its dot lights.
      await page.locator(".hero-track").evaluate((el) => el.scrollTo({ left: el.clientWidth }));
      await page.locator(".hero-dot").nth(1).and(page.locator("[aria-current=true]")).waitFor();
      // A dot goes to its picture.
      await dots.nth(2).click();
      await page.locator(".hero-dot").nth(2).and(page.locator("[aria-current=true]")).waitFor();
      // The action bar: at the bottom of the screen on a phone, above the tab bar.
      const bar = await box(page, ".profile-bar");
      if (vp === "phone") {
        const tabs = await box(page, ".tab-bar");
        assert.ok(
          Math.abs(bar.y + bar.height - tabs.y) < 2,
          `the bar sits on the tab bar (${JSON.stringify([bar, tabs])})`,
        );
        await page.evaluate(() => scrollTo(0, 600));
        assert.equal((await box(page, ".profile-bar")).y, bar.y, "it stays at the thumb");
      }
      await shot(page, `${vp}-feel-profile`);
      await page.locator(".profile-bar").getByRole("link", { name: SCREEN_TEXTS.notes }).click();
      await page.getByLabel(TEXTS.note, { exact: true }).waitFor();
      await page.locator(".profile-bar").getByRole("link", { name: SCREEN_TEXTS.actions }).click();
      await page.getByRole("button", { name: TEXTS.blockIgnore }).waitFor();

      // --- the chat screen: full height, the header, a one-line composer that grows
      await page.locator(".profile-bar").getByRole("link", { name: SCREEN_TEXTS.chat }).click();
      const chat = page.locator(".chat");
      await page.waitForFunction(() => getComputedStyle(document.querySelector(".chat")!).position === "fixed");
      const screen = (await chat.boundingBox())!;
      assert.equal(Math.round(screen.y + screen.height), VIEWPORTS[vp].height, "to the bottom of the screen");
      if (vp === "phone") assert.equal(Math.round(screen.height), VIEWPORTS.phone.height, "the whole screen");
      await chat.locator(".chat-head .avatar img").waitFor();
      await chat.locator(".chat-head h2", { hasText: "Sam" }).waitFor();
      // The timeline: today's divider, and the time the run of messages started.
      await chat.locator(".day-divider", { hasText: FEEL_TEXTS.today }).waitFor();
      assert.equal(await chat.locator(".run-time").count(), 1, "one run: one time");
      const text = page.getByRole("textbox", { name: "Message" });
      const oneLine = (await text.boundingBox())!.height;
      assert.ok(oneLine < 50, `one line (${oneLine} px)`);
      await text.click();
      await page.keyboard.type("First line");
      await page.keyboard.press("Shift+Enter");
      await page.keyboard.type("second line");
      await page.keyboard.press("Shift+Enter");
      await page.keyboard.type("third line");
      assert.equal(await text.inputValue(), "First line\nsecond line\nthird line", "Shift+Enter: a new line");
      assert.ok((await text.boundingBox())!.height > oneLine * 1.8, "it grew");
      await shot(page, `${vp}-feel-chat-typing`);
      await page.keyboard.press("Enter");
      await page.locator(".bubble.mine", { hasText: "third line" }).waitFor();
      await page.keyboard.type("and a fourth");
      await page.keyboard.press("Enter");
      // Two of mine in a row: one group.
      await page.locator(".bubble.mine.grouped", { hasText: "and a fourth" }).waitFor();
      assert.equal(await text.inputValue(), "");
      assert.ok((await text.boundingBox())!.height < oneLine + 2, "back to one line");
      // The last message is in view, above the composer.
      const last = (await page.locator(".bubble.mine").last().boundingBox())!;
      assert.ok(last.y + last.height <= (await text.boundingBox())!.y, "the newest message in view");
      await shot(page, `${vp}-feel-chat`);
      // Back to the profile.
      await chat.getByRole("link", { name: SCREEN_TEXTS.viewProfile, exact: true }).click();
      await page.waitForFunction(() => getComputedStyle(document.querySelector(".chat")!).position !== "fixed");
      await page.locator(".hero-caption h1").waitFor();
      await context.close();
    } finally {
      resetClock();
      await h.close();
    }
  });
}
