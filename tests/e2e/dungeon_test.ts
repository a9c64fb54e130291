/**
 * Bad Boy Dungeon in a real browser, on a phone, with eight members: a member reports another for
 * rudeness through the profile's Report Violation form; three jurors have voted 'Violation' and
 * two more do it in Community Arbitration, the last vote sending the reported member to the
 * dungeon at once; that member alone is notified, and the notification leads to the reform card
 * (the reported lines without the reporter's name, the rule, what is restricted and until when);
 * they fail the rules quiz once, then pass it offline (kept on the device, shown pending, sent when
 * the connection returns: the stay shortened by a third), and a like is refused with the end of
 * the stay on the screen; a juror sees only how many are serving. Screenshots of the card: light,
 * dark, and in Arabic.
 */

import assert from "node:assert/strict";
import { seriousViolations } from "./axe.ts";
import { handOver, logInAs, shot, startHarness, VIEWPORTS, waitHydrated } from "./harness.ts";
import { createAccount, setLanguage } from "../../kv/accounts.ts";
import { updateProfile } from "../../kv/profiles.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { castArbVote } from "../../kv/games/arbitration.ts";
import { listReports } from "../../kv/reports.ts";
import { listStays } from "../../kv/games/dungeon.ts";
import { listNotifications } from "../../kv/notifications.ts";
import { formatUntil } from "../../domain/moderation.ts";
import { QUIZ_ANSWERS } from "../../domain/dungeon.ts";
import { until } from "../wait.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";

const HOME = { lat: 45.4642, lon: 9.19 };
const devices = { phone: { viewport: VIEWPORTS.phone, isMobile: true, hasTouch: true } };

async function memberAt(name: string, i: number) {
  const made = (await createAccount({ email: `${name.toLowerCase()}-dungeon@example.com`, name }))!;
  // Members for a while: only established jurors decide without an admin.
  const a = { ...made, tsCreated: made.tsCreated - 2 * 24 * 3_600_000 };
  await kv().set(keys.account(a.id), a);
  assert.ok((await updateProfile(a.defaultProfileId, { profilename: name, birthdate: "1990-04-0" + (i % 9 + 1) })).ok);
  await reportPosition(a.defaultProfileId, {
    lat: HOME.lat + 0.002 * i,
    lon: HOME.lon + 0.002 * i,
    use: "OVERRIDE",
    hide: false,
  });
  return { accountId: a.id, profileId: a.defaultProfileId };
}

Deno.test({
  name: "e2e phone - dungeon: a report, a strong jury, the reform card, the quiz and a refused like",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const h = await startHarness();
    try {
      const robin = await memberAt("Robin", 1);
      const marco = await memberAt("Marco", 2);
      const jurors = await Promise.all(["Ana", "Ben", "Cleo", "Dan", "Eli"].map((n, i) => memberAt(n, i + 3)));

      // Robin reports Marco through the profile's form.
      const { context, page } = await h.newPage("phone");
      await logInAs(page.context(), h.origin, robin.accountId);
      await page.goto(`/profile/${marco.profileId}`);
      await waitHydrated(page);
      await page.locator("#actions .panel-toggle").click();
      await page.getByRole("button", { name: "Report Violation" }).click();
      await page.getByLabel("Reason").selectOption("rude");
      await page.getByLabel("What happened?").fill("He wrote: Robin, nobody wants you, loser.\nThen he laughed at me.");
      await page.getByRole("button", { name: "Send Report" }).click();
      await page.getByText("Thank you. Your report was sent to the moderators.").waitFor();
      const [report] = await listReports(marco.profileId, 5);
      assert.equal(report.reason, "rude");

      // Three jurors voted already; two more judge it in the browser, on the phone Robin hands on.
      for (const j of jurors.slice(0, 3)) assert.ok((await castArbVote(j.profileId, report.id, "VIOLATION")).ok);
      const jp = { context, page };
      for (const j of jurors.slice(3)) {
        await handOver(jp.page, h.origin, j.accountId);
        await jp.page.goto("/games/arbitration");
        await waitHydrated(jp.page);
        await jp.page.locator(`[data-report-id="${report.id}"]`).waitFor();
        await jp.page.getByRole("button", { name: "Violation", exact: true }).click();
        await jp.page.getByRole("status").filter({ hasText: "You said" }).waitFor();
      }
      await until(async () => (await listStays(marco.profileId)).length === 1, "the jury sent Marco to the dungeon");
      const [stay] = await listStays(marco.profileId);
      assert.equal(stay.until - stay.tsStart, 24 * 3_600_000);

      // Marco alone is notified; the notification leads to his reform card, without Robin's name.
      for (const other of [robin, ...jurors]) {
        assert.ok(!(await listNotifications(other.profileId)).some((n) => n.url === "/games/dungeon"));
      }
      const m = await h.newPage("phone");
      await logInAs(m.page.context(), h.origin, marco.accountId);
      await m.page.goto("/notifications");
      await waitHydrated(m.page);
      await m.page.getByText("You are in a time-out for 24 hours:", { exact: false }).click();
      await m.page.waitForURL("**/games/dungeon");
      await waitHydrated(m.page);
      const card = m.page.locator(".reform-card");
      await card.waitFor();
      const text = await card.innerText();
      assert.ok(text.includes("He wrote: …, nobody wants you, loser."), text);
      assert.ok(!text.includes("Robin"), "the reporter's name is removed");
      assert.ok(text.includes("Be kind: no insults, mockery or rudeness."));
      assert.ok(text.includes("Likes of profiles and pictures"));
      assert.ok(text.includes(formatUntil(stay.until)));
      assert.equal(await m.page.locator(".dungeon-serving").innerText(), "1 member is serving a time-out right now.");
      await shot(m.page, "dungeon-phone-card-light");

      // No serious or critical axe finding on the card, the quiz and the appeal, light and dark.
      const axe = await h.browser.newContext({ ...devices.phone, baseURL: h.origin, bypassCSP: true });
      const ap = await axe.newPage();
      await logInAs(ap.context(), h.origin, marco.accountId);
      await ap.goto("/games/dungeon");
      await waitHydrated(ap);
      for (const scheme of ["light", "dark"] as const) {
        await ap.emulateMedia({ colorScheme: scheme });
        assert.deepEqual((await seriousViolations(ap, Infinity)).map((v) => `${scheme} ${v}`), []);
      }
      await axe.close();

      // The quiz: one wrong answer, then all right: the stay is shortened by a third.
      const questions = m.page.locator(".dungeon-q");
      assert.equal(await questions.count(), QUIZ_ANSWERS.length);
      for (const [i, a] of QUIZ_ANSWERS.entries()) {
        await questions.nth(i).locator("input[type=radio]").nth(i === 0 ? (a + 1) % 3 : a).check();
      }
      await m.page.getByRole("button", { name: "Check my answers" }).click();
      await m.page.getByText("One answer is not right yet.", { exact: false }).waitFor();
      await questions.nth(0).locator("input[type=radio]").nth(QUIZ_ANSWERS[0]).check();
      // Answered offline: kept on the device and shown pending, sent when the connection returns.
      await m.context.setOffline(true);
      await m.page.getByRole("button", { name: "Check my answers" }).click();
      await m.page.getByText("Saved on this device: your answers are sent when you are back online.").waitFor();
      assert.ok(await m.page.getByRole("button", { name: "Check my answers" }).isDisabled());
      assert.equal((await listStays(marco.profileId))[0].quizAt, null, "nothing sent while offline");
      await shot(m.page, "dungeon-phone-quiz-queued");
      await m.context.setOffline(false);
      await m.page.getByText("All right: your stay was shortened by a third.").waitFor();
      assert.equal(await m.page.locator(".dungeon-queued").count(), 0);
      const shortened = (await listStays(marco.profileId))[0];
      assert.equal(shortened.until - shortened.tsStart, 16 * 3_600_000);
      assert.ok((await card.innerText()).includes(formatUntil(shortened.until)));
      await m.page.emulateMedia({ colorScheme: "dark" });
      await shot(m.page, "dungeon-phone-card-dark");
      await m.page.emulateMedia({ colorScheme: "light" });

      // A like is refused, and the screen names the end of the stay.
      await m.page.goto(`/profile/${jurors[0].profileId}`);
      await waitHydrated(m.page);
      await m.page.getByRole("button", { name: "Like", exact: true }).first().click();
      const refusal = m.page.locator(".like-button .error, .like-failed").first();
      await refusal.waitFor();
      const said = await refusal.innerText();
      assert.ok(said.includes(formatUntil(shortened.until)) && said.includes("no likes"), said);
      await shot(m.page, "dungeon-phone-like-refused");

      // A juror sees how the dungeon works and a count: never who.
      const j = jp;
      await handOver(j.page, h.origin, jurors[0].accountId);
      await j.page.goto("/games/dungeon");
      await waitHydrated(j.page);
      assert.equal(await j.page.locator(".reform-card").count(), 0);
      assert.ok(!(await j.page.locator("main").innerText()).includes("Marco"));
      await j.page.getByText("1 member is serving a time-out right now.").waitFor();
      await shot(j.page, "dungeon-phone-others");

      // In Arabic, right to left: Marco's own phone, once he chose the language.
      await setLanguage(marco.accountId, "ar");
      const ar = m;
      await ar.page.goto("/games/dungeon");
      await waitHydrated(ar.page);
      assert.equal(await ar.page.evaluate(() => document.documentElement.dir), "rtl");
      await ar.page.getByRole("heading", { name: "استراحتك" }).waitFor();
      await shot(ar.page, "dungeon-phone-card-ar");
      await ar.page.emulateMedia({ colorScheme: "dark" });
      await shot(ar.page, "dungeon-phone-card-ar-dark");
      await ar.context.close();
      await jp.context.close();
    } finally {
      await h.close();
    }
  },
});
