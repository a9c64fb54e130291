/**
 * The community games in a real browser, on a phone and a desktop: a member plays GPT Buster
 * (vote, see the community tally, next profile) and The Rating Game (Nice by button, Meh by
 * the arrow key, Skip, which earns nothing), suggests a crop in Help my Photos that the owner
 * uses (which earns the credit then), judges a report in Community Arbitration that an admin
 * confirms, and sees the volunteer credits rise, the way to the volunteer role on /games and on
 * /billing, and 'Volunteer until' once the role is granted.
 */

import { until } from "../wait.ts";
import assert from "node:assert/strict";
import { portraitPicture } from "../fixtures/pictures.ts";
import type { Page } from "playwright-core";
import { handOver, logInAs, shot, startHarness, type ViewportName } from "./harness.ts";
import { createAccount, setRoles } from "../../kv/accounts.ts";
import { saveReport } from "../../kv/reports.ts";
import { updateProfile } from "../../kv/profiles.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { addPicture, getPic } from "../../kv/pictures.ts";
import { getPicLikes } from "../../kv/likes.ts";
import { getCredits } from "../../kv/games/credits.ts";
import { arbCase } from "../../kv/games/arbitration.ts";
import { grantRoleOps } from "../../kv/roles.ts";
import { kv } from "../../kv/db.ts";
import { now } from "../../kv/clock.ts";

const HOME = { lat: 33.4484, lon: -112.074 };
const TEXTS = [
  "Coffee first, then hiking in the Superstitions. Looking for someone who laughs at bad puns.",
  "As a passionate individual who values authentic connections, I am eager to embark on a journey of mutual growth.",
  "Dog dad. Bad cook. Good listener.",
];

/** The viewer at HOME and three members around with a text and two pictures each. */
async function seed(tag: string) {
  const viewer = (await createAccount({ email: `viewer-${tag}@example.com`, name: "Viewer" }))!;
  await reportPosition(viewer.defaultProfileId, { ...HOME, use: "OVERRIDE", hide: false });
  const names = ["Marco", "Theo", "Julian"];
  const players: { accountId: string; profileId: string }[] = [];
  for (const [i, name] of names.entries()) {
    const a = (await createAccount({ email: `player${i}-${tag}@example.com`, name }))!;
    const id = a.defaultProfileId;
    players.push({ accountId: a.id, profileId: id });
    assert.ok((await updateProfile(id, { profilename: name, birthdate: `198${i}-05-15`, description: TEXTS[i] })).ok);
    for (let n = 0; n < 2; n++) assert.ok((await addPicture(id, await portraitPicture(i * 2 + n))).ok);
    await reportPosition(id, { lat: HOME.lat + 0.01 * (i + 1), lon: HOME.lon + 0.01, use: "OVERRIDE", hide: false });
  }
  return { viewer, players };
}

const credits = (page: Page) => page.locator(".game-credits").first().innerText();

for (const vp of ["phone", "desktop"] as ViewportName[]) {
  Deno.test({
    name: `e2e ${vp} - games: GPT Buster The Rating Game and Help my Photos earn volunteer credits`,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const h = await startHarness();
      try {
        const { viewer, players } = await seed(vp);
        const { context, page } = await h.newPage(vp);
        await logInAs(page.context(), h.origin, viewer.id);

        await page.goto("/games");
        assert.equal(await credits(page), "Volunteer credits: 0");
        await shot(page, `games-${vp}-hub`);

        // --- GPT Buster: vote, the tally shows, next profile, vote again.
        await page.getByRole("link", { name: /GPT Buster/ }).click();
        await page.waitForURL(h.origin + "/games/gptbuster");
        await page.waitForFunction(() => document.querySelectorAll("[data-island]:not([data-hydrated])").length === 0);
        const first = await page.locator(".game-text").innerText();
        assert.ok(TEXTS.includes(first), "a nearby member's text");
        await shot(page, `games-${vp}-gptbuster`);
        await page.getByRole("button", { name: "Human", exact: true }).click();
        await page.locator(".game-tally").waitFor();
        assert.match(await page.locator(".game-tally").innerText(), /Human: 1/);
        assert.equal(await credits(page), "Volunteer credits: 1");
        await shot(page, `games-${vp}-gptbuster-tally`);
        await page.getByRole("button", { name: "Next profile" }).click();
        await page.getByRole("button", { name: "Machine or fake" }).waitFor();
        const second = await page.locator(".game-text").innerText();
        assert.notEqual(second, first, "the next profile");
        await page.getByRole("button", { name: "Machine or fake" }).click();
        await page.locator(".game-tally").waitFor();
        assert.equal(await credits(page), "Volunteer credits: 2");

        // --- The Rating Game: Nice by button, Meh by the arrow key, Skip by button (no credit).
        await page.goto("/games/ratinggame");
        assert.equal(await credits(page), "Volunteer credits: 2");
        const card = page.locator(".swipe-card:not(.behind)");
        await card.locator("img").evaluate((img: HTMLImageElement) =>
          img.complete ? null : new Promise((r) => img.addEventListener("load", r, { once: true }))
        );
        await shot(page, `games-${vp}-rating`);
        const pic1 = (await card.getAttribute("data-pic-id"))!;
        await page.getByRole("button", { name: /Nice/ }).click();
        await page.waitForFunction(
          (id) => !document.querySelector(`.swipe-card[data-pic-id="${id}"]:not(.behind)`),
          pic1,
        );
        await page.waitForFunction(() =>
          document.querySelector(".game-credits")?.textContent === "Volunteer credits: 3"
        );
        const pic2 = (await card.getAttribute("data-pic-id"))!;
        assert.notEqual(pic2, pic1);
        await page.keyboard.press("ArrowLeft");
        await page.waitForFunction(() =>
          document.querySelector(".game-credits")?.textContent === "Volunteer credits: 4"
        );
        await page.waitForFunction(
          (id) => !document.querySelector(`.swipe-card[data-pic-id="${id}"]:not(.behind)`),
          pic2,
        );
        const pic3 = (await card.getAttribute("data-pic-id"))!;
        assert.ok(pic3 !== pic1 && pic3 !== pic2);
        await page.getByRole("button", { name: /Skip/ }).click();
        // The Skip is saved (an UNDETERMINED picture like) and earns nothing.
        await until(async () => (await getPicLikes(viewer.defaultProfileId, [pic3])).length > 0, "the Skip saved");
        const likes = await getPicLikes(viewer.defaultProfileId, [pic1, pic2, pic3]);
        assert.deepEqual(
          likes.map((l) => [l.profilePicId, l.likeType]).sort(),
          [[pic1, "LIKE"], [pic2, "DISLIKE"], [pic3, "UNDETERMINED"]].sort(),
        );
        assert.equal(await credits(page), "Volunteer credits: 4", "a Skip earns no credit");
        assert.equal(await getCredits(viewer.defaultProfileId), 4);

        await page.goto("/games");
        assert.equal(await credits(page), "Volunteer credits: 4");
        assert.equal(
          await page.locator(".volunteer-status").innerText(),
          "4 credits in the last 30 days: 96 to go to become a volunteer.",
        );
        assert.equal(await page.locator("progress.volunteer-progress").getAttribute("value"), "4");
        await shot(page, `games-${vp}-hub-after`);

        // --- Help my Photos: drag the box, make it smaller, suggest; the owner uses the crop.
        await page.goto("/games/photocrop");
        const frame = page.locator(".crop-help .crop-frame");
        const cropPic = (await frame.getAttribute("data-pic-id"))!;
        await page.getByLabel("Size").fill("0.6");
        const fb = (await frame.boundingBox())!;
        await page.mouse.move(fb.x + fb.width / 2, fb.y + fb.height / 2);
        await page.mouse.down();
        await page.mouse.move(fb.x + fb.width / 2 - 60, fb.y + fb.height / 2 - 60, { steps: 4 });
        await page.mouse.up();
        await shot(page, `games-${vp}-photocrop`);
        await page.getByRole("button", { name: "Suggest this crop" }).click();
        await page.getByText("Your suggestion was sent").waitFor();
        assert.equal(await credits(page), "Volunteer credits: 4", "a suggestion alone earns nothing");
        const ownerCtx = await h.newPage(vp);
        const ownerId = (await getPic(cropPic))!.profileId;
        const ownerAccount = players.find((p) => p.profileId === ownerId)!;
        await logInAs(ownerCtx.page.context(), h.origin, ownerAccount.accountId);
        await ownerCtx.page.goto("/games/photocrop");
        await ownerCtx.page.locator(".crop-suggestions li img").first().evaluate((img: HTMLImageElement) =>
          img.complete ? null : new Promise((r) => img.addEventListener("load", r, { once: true }))
        );
        await shot(ownerCtx.page, `games-${vp}-photocrop-owner`);
        const before = (await getPic(cropPic))!.gen;
        await ownerCtx.page.getByRole("button", { name: "Use this crop" }).click();
        await ownerCtx.page.getByText("your picture now uses this crop").waitFor();
        const after = (await getPic(cropPic))!;
        assert.notEqual(after.gen, before);
        assert.ok(after.crop && after.crop.width < after.sourceWidth, "cropped smaller");
        assert.ok(Math.abs(after.crop!.width / after.crop!.height - 0.8) < 0.02, "4:5");
        assert.equal(await getCredits(viewer.defaultProfileId), 5, "the owner used it: now it earns");

        // --- Community Arbitration: a juror votes once; an admin confirms, which closes the report.
        const report = await saveReport(
          players[0].profileId,
          players[1].profileId,
          "fake",
          "Pictures from a catalogue.",
        );
        await page.goto("/games/arbitration");
        assert.match(await page.locator(".arb-report").innerText(), /Fake profile or impersonation/);
        await shot(page, `games-${vp}-arbitration`);
        await page.getByRole("button", { name: "Violation", exact: true }).click();
        await page.locator(".game-tally").waitFor();
        assert.equal(await credits(page), "Volunteer credits: 6");
        await setRoles(players[2].accountId, ["USER", "ADMIN"]);
        // The owner's tab is handed to the admin.
        const adminCtx = ownerCtx;
        await handOver(adminCtx.page, h.origin, players[2].accountId);
        await adminCtx.page.goto("/games/arbitration");
        const row = adminCtx.page.locator(`.admin-reports li[data-report-id="${report.id}"]`);
        assert.match(await row.innerText(), /Violation: 1/);
        await row.getByRole("button", { name: "Confirm violation" }).click();
        await row.getByText("Confirmed").waitFor();
        await adminCtx.page.evaluate(() => scrollTo(0, 0));
        await shot(adminCtx.page, `games-${vp}-arbitration-admin`);
        assert.equal((await arbCase(report.id)).status, "CONFIRMED");
        await adminCtx.context.close();

        // --- The end of the rating deck: the three pictures left, then 'Look again'.
        await page.goto("/games/ratinggame");
        for (let i = 0; i < 3; i++) {
          const id = await page.locator(".swipe-card:not(.behind)").getAttribute("data-pic-id");
          await page.keyboard.press("ArrowRight");
          await page.waitForFunction((id) => !document.querySelector(`.swipe-card[data-pic-id="${id}"]`), id);
        }
        await page.getByText("No pictures left to rate").waitFor();
        await page.waitForFunction(() =>
          document.querySelector(".game-credits")?.textContent === "Volunteer credits: 9"
        );
        await shot(page, `games-${vp}-rating-end`);

        // --- Billing: the spec's texts, then the member's standing, what Pro unlocks and how.
        await page.goto("/billing");
        const billing = await page.locator("article").innerText();
        assert.match(billing, /Pro membership is \$10 per month or \$100 per year/);
        assert.match(billing, /You are a standard member\./);
        assert.match(billing, /What Pro unlocks/);
        assert.match(billing, /Pro and volunteer members have no standard limits/);
        assert.match(billing, /How to get Pro/);
        assert.equal(
          await page.getByRole("link", { name: "Open the contact form" }).getAttribute("href"),
          "/contactus",
        );
        await shot(page, `billing-${vp}`);

        // --- Once granted (the API test earns it with 100 credits), the role shows with its end.
        const op = kv().atomic();
        grantRoleOps(op, viewer.id, "VOLUNTEER", now() + 30 * 24 * 3_600_000);
        assert.ok((await op.commit()).ok);
        await page.goto("/games");
        assert.match(
          await page.locator(".volunteer-status").innerText(),
          /^Volunteer until \d{1,2} \w+ \d{4}\. Thank you for helping!$/,
        );
        assert.equal(await page.locator("progress.volunteer-progress").count(), 0);
        await shot(page, `games-${vp}-volunteer`);
        await page.goto("/billing");
        assert.match(await page.locator(".membership-standing").innerText(), /^You are a volunteer until /);
        await shot(page, `billing-${vp}-volunteer`);
        await context.close();
      } finally {
        await h.close();
      }
    },
  });
}
