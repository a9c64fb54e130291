/**
 * Profiles and pictures in a real browser, phone and desktop: edit the profile (save on blur,
 * checkboxes on change, 'Saved' for 1 s, the counter), upload pictures (and a refused file),
 * crop one, reorder by dragging, drag one into Private Pics, flag one NSFW, view the profile
 * (collapsed biography), the carousel, and the redirect of an invalid profile id.
 */

import { until } from "../wait.ts";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Locator, Page } from "playwright-core";
import { type Harness, logInThroughApi, shot, startHarness, type ViewportName, waitHydrated } from "./harness.ts";
import { fromRaw, phoneJpeg } from "../fixtures/pictures.ts";
import { NO_CHARACTERISTICS } from "../../domain/characteristics.ts";
import { EDITOR_TEXTS } from "../../islands/ProfileEditor.tsx";

/** A picture of one colour with a darker band, so pictures can be told apart in screenshots. */
async function swatch(r: number, g: number, b: number): Promise<Buffer> {
  const w = 600, h = 750;
  const raw = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const dark = y > h * 0.6 && y < h * 0.75 ? 0.5 : 1;
      raw.set([r * dark, g * dark, b * dark], (y * w + x) * 3);
    }
  }
  return Buffer.from(await fromRaw(raw, w, h).png().toBuffer());
}

async function api<T>(page: Page, path: string): Promise<T> {
  return await page.evaluate(async (p) => await (await fetch(p)).json(), path) as T;
}

interface Mine {
  id: string;
  profilename: string;
  height: string;
  characteristics: string[];
  description: string;
  profilePicIds: string[];
  profilePicIdsPrivate: string[];
  pictures: { id: string; nsfw: boolean; v: string }[];
}
const mine = async (page: Page) => (await api<Mine[]>(page, "/api/profiles/mine"))[0];

/** Waits until every picture on the page has loaded (before a screenshot). */
async function imagesLoaded(page: Page) {
  await page.waitForFunction(() => [...document.images].every((i) => i.complete && i.naturalWidth > 0));
}

/** Scrolls an element to just below the sticky header, so a drag from it can reach what follows. */
async function scrollToTop(el: Locator) {
  await el.evaluate((e) => scrollBy(0, e.getBoundingClientRect().top - 70));
}

async function upload(page: Page, name: string, mimeType: string, buffer: Buffer) {
  await page.goto("/profilePicUpload");
  await page.locator("input[type=file]").setInputFiles({ name, mimeType, buffer });
}

/**
 * Chooses, on the upload page, a file of `size` zero bytes made in the page (a File put in the
 * input through a DataTransfer, then the input and change events a file chooser sends): for a file
 * the page refuses by its name, type and size alone, before anything is sent. `setInputFiles` would
 * send its bytes over the DevTools protocol, base64 encoded, for the renderer to decode: megabytes
 * that cost Chromium more than the page's whole check.
 */
async function chooseMadeInPage(page: Page, name: string, type: string, size: number) {
  await page.goto("/profilePicUpload");
  await page.locator("input[type=file]").evaluate((input: HTMLInputElement, f) => {
    const files = new DataTransfer();
    files.items.add(new File([new Uint8Array(f.size)], f.name, { type: f.type }));
    input.files = files.files;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }, { name, type, size });
}

/** Drags with the mouse from one element's centre to another's, in small steps (pointer events). */
async function dragTo(page: Page, from: Locator, to: Locator) {
  const a = (await from.boundingBox())!, b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  const steps = 12;
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(
      a.x + a.width / 2 + (b.x + b.width / 2 - a.x - a.width / 2) * i / steps,
      a.y + a.height / 2 + (b.y + b.height / 2 - a.y - a.height / 2) * i / steps,
    );
  }
  await page.mouse.up();
}

for (const vp of ["phone", "desktop"] as ViewportName[]) {
  Deno.test(`e2e ${vp} - edit a profile, upload, crop, reorder and hide pictures, view it`, async () => {
    const h: Harness = await startHarness();
    try {
      const { context, page } = await h.newPage(vp);
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      const me = { id: (await logInThroughApi(context, h.origin, `profile-${vp}@example.com`)).profileId };

      // The device's stored query cache is read once a page, however many islands the page has.
      await context.addInitScript(() => {
        const read = Storage.prototype.getItem, counted = globalThis as { cacheReads?: number };
        counted.cacheReads = 0;
        Storage.prototype.getItem = function (key: string) {
          if (key === "app-query-cache") counted.cacheReads!++;
          return read.call(this, key);
        };
      });

      // An empty profile: 'i'm so boring'.
      await page.goto(`/profile/${me.id}`);
      await page.getByText(NO_CHARACTERISTICS).waitFor();
      assert.deepEqual(
        await page.evaluate(() => ({
          islands: document.querySelectorAll("[data-island]:not([data-island=Header])").length >= 2,
          reads: (globalThis as { cacheReads?: number }).cacheReads,
        })),
        { islands: true, reads: 1 },
      );

      // --- the editor: fields save on blur, 'Saved' shows for about a second
      await page.goto("/profileEdit");
      assert.equal(await page.title(), "Profile Editor · Lambda");
      await page.getByRole("link", { name: "View My Profile" }).waitFor();
      await page.getByRole("link", { name: "Account Settings" }).waitFor();
      await page.getByText(EDITOR_TEXTS.nsfwHidden).waitFor();
      await page.getByLabel("Name").fill("Robin Rainbow");
      await page.getByLabel("Height").click(); // blur the name
      const saved = page.getByRole("status").filter({ hasText: /^Saved$/ });
      await saved.waitFor();
      const shownAt = Date.now();
      await saved.waitFor({ state: "hidden" });
      const shownMs = Date.now() - shownAt;
      assert.ok(shownMs > 500 && shownMs < 3000, `'Saved' showed ${shownMs} ms`);
      assert.equal((await mine(page)).profilename, "Robin Rainbow");

      await page.getByLabel("Height").fill(`5'11"`);
      await page.getByLabel("Weight").fill("165 lb");
      await page.getByLabel("Birthdate").fill("1990-04-02");
      const bio = [
        "Coffee snob, weekend hiker and terrible at karaoke.",
        "Looking for good conversation, long walks and someone who laughs at my puns.",
        "",
        ...Array.from({ length: 12 }, (_, i) => `Line ${i + 1}: more about me than anyone needs to know.`),
      ].join("\n");
      await page.getByLabel("Description").fill(bio);
      await page.getByText(`${bio.length}/4000`).waitFor();
      // A checkbox saves on change.
      await page.getByRole("checkbox", { name: "Versatile" }).check();
      await saved.waitFor();
      await page.getByRole("checkbox", { name: "PrEP" }).check();
      await page.getByRole("checkbox", { name: "Coffee" }).check();
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await saved.waitFor();
      await until(async () => {
        const p = await mine(page);
        return p.characteristics.length === 3 && p.description.length > 100;
      }, "the fields are saved");
      const afterFields = await mine(page);
      assert.deepEqual(afterFields.characteristics.sort(), ["coffee", "prep", "versatile"]);
      assert.equal(afterFields.height, `5'11"`);
      await shot(page, `${vp}-profile-editor-fields`);

      // A name cannot be emptied.
      await page.getByLabel("Name").fill("");
      await page.getByLabel("Weight").click();
      await page.getByText("Name is required.").waitFor();
      await page.getByLabel("Name").fill("Robin Rainbow");

      // --- uploads: a refused file, then three pictures
      await upload(page, "notes.jpg", "image/jpeg", Buffer.from("just some text, not a picture"));
      await page.getByText(/^Error: .*not a PNG, JPEG or WebP/).waitFor();
      await shot(page, `${vp}-upload-error`);
      await chooseMadeInPage(page, "huge.png", "image/png", 8_192_001);
      await page.getByText(/^Error: .*the limit is 8,192,000 bytes/).waitFor();

      // 'Uploaded' shows for 2 s, then the page leaves for the editor: both moments taken in the
      // page (a test polling from outside sees them late by the machine's load), kept across the
      // navigation in session storage.
      await page.goto("/profilePicUpload");
      await page.evaluate(() => {
        new MutationObserver((_, o) => {
          if (!document.body.textContent?.includes("Uploaded")) return;
          sessionStorage.setItem("uploadedAt", String(Date.now()));
          o.disconnect();
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
        addEventListener("beforeunload", () => sessionStorage.setItem("leftAt", String(Date.now())));
      });
      await page.locator("input[type=file]").setInputFiles({
        name: "IMG_0001.jpg",
        mimeType: "image/jpeg",
        buffer: Buffer.from(await phoneJpeg()),
      });
      await page.getByText("Uploaded", { exact: true }).waitFor();
      await shot(page, `${vp}-upload-done`);
      await page.waitForURL(h.origin + "/profileEdit");
      await waitHydrated(page);
      const backMs = await page.evaluate(() =>
        Number(sessionStorage.getItem("leftAt")) - Number(sessionStorage.getItem("uploadedAt"))
      );
      assert.ok(backMs >= 1900 && backMs < 3000, `back to the editor after ${backMs} ms`);
      const swatches: [string, number, number, number][] = [["green.png", 40, 170, 90], ["purple.png", 120, 60, 200]];
      for (const [name, r, g, b] of swatches) {
        await upload(page, name, "image/png", await swatch(r, g, b));
        await page.getByText("Uploaded", { exact: true }).waitFor();
        await page.waitForURL(h.origin + "/profileEdit");
        await waitHydrated(page);
      }
      const publicList = page.locator("[data-pic-list=public]");
      const cards = publicList.locator(".pic-card");
      assert.equal(await cards.count(), 3);
      const [first, second, third] = (await mine(page)).profilePicIds;
      await imagesLoaded(page);
      await shot(page, `${vp}-profile-editor-pictures`);

      // --- crop the first picture: pan, zoom, rotate, Save back to the editor
      await cards.first().getByRole("link", { name: "Crop" }).click();
      await page.waitForURL(/\/profilePicEdit\?id=/);
      await waitHydrated(page);
      const frame = page.locator(".crop-frame");
      await frame.waitFor();
      await imagesLoaded(page);
      await page.locator(".zoom input").fill("1.6");
      await page.getByRole("button", { name: "Rotate right" }).click();
      await dragTo(page, frame, page.locator(".crop-preview"));
      assert.equal(Math.round((await page.locator(".crop-preview").boundingBox())!.width), 80, "80 px preview");
      await shot(page, `${vp}-crop-editor`);
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.waitForURL(h.origin + "/profileEdit");
      await waitHydrated(page);
      const meta = await api<{ crop: { width: number; height: number; rotate: number }; v: string }>(
        page,
        `/api/profile/pic/${first}`,
      );
      assert.equal(meta.crop.rotate, 90);
      assert.ok(Math.abs(meta.crop.width / meta.crop.height - 0.8) < 0.01, JSON.stringify(meta.crop));
      // Cancel goes back without saving.
      await page.goto(`/profilePicEdit?id=${second}`);
      await page.getByRole("link", { name: "Cancel" }).click();
      await page.waitForURL(h.origin + "/profileEdit");
      await waitHydrated(page);

      // --- reorder: drag the third picture onto the first place
      await scrollToTop(cards.nth(0));
      await dragTo(page, cards.nth(2).locator(".drag-handle"), cards.nth(0).locator(".tile"));
      await page.getByText(EDITOR_TEXTS.savedImages).waitFor();
      assert.deepEqual((await mine(page)).profilePicIds, [third, first, second]);

      // --- move to private: drag the last public picture into Private Pics
      const privateList = page.locator("[data-pic-list=private]");
      await scrollToTop(cards.nth(2));
      await dragTo(page, cards.nth(2).locator(".drag-handle"), privateList);
      await until(async () => (await mine(page)).profilePicIdsPrivate.includes(second), "the picture is private");
      const lists = await mine(page);
      assert.deepEqual([lists.profilePicIds, lists.profilePicIdsPrivate], [[third, first], [second]]);
      await page.getByText(EDITOR_TEXTS.savedImages).waitFor();
      await imagesLoaded(page);
      await shot(page, `${vp}-profile-editor-private`);

      // --- the keyboard way: move earlier
      await publicList.locator(".pic-card").nth(1).getByRole("button", { name: "Move earlier" }).click();
      await until(async () => (await mine(page)).profilePicIds[0] === first, "moved earlier");

      // --- NSFW: flagging locks the picture while NSFW is hidden on this device
      await publicList.locator(".pic-card").nth(1).getByRole("checkbox", { name: "NSFW" }).click();
      await publicList.locator(".pic-card").nth(1).locator(".pic-badge").waitFor();
      assert.equal(await publicList.locator(".pic-card").nth(1).locator(".drag-handle").count(), 0);
      await shot(page, `${vp}-profile-editor-nsfw`);

      // --- the profile as others see it: pictures, facts, characteristics, collapsed biography
      await page.getByRole("link", { name: "View My Profile" }).click();
      await page.waitForURL(`${h.origin}/profile/${me.id}`);
      await waitHydrated(page);
      await page.getByRole("heading", { name: "Robin Rainbow" }).waitFor();
      await page.getByText(/Height 5'11"/).waitFor();
      await page.getByText("PrEP", { exact: true }).waitFor();
      const more = page.getByRole("button", { name: "Show More Biography" });
      await more.waitFor();
      const collapsed = (await page.locator(".bio").boundingBox())!.height;
      await imagesLoaded(page);
      await shot(page, `${vp}-profile-view`);
      await more.click();
      const open = (await page.locator(".bio").boundingBox())!.height;
      assert.ok(open > collapsed * 1.3, `expanded ${collapsed} → ${open}`);
      await page.getByRole("button", { name: "Show Less Biography" }).waitFor();

      // --- the carousel (from the first picture at the top): Prev disabled at the start, Next to the end, View Profile
      await page.locator(".profile-hero a.hero-slide").first().click();
      await page.waitForURL(/\/profilePicCarousel\?/);
      await waitHydrated(page);
      const prev = page.getByRole("button", { name: "Prev" }), next = page.getByRole("button", { name: "Next" });
      assert.equal(await prev.isDisabled(), true);
      await next.click();
      assert.equal(await next.isDisabled(), true, "two public pictures: the end");
      assert.equal(await prev.isDisabled(), false);
      await imagesLoaded(page);
      await shot(page, `${vp}-carousel`);
      await page.getByRole("link", { name: "View Profile" }).click();
      await page.waitForURL(`${h.origin}/profile/${me.id}`);
      await waitHydrated(page);
      await page.goto("/profilePicCarousel?profileId=" + me.id);
      await page.getByRole("status").filter({ hasText: "Loading..." }).waitFor();
      // Its shimmer ends: a placeholder left open does not keep the phone drawing frames.
      assert.deepEqual(
        await page.evaluate(() =>
          document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime === Infinity)
            .map((a) => (a as CSSAnimation).animationName)
        ),
        [],
      );

      // --- an invalid profile id leads to one's own profile
      await page.goto("/profile/not-a-profile");
      await page.waitForURL(`${h.origin}/profile/${me.id}`);
      await waitHydrated(page);
      await page.getByRole("heading", { name: "Robin Rainbow" }).waitFor();

      assert.deepEqual(errors, [], "no script errors");
    } finally {
      await h.close();
    }
  });
}
