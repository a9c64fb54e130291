/**
 * A tile (or a list card, or the swipe deck's View Profile) opens its profile in the page (islands/inPage.ts): no page load, the address, the
 * title, the header and the tab bar follow, the profile's islands work, its next profile opens in
 * the page too; Back shows the grid as it
 * was left (its scroll, its tiles) and Forward loads the profile; a profile that can no longer be
 * shown (its member blocked the viewer meanwhile) opens as an ordinary link does.
 */

import assert from "node:assert/strict";
import { logInThroughApi, placeOnSpiral, shot, startHarness, waitHydrated } from "./harness.ts";
import { createAccount, getAccountByEmail } from "../../kv/accounts.ts";
import { updateProfile } from "../../kv/profiles.ts";
import { addPicture } from "../../kv/pictures.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { putProfileLike } from "../../kv/likes.ts";
import { portraitPicture } from "../fixtures/pictures.ts";
import { TEXTS } from "../../domain/texts.ts";
import { FEEL_TEXTS } from "../../domain/feelTexts.ts";
import { LOADING_YOUR_PROFILE } from "../../routes/pages/profile.tsx";

const HOME = { lat: 40.4168, lon: -3.7038 };

Deno.test("e2e phone - a tile, a list card or the deck's View Profile opens its profile in the page; Back shows the screen as it was left", async () => {
  const h = await startHarness();
  try {
    const { context, page } = await h.newPage("phone");
    await logInThroughApi(context, h.origin, "in-page@example.com");
    const me = (await getAccountByEmail("in-page@example.com"))!.defaultProfileId;
    await reportPosition(me, { ...HOME, use: "OVERRIDE", hide: false });
    // 30 members around: the grid scrolls; the 25th and 26th have pictures.
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const id = (await createAccount({ email: `in-page-${i}@example.com`, name: `Member ${i}` }))!.defaultProfileId;
      await updateProfile(id, { profilename: `Member ${i}`, birthdate: "1990-01-01" });
      if (i === 24 || i === 25) await addPicture(id, await portraitPicture(i));
      await placeOnSpiral(id, HOME, i, { start: 0.004, step: 0.002 });
      ids.push(id);
    }
    const [pictured, blocker] = [ids[24], ids[25]];

    await page.goto("/search/tile");
    await waitHydrated(page);
    await page.waitForFunction(() => document.querySelectorAll(".tiles > li").length === 30);
    await page.evaluate(() => (globalThis as unknown as { samePage: boolean }).samePage = true);
    const samePage = () => page.evaluate(() => (globalThis as unknown as { samePage?: boolean }).samePage === true);
    const grid = page.getByRole("link", { name: TEXTS.tabs.grid });
    assert.equal(await grid.getAttribute("aria-current"), "page");

    // Scrolled down the grid, a tap on a tile opens the profile in this page.
    const tile = page.locator(`a.tile[href="/profile/${pictured}"]`);
    await tile.scrollIntoViewIfNeeded();
    const gridY = await page.evaluate(() => scrollY);
    const gridTitle = await page.title();
    assert.ok(gridY > 100, `the grid scrolled (${gridY})`);
    await tile.click();
    await page.waitForURL(`${h.origin}/profile/${pictured}`);
    await page.locator(".hero-caption h1", { hasText: "Member 24" }).waitFor();
    assert.ok(await samePage(), "no page load");
    assert.equal(await page.title(), "Member 24 · Lambda");
    assert.equal(await page.evaluate(() => scrollY), 0, "the profile opens at its top");
    await page.waitForFunction(() => {
      const photo = document.querySelector<HTMLImageElement>("img[elementtiming=profile-photo]");
      return photo?.complete && photo.naturalWidth > 0;
    });
    assert.equal(await grid.getAttribute("aria-current"), null, "the grid tab is no longer the current one");
    // The header is the profile's: no grid title in the top bar.
    assert.equal(await page.locator(".app-header .screen-title").count(), 0);
    // Its islands work: Like is saved, and the button turns to Remove Like.
    await page.locator(".profile-page [data-island][data-hydrated]").first().waitFor();
    await page.getByRole("button", { name: TEXTS.like, exact: true }).click();
    await page.getByRole("button", { name: TEXTS.removeLike }).waitFor();
    await shot(page, "phone-in-page-profile");

    // The next profile of the grid opens in the page too; Back shows this one again as it was.
    const next = page.getByRole("link", { name: FEEL_TEXTS.nextProfile });
    const nextHref = (await next.getAttribute("href"))!;
    await next.click();
    await page.waitForURL(h.origin + nextHref);
    await page.getByRole("link", { name: FEEL_TEXTS.previousProfile }).waitFor();
    assert.notEqual(await page.locator(".hero-caption h1").textContent(), "Member 24");
    assert.ok(await samePage(), "the next profile: no page load");
    await page.goBack();
    await page.waitForURL(`${h.origin}/profile/${pictured}`);
    await page.locator(".hero-caption h1", { hasText: "Member 24" }).waitFor();
    await page.getByRole("button", { name: TEXTS.removeLike }).waitFor();

    // Back: the grid as it was left, in the same page, scrolled where it was.
    await page.goBack();
    await page.waitForURL(`${h.origin}/search/tile`);
    await page.locator(".tiles").waitFor();
    assert.ok(await samePage(), "Back is no page load either");
    assert.equal(await page.locator(".tiles > li").count(), 30, "the grid's tiles are all there");
    assert.equal(await page.evaluate(() => scrollY), gridY, "scrolled where it was");
    assert.equal(await grid.getAttribute("aria-current"), "page");
    assert.equal(await page.locator(".hero-caption").count(), 0, "the profile is gone");
    assert.equal(await page.title(), gridTitle);

    // Forward: the profile again, from the server, with the like kept.
    await page.goForward();
    await page.waitForURL(`${h.origin}/profile/${pictured}`);
    await page.getByRole("button", { name: TEXTS.removeLike }).waitFor();
    assert.ok(!(await samePage()), "Forward loads the profile");

    // The list's cards and the swipe deck's View Profile open in the page too.
    for (
      const [screen, link] of [
        ["/search/profile", ".profile-card a.name-cut"],
        ["/search/swype", "a.view-profile"],
      ]
    ) {
      await page.goto(screen);
      await waitHydrated(page);
      await page.evaluate(() => (globalThis as unknown as { samePage: boolean }).samePage = true);
      const href = (await page.locator(link).first().getAttribute("href"))!;
      await page.locator(link).first().click();
      await page.waitForURL(h.origin + href);
      await page.locator(".hero-caption h1").waitFor();
      assert.ok(await samePage(), `${screen}: no page load`);
      await page.goBack();
      await page.waitForURL(h.origin + screen);
      assert.ok(await samePage(), `${screen}: Back is no page load`);
    }

    // A member who blocks the viewer while the grid shows them: the tap opens as a link does, which
    // leads to the viewer's own profile (spec §2), never the blocker's.
    await page.goto("/search/tile");
    await waitHydrated(page);
    await page.locator(`a.tile[href="/profile/${blocker}"]`).waitFor();
    await putProfileLike(blocker, me, "DISLIKE", true);
    await page.locator(`a.tile[href="/profile/${blocker}"]`).click();
    await page.getByText(LOADING_YOUR_PROFILE).or(page.locator(`.profile-page`)).first().waitFor();
    await page.waitForURL(`${h.origin}/profile/${me}`);
    assert.notEqual(await page.locator(".hero-caption h1").textContent(), "Member 25");
    await context.close();
  } finally {
    await h.close();
  }
});
