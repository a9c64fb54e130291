/**
 * Likes, notes and blocking in a real browser, phone and desktop: A likes B on B's profile page,
 * B sees A under 'Liked You' and switches tabs in place; A writes a note with tags; A rates B's
 * pictures; A blocks B and goes home after 'Blocked and Redirecting...'.
 */

import { until } from "../wait.ts";
import assert from "node:assert/strict";
import { FEEL_TEXTS } from "../../domain/feelTexts.ts";
import { UI_TEXTS } from "../../domain/uiTexts.ts";
import type { Page, Route } from "playwright-core";
import { type Harness, logInThroughApi, shot, startHarness, type ViewportName, waitHydrated } from "./harness.ts";
import { TEXTS } from "../../domain/texts.ts";
import { getProfile } from "../../kv/profiles.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { getNote } from "../../kv/notes.ts";
import { createAccount } from "../../kv/accounts.ts";
import { isBlockedEither } from "../../kv/blocks.ts";
import { getPicLikes } from "../../kv/likes.ts";
import sharp from "sharp";

/** Names a member (the profile editor is another part's screen; the store is quicker here). */
async function rename(profileId: string, profilename: string) {
  const p = (await getProfile(profileId))!;
  await kv().set(keys.profile(profileId), { ...p, profilename });
}

/** A portrait JPEG of a soft two-colour gradient, as base64. */
async function portrait(from: string, to: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="1000">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="800" height="1000" fill="url(#g)"/>
    <circle cx="400" cy="380" r="170" fill="rgba(255,255,255,.35)"/>
    <rect x="210" y="590" width="380" height="420" rx="190" fill="rgba(255,255,255,.35)"/></svg>`;
  const jpeg = await sharp(new TextEncoder().encode(svg)).jpeg({ quality: 85 }).toBuffer();
  return jpeg.toString("base64");
}

/** Uploads pictures as the member of `page` through the upload call; returns their ids. */
async function upload(page: Page, profileId: string, pictures: string[]): Promise<string[]> {
  return await page.evaluate(async ({ profileId, pictures }) => {
    const ids: string[] = [];
    for (const [i, b64] of pictures.entries()) {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const fd = new FormData();
      fd.set("authorProfileId", profileId);
      fd.set("picfile", new Blob([bytes], { type: "image/jpeg" }), `p${i}.jpg`);
      fd.set("picfilename", `p${i}.jpg`);
      const r = await fetch("/api/profile-pic", { method: "POST", body: fd });
      if (r.status !== 201) throw new Error(`upload answered ${r.status}`);
      ids.push((await r.json()).id);
    }
    return ids;
  }, { profileId, pictures });
}

for (const vp of ["phone", "desktop"] as ViewportName[]) {
  Deno.test(`e2e ${vp} - like a profile, Liked You tabs, a note with tags, block and go home`, async () => {
    const h: Harness = await startHarness();
    try {
      const a = await h.newPage(vp), b = await h.newPage(vp);
      // The two members register at once (through the API: their pages' first loads are the likes').
      const [aId, bId] = (await Promise.all([
        logInThroughApi(a.context, h.origin, `a-${vp}@example.com`),
        logInThroughApi(b.context, h.origin, `b-${vp}@example.com`),
      ])).map((m) => m.profileId);
      await rename(aId, "Alexander the Great");
      await rename(bId, "Bea");

      // B has no likes yet: the spec's empty text.
      await b.page.goto("/likes/profilelikedyou");
      await b.page.getByText(TEXTS.likedYouEmpty).waitFor();
      await shot(b.page, `${vp}-likes-empty`);

      // A likes B on B's profile page.
      await a.page.goto(`/profile/${bId}`);
      const like = a.page.getByRole("button", { name: TEXTS.like, exact: true });
      await like.click();
      await a.page.getByRole("button", { name: TEXTS.removeLike }).waitFor();
      await shot(a.page, `${vp}-profile-liked`);
      await a.page.reload();
      await a.page.getByRole("button", { name: TEXTS.removeLike }).waitFor();

      // B sees A under 'Liked You', name cut to 12 characters, with the end text.
      await b.page.goto("/likes/profilelikedyou");
      const tile = b.page.locator("ul.tiles a.tile").first();
      await tile.waitFor();
      assert.equal(await tile.getAttribute("href"), `/profile/${aId}`);
      assert.equal(await tile.locator(".tile-name").textContent(), "Alexander th");
      await b.page.getByText(TEXTS.thatsAllFolks).waitFor();
      assert.equal(await b.page.title(), "Liked You · Lambda");
      await shot(b.page, `${vp}-likes-liked-you`);

      // The tabs switch in place (no page load) and the address follows.
      await b.page.evaluate(() => (globalThis as unknown as { marker: number }).marker = 1);
      await b.page.getByRole("link", { name: "You Liked" }).click();
      await b.page.waitForURL(h.origin + "/likes/youlikedprofile");
      await b.page.getByText(TEXTS.youLikedEmpty).waitFor();
      await b.page.getByRole("link", { name: "Their Pics" }).click();
      await b.page.getByText(TEXTS.theirPicsEmpty).waitFor();
      await b.page.getByRole("link", { name: "Your Pics" }).click();
      await b.page.getByText(TEXTS.yourPicsEmpty).waitFor();
      assert.equal(await b.page.evaluate(() => (globalThis as unknown as { marker?: number }).marker), 1, "no reload");
      await shot(b.page, `${vp}-likes-your-pics`);
      await b.page.goBack();
      await b.page.waitForURL(h.origin + "/likes/youlikedprofilepics");

      // B has pictures; A rates them on the rate-swipe screen: Nice by button, Meh by swiping left, Skip.
      const pics = await upload(b.page, bId, [
        await portrait("#ff7a59", "#7b2ff7"),
        await portrait("#00c9a7", "#2f80ed"),
        await portrait("#f7b733", "#fc4a1a"),
      ]);
      await a.page.goto(`/profile/${bId}`);
      await a.page.getByRole("link", { name: "Rate Pictures" }).click();
      await a.page.waitForURL(/\/profilePicRateSwipe\?/);
      await waitHydrated(a.page);
      await a.page.getByText("Bea · 1 / 3").waitFor();
      await a.page.locator(".swipe-card img").evaluate((img: HTMLImageElement) =>
        img.complete ? null : new Promise((r) => img.addEventListener("load", r, { once: true }))
      );
      await shot(a.page, `${vp}-rate-swipe`);
      await a.page.getByRole("button", { name: "Nice" }).click();
      await a.page.getByText("Bea · 2 / 3").waitFor();
      const card = await a.page.locator(".swipe-card").boundingBox();
      assert.ok(card);
      const y = card.y + card.height / 2, x = card.x + card.width / 2;
      await a.page.mouse.move(x, y);
      await a.page.mouse.down();
      await a.page.mouse.move(x - 60, y, { steps: 4 });
      await a.page.mouse.move(x - card.width / 2, y, { steps: 4 });
      await a.page.mouse.up();
      await a.page.getByText("Bea · 3 / 3").waitFor();
      await a.page.getByRole("button", { name: "Skip" }).click();
      await a.page.getByText("You rated every picture of Bea.").waitFor();
      await a.page.getByRole("button", { name: "Prev" }).waitFor({ state: "detached" });
      await a.page.getByRole("button", { name: "Start Over" }).click();
      await a.page.getByText("You rated this Nice").waitFor();
      await shot(a.page, `${vp}-rate-swipe-rated`);
      // The page shows a rating at once and sends it behind (its outbox): the last one lands in a
      // moment, a store's round trips later (on a remote KV, tens of milliseconds).
      const ratedNow = async () => new Map((await getPicLikes(aId, pics)).map((l) => [l.profilePicId, l.likeType]));
      // Past the deadline the assertion below names what is missing.
      const rated = await until(
        async () => {
          const now = await ratedNow();
          return now.size >= 3 ? now : null;
        },
        "the three ratings stored",
        { timeoutMs: 5000, everyMs: 50 },
      ).catch(ratedNow);
      assert.deepEqual([rated.get(pics[0]), rated.get(pics[1]), rated.get(pics[2])], [
        "LIKE",
        "DISLIKE",
        "UNDETERMINED",
      ]);

      // Like / Remove Like on each picture in the carousel: the first is liked, A likes the second too.
      await a.page.goto(`/profile/${bId}`);
      await a.page.locator(`a[href^="/profilePicCarousel"]`).first().click();
      await a.page.waitForURL(/\/profilePicCarousel\?/);
      await waitHydrated(a.page);
      await a.page.getByRole("button", { name: TEXTS.removeLike }).waitFor();
      await a.page.getByRole("button", { name: "Next" }).click();
      await a.page.getByRole("button", { name: TEXTS.like, exact: true }).click();
      await a.page.getByRole("button", { name: TEXTS.removeLike }).waitFor();
      await shot(a.page, `${vp}-carousel-liked`);
      await until(async () => (await getPicLikes(aId, [pics[1]]))[0].likeType === "LIKE", "the picture like stored")
        .catch(() => {});
      assert.equal((await getPicLikes(aId, [pics[1]]))[0].likeType, "LIKE");

      // B sees the liked pictures under 'Your Pics'; A sees them under 'Their Pics'.
      await b.page.goto("/likes/profilelikedyourpics");
      await b.page.locator("ul.tiles a.tile img").first().waitFor();
      assert.equal(await b.page.locator("ul.tiles a.tile").count(), 2);
      await b.page.getByText(TEXTS.yourPicsEnd).waitFor();
      await shot(b.page, `${vp}-likes-your-pics-liked`);
      await a.page.goto("/likes/youlikedprofilepics");
      await a.page.locator("ul.tiles a.tile img").first().waitFor();
      await shot(a.page, `${vp}-likes-their-pics`);
      await a.page.goto(`/profile/${bId}`);

      // A writes a note with tags: Enter adds, duplicates and blanks are ignored.
      await a.page.getByRole("button", { name: "Add Private Notes" }).click();
      await a.page.getByLabel("Note", { exact: true }).fill("Met at the coffee place.");
      const tagInput = a.page.getByLabel("Tags", { exact: true });
      for (const t of ["funny", "  ", "Funny", " bear "]) {
        await tagInput.fill(t);
        await tagInput.press("Enter");
      }
      await a.page.getByRole("button", { name: "Remove tag bear" }).waitFor();
      await shot(a.page, `${vp}-profile-note-editing`);
      await a.page.getByRole("button", { name: "Done" }).click();
      await a.page.getByRole("button", { name: "Private Notes" }).waitFor();
      await until(async () => (await getNote(aId, bId)).bodyText !== "", "the note stored").catch(() => {});
      const note = await getNote(aId, bId);
      assert.equal(note.bodyText, "Met at the coffee place.");
      assert.deepEqual(note.privateTags, ["funny", "bear"]);
      await shot(a.page, `${vp}-profile-note-hidden`);

      // A save that fails keeps what A typed, says so, and Done saves it once the server answers again.
      await a.page.getByRole("button", { name: "Private Notes" }).click();
      const failing = (route: Route) =>
        route.request().method() === "PUT" ? route.fulfill({ status: 503, body: "{}" }) : route.fallback();
      await a.page.route("**/api/profile-note", failing);
      // The note's accessible name includes its text ("Note Met at ..."), so it is found by role.
      const noteBox = a.page.getByRole("textbox", { name: /^Note\b/ });
      await noteBox.fill("Met at the coffee place. Call him back!");
      await a.page.getByRole("button", { name: "Done" }).click();
      await a.page.getByRole("alert").filter({ hasText: TEXTS.noteSaveFailed }).waitFor();
      assert.equal(await noteBox.inputValue(), "Met at the coffee place. Call him back!");
      await shot(a.page, `${vp}-profile-note-save-failed`);
      await a.page.unroute("**/api/profile-note", failing);
      await a.page.getByRole("button", { name: "Done" }).click();
      await a.page.getByRole("button", { name: "Private Notes" }).waitFor();
      assert.equal((await getNote(aId, bId)).bodyText, "Met at the coffee place. Call him back!");

      // A blocks B: the message for 3 s, then home; B no longer sees A.
      await a.page.getByRole("button", { name: "Actions" }).click();
      await shot(a.page, `${vp}-profile-actions`);
      await a.page.getByRole("button", { name: TEXTS.blockIgnore }).click();
      // It asks first; Cancel leaves everything as it was.
      const confirm = a.page.getByRole("alertdialog");
      await confirm.getByRole("button", { name: UI_TEXTS.cancel }).click();
      assert.equal(await confirm.count(), 0);
      await a.page.getByRole("button", { name: TEXTS.blockIgnore }).click();
      await confirm.getByRole("button", { name: FEEL_TEXTS.yesBlock, exact: true }).click();
      await a.page.getByText(TEXTS.blockedRedirecting).waitFor();
      // When the message showed and when the page went home, both by the page's clock: the wait for the
      // home page to load and hydrate, and the screenshot below, are not the redirect's.
      const shown = await a.page.evaluate(() => performance.timeOrigin + performance.now());
      // The blocked member's pictures, chat and buttons are gone at once, while the message shows.
      for (const gone of [".profile-page img", ".chat", ".profile-likes"]) {
        assert.equal(await a.page.locator(gone).filter({ visible: true }).count(), 0, `${gone} cleared`);
      }
      await shot(a.page, `${vp}-profile-blocked`);
      await a.page.waitForURL(h.origin + "/", { timeout: 6000 });
      const after = await a.page.evaluate(() => performance.timeOrigin) - shown;
      assert.ok(after > 2500 && after < 4500, `went home after ${after} ms`);
      assert.equal(await isBlockedEither(aId, bId), true);
      await b.page.goto("/likes/profilelikedyou");
      await b.page.getByText(TEXTS.likedYouEmpty).waitFor();

      // A finds B under Blocked members in Account settings and unblocks: they see each other again.
      await a.page.goto("/settings");
      const row = a.page.locator("li", { hasText: "Unblock" });
      await row.waitFor();
      await shot(a.page, `${vp}-settings-blocked`);
      await row.getByRole("button", { name: "Unblock" }).click();
      await a.page.getByText("You have not blocked anyone.").waitFor();
      assert.equal(await isBlockedEither(aId, bId), false);
      await b.page.goto(`/profile/${aId}`);
      await b.page.getByRole("heading", { level: 1 }).first().waitFor();
      assert.equal(new URL(b.page.url()).pathname, `/profile/${aId}`);

      await a.context.close();
      await b.context.close();
    } finally {
      await h.close();
    }
  });
}

Deno.test("e2e - after a block, 'Blocked and Redirecting...' fills the screen and a tap goes home at once", async () => {
  const h = await startHarness();
  try {
    const { context, page } = await h.newPage("phone");
    await logInThroughApi(context, h.origin, "tapper@example.com");
    const other = (await createAccount({ email: "tapped@example.com", name: "Tapped" }))!.defaultProfileId;
    await page.goto(`/profile/${other}#actions`);
    await page.getByRole("button", { name: TEXTS.blockIgnore }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: FEEL_TEXTS.yesBlock, exact: true }).click();
    const message = page.getByRole("status").filter({ hasText: TEXTS.blockedRedirecting });
    await message.waitFor();
    // The spec's words, word for word, over the whole screen.
    assert.equal((await message.textContent())?.trim(), "Blocked and Redirecting...");
    const box = (await page.locator(".blocked-screen").boundingBox())!;
    assert.deepEqual([box.x, box.y, box.width, box.height], [0, 0, 390, 844]);
    await shot(page, "phone-blocked-tap");
    // A tap away from the words goes home well before the 3 seconds.
    const tapped = Date.now();
    await page.touchscreen.tap(40, 700);
    await page.waitForURL(h.origin + "/", { timeout: 2500 });
    const after = Date.now() - tapped;
    assert.ok(after < 1500, `went home ${after} ms after the tap`);
  } finally {
    await h.close();
  }
});

Deno.test("e2e - a like whose call was cut is sent from the next page, which then shows it as stored, not as the page was rendered", async () => {
  const h = await startHarness();
  try {
    const { context, page } = await h.newPage("phone");
    const me = (await logInThroughApi(context, h.origin, "cut-liker@example.com")).profileId;
    const other = (await createAccount({ email: "cut-liked@example.com", name: "Liked" }))!.defaultProfileId;
    await page.goto(`/profile/${other}`);
    // The connection drops as the like is sent: it waits on this device.
    await page.route("**/api/profile-like", (route) => route.abort("internetdisconnected"));
    await page.getByRole("button", { name: TEXTS.like, exact: true }).click();
    await page.locator(".like-queued").waitFor();
    await page.unroute("**/api/profile-like");
    // The next page is rendered before the like is stored; its outbox sends the like at its start.
    await page.reload();
    await until(async () => (await kv().get(keys.profileLike(me, other))).value, "the queued like stored");
    await page.locator(".like-queued").waitFor({ state: "detached" });
    // Out of the queue, the button shows the stored like, not the page's first 'Like'.
    await page.getByRole("button", { name: TEXTS.removeLike }).waitFor({ timeout: 5_000 });
  } finally {
    await h.close();
  }
});

Deno.test("e2e - a like answered while the next page was on its way shows on that page, though it was rendered before the like", async () => {
  const h = await startHarness();
  try {
    const { context, page } = await h.newPage("phone");
    const me = (await logInThroughApi(context, h.origin, "late-liker@example.com")).profileId;
    const other = (await createAccount({ email: "late-liked@example.com", name: "Liked" }))!.defaultProfileId;
    await page.goto(`/profile/${other}`);
    // The like's call is held until the next page has been rendered without it.
    let release!: () => void;
    const held = new Promise<void>((r) => release = r);
    await page.route("**/api/profile-like", async (route) => {
      await held;
      await route.continue();
    });
    // The page's queue emptied, as DevTools sees its storage (the page itself is being left).
    const cdp = await context.newCDPSession(page);
    await cdp.send("DOMStorage.enable");
    let emptied!: () => void;
    const queueEmptied = new Promise<void>((r) => emptied = r);
    cdp.on("DOMStorage.domStorageItemRemoved", (e) => e.key === "app-outbox" && emptied());
    await page.getByRole("button", { name: TEXTS.like, exact: true }).click();
    // The member reloads: the server renders the next page, the like not yet stored; then the like
    // is stored and answered to the page being left, which stays open until the next page's answer
    // comes, and takes it out of its queue.
    await page.route(`**/profile/${other}`, async (route) => {
      const rendered = await route.fetch();
      assert.equal((await kv().get(keys.profileLike(me, other))).value, null, "rendered before the like was stored");
      release();
      await queueEmptied;
      await route.fulfill({ response: rendered });
    });
    await page.reload();
    assert.ok((await kv().get(keys.profileLike(me, other))).value, "the like stored");
    // The next page shows the stored like, not the 'Like' it was rendered with.
    await page.getByRole("button", { name: TEXTS.removeLike }).waitFor({ timeout: 5_000 });
  } finally {
    await h.close();
  }
});
