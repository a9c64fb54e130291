/**
 * Hot or Not in a real browser on a phone, with five members: Sam picks two of his pictures and
 * starts a test; Jo votes on the pair (two anonymous pictures, no name) after a careful look and
 * earns a credit; Kai votes while offline, and the vote waits on his device until the connection
 * is back; Bo, whom Sam blocked, is dealt nothing; once the test has its votes, Sam alone reads
 * the result (each picture's share with its interval), puts the best first, and switches 'Keep my
 * best picture first' on and off. Screens of the voting and the result are kept in light, dark
 * and Arabic.
 */

import { until } from "../wait.ts";
import assert from "node:assert/strict";
import { portraitPicture } from "../fixtures/pictures.ts";
import type { Page } from "playwright-core";
import { handOver, logInAs, shot, startHarness, waitHydrated } from "./harness.ts";
import { createAccount, setLanguage } from "../../kv/accounts.ts";
import { getProfile, updateProfile } from "../../kv/profiles.ts";
import { addPicture } from "../../kv/pictures.ts";
import { getCredits } from "../../kv/games/credits.ts";
import { castVote, currentTest, getTest, nextPair, startTest } from "../../kv/games/hotOrNot.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { HOT_MIN_VOTE_MS, HOT_TARGET_VOTES } from "../../domain/hotOrNot.ts";

async function member(tag: string, name: string, i: number, pictures: number) {
  const a = (await createAccount({ email: `${tag}@example.com`, name }))!;
  const id = a.defaultProfileId;
  assert.ok((await updateProfile(id, { profilename: name, birthdate: `198${i % 10}-05-15` })).ok);
  for (let n = 0; n < pictures; n++) {
    assert.ok((await addPicture(id, await portraitPicture(i * 3 + n))).ok);
  }
  return { accountId: a.id, profileId: id, name };
}

/** The pair's two pictures have loaded. */
async function pairShown(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const imgs = [...document.querySelectorAll<HTMLImageElement>(".hot-pair img")];
    return imgs.length === 2 && imgs.every((i) => i.complete && i.naturalWidth > 0);
  });
}

/** A vote made in the store by a member with no browser, after a careful look (its deal dated back). */
async function storeVote(voter: string, testId: string, pickFirst: (left: string, right: string) => boolean) {
  const pair = await nextPair(voter, false);
  assert.equal(pair?.testId, testId);
  const deal = (await kv().get<{ left: string; right: string; ts: number }>(keys.hotDeal(voter, testId))).value!;
  const back = deal.ts - 5_000;
  await kv().set(keys.hotDeal(voter, testId), { ...deal, ts: back });
  const r = await castVote(voter, {
    testId,
    deal: back,
    choice: pickFirst(deal.left, deal.right) ? "LEFT" : "RIGHT",
    ms: 5_000,
  });
  assert.ok(r.ok && r.counted);
}

Deno.test({
  name: "e2e phone - Hot or Not: a private test, anonymous votes (one offline), the owner's result, best first",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const h = await startHarness();
    try {
      const sam = await member("sam", "Sam", 1, 3);
      const jo = await member("jo", "Jo", 2, 1);
      const kai = await member("kai", "Kai", 3, 1);
      const bo = await member("bo", "Bo", 4, 1);

      // --- Sam blocks Bo, then starts a test of his first two pictures.
      const s = await h.newPage("phone");
      await logInAs(s.context, h.origin, sam.accountId);
      await s.context.request.put(`${h.origin}/api/profile-like`, {
        headers: { origin: h.origin },
        data: { likerProfileId: sam.profileId, likedProfileId: bo.profileId, likeType: "DISLIKE", blocked: true },
      });
      await until(
        async () => (await kv().get(keys.block(sam.profileId, bo.profileId))).versionstamp !== null,
        "blocked",
      );

      await s.page.goto("/games");
      await s.page.getByRole("link", { name: /Hot or Not/ }).click();
      await s.page.waitForURL(h.origin + "/games/hotornot");
      await waitHydrated(s.page);
      assert.equal(await s.page.locator("h1").innerText(), "Hot or Not");
      const samPics = (await getProfile(sam.profileId))!.profilePicIds;
      await s.page.locator(`.hot-pick[data-pic-id="${samPics[0]}"]`).click();
      await s.page.locator(`.hot-pick[data-pic-id="${samPics[1]}"]`).click();
      assert.equal(await s.page.locator(`.hot-pick[data-pic-id="${samPics[1]}"]`).getAttribute("aria-pressed"), "true");
      await s.page.getByRole("button", { name: "Start the test" }).click();
      await s.page.getByText("Your test is running.").waitFor();
      await s.page.getByText(/Running until each picture has 20 counted votes/).waitFor();
      // Sam is never dealt his own test.
      await s.page.getByText("No pictures to compare right now. Come back later.").waitFor();
      const test = (await currentTest(sam.profileId))!;
      assert.deepEqual(test.picIds, samPics.slice(0, 2));
      await shot(s.page, "hotornot-phone-owner-running");

      // --- Jo votes: two pictures, no name; a careful vote counts and earns a credit.
      const j = await h.newPage("phone");
      await logInAs(j.page.context(), h.origin, jo.accountId);
      await j.page.goto("/games/hotornot");
      await waitHydrated(j.page);
      await pairShown(j.page);
      const pairText = await j.page.locator(".hot-vote").innerText();
      assert.ok(!pairText.includes("Sam"), "no name with the pair");
      const srcs = await j.page.locator(".hot-pair img").evaluateAll((els) => els.map((e) => e.getAttribute("src")));
      assert.ok(srcs.every((src) => src && !samPics.some((p) => src.includes(p))), "no picture id in the page");
      await shot(j.page, "hotornot-phone-voting");
      // sleep-ok: a careful vote (made after the game's minimum time, on the page's clock and the
      // server's alike) is the case tested; a faster one is not counted.
      await j.page.waitForTimeout(HOT_MIN_VOTE_MS + 300);
      await j.page.getByRole("button", { name: "This one: Left picture" }).click();
      await j.page.getByText("Counted. Thank you!").waitFor();
      assert.equal(await j.page.locator(".game-credits").first().innerText(), "Volunteer credits: 1");
      assert.equal(await getCredits(jo.profileId), 1);
      await j.page.getByText("No pictures to compare right now. Come back later.").waitFor();

      // --- Kai votes offline: kept on the device, sent when the connection is back.
      const k = await h.newPage("phone");
      await logInAs(k.page.context(), h.origin, kai.accountId);
      await k.page.goto("/games/hotornot");
      await waitHydrated(k.page);
      await pairShown(k.page);
      await k.context.setOffline(true);
      // sleep-ok: as above, the vote kept offline must be a careful one to count once sent.
      await k.page.waitForTimeout(HOT_MIN_VOTE_MS + 300);
      await k.page.getByRole("button", { name: "This one: Right picture" }).click();
      await k.page.getByText("Saved on this device: it is sent when you are back online.").waitFor();
      assert.equal(await getCredits(kai.profileId), 0);
      await k.context.setOffline(false);
      await until(async () => (await getCredits(kai.profileId)) === 1, "the queued vote sent and counted");
      assert.equal((await getTest(test.id))!.counted[samPics[0]], 2);

      // --- Bo, whom Sam blocked, is dealt nothing (on the phone Kai hands on).
      const b = k;
      await handOver(b.page, h.origin, bo.accountId);
      await b.page.goto("/games/hotornot");
      await waitHydrated(b.page);
      await b.page.getByText("No pictures to compare right now. Come back later.").waitFor();

      // --- The rest of the votes, from members without a browser: most prefer the second picture.
      for (let i = 0; i < HOT_TARGET_VOTES - 2; i++) {
        const v = await member(`v${i}`, `V${i}`, 10 + i, 0);
        await storeVote(v.profileId, test.id, (left) => (i % 4 === 0 ? left === samPics[0] : left === samPics[1]));
      }
      assert.equal((await getTest(test.id))!.status, "DONE");

      // --- Sam alone reads the result and puts the best first.
      await s.page.reload();
      await waitHydrated(s.page);
      const result = s.page.locator(`.hot-result[data-test-id="${test.id}"]`);
      await result.waitFor();
      assert.equal(await result.getAttribute("data-status"), "DONE");
      const best = result.locator("li.is-best");
      assert.equal(await best.getAttribute("data-pic-id"), samPics[1]);
      assert.match(
        await best.innerText(),
        /Best[\s\S]*20 of 20 votes[\s\S]*Chosen \d+% of the time \(likely \d+–\d+%\)/,
      );
      await s.page.getByText("Only you see this. No score is ever shown on your profile, in discovery or to admins.")
        .waitFor();
      await shot(s.page, "hotornot-phone-owner-result");
      await s.page.getByRole("button", { name: "Put the best first" }).click();
      await s.page.getByText("Done: your best picture is now first.").waitFor();
      assert.equal((await getProfile(sam.profileId))!.profilePicIds[0], samPics[1]);

      // Jo, looking at Sam's profile, sees no score or test.
      await j.page.goto(`/profile/${sam.profileId}`);
      await waitHydrated(j.page);
      const profileText = await j.page.locator("main").innerText();
      assert.ok(!/Chosen|votes|Hot or Not/.test(profileText));

      // --- 'Keep my best picture first': on, shown, then off.
      const keep = s.page.locator(".hot-keep button.toggle");
      await keep.click();
      await until(async () => (await keep.getAttribute("aria-pressed")) === "true", "switched on");
      assert.equal((await kv().get<{ on: boolean }>(keys.hotKeepBest(sam.profileId))).value?.on, true);
      await keep.click();
      await until(async () => (await keep.getAttribute("aria-pressed")) === "false", "switched off");

      // --- The same screens in dark, and in Arabic (right to left; the pair keeps left and right).
      // Sam's page is the result's: the device turning dark turns it dark (the style sheets'
      // `prefers-color-scheme`), no load needed.
      for (const p of [s.page, j.page]) await p.emulateMedia({ colorScheme: "dark" });
      await shot(s.page, "hotornot-phone-owner-result-dark");
      const t = await member("tam", "Tam", 40, 0);
      // A new test of Sam's other pictures, so Tam has a pair for the dark and Arabic screens.
      assert.ok((await startTest(sam.profileId, [samPics[0], samPics[2]])).ok);
      const tp = b;
      await handOver(tp.page, h.origin, t.accountId);
      await tp.page.emulateMedia({ colorScheme: "dark" });
      await tp.page.goto("/games/hotornot");
      await waitHydrated(tp.page);
      await pairShown(tp.page);
      await shot(tp.page, "hotornot-phone-voting-dark");

      await setLanguage(t.accountId, "ar");
      await setLanguage(sam.accountId, "ar");
      await tp.page.emulateMedia({ colorScheme: "light" });
      await tp.page.reload();
      await waitHydrated(tp.page);
      await pairShown(tp.page);
      assert.equal(await tp.page.getAttribute("html", "dir"), "rtl");
      assert.equal(await tp.page.locator(".hot-pair").getAttribute("dir"), "ltr");
      await tp.page.getByRole("button", { name: "هذه: الصورة اليسرى" }).waitFor();
      await shot(tp.page, "hotornot-phone-voting-ar");
      await s.page.emulateMedia({ colorScheme: "light" });
      await s.page.reload();
      await waitHydrated(s.page);
      assert.equal(await s.page.getAttribute("html", "dir"), "rtl");
      await s.page.getByText("نتيجتك").first().waitFor();
      await shot(s.page, "hotornot-phone-owner-ar");
    } finally {
      await h.close();
    }
  },
});
