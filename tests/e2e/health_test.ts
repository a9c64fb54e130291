/**
 * The Health Incident Report in a real browser, as three members: Sam tells the members he
 * exchanged messages with; Alex is told (a neutral notification that leads to /games/cooties, with
 * what and when and the testing advice, never who); Jordan blocked Sam first, so Sam's list never
 * shows him and he is told nothing. The random delay is shortened by HEALTH_NOTICE_MAX_DELAY_MS.
 */

import { until } from "../wait.ts";
import assert from "node:assert/strict";
import { handOver, logInAs, shot, startHarness } from "./harness.ts";
import { putProfileLike } from "../../kv/likes.ts";
import { listHealthNotices } from "../../kv/healthNotices.ts";
import { agedAccount, exchangeBetween } from "../fixtures/health.ts";

// Notices show within two seconds here instead of a day.
Deno.env.set("HEALTH_NOTICE_MAX_DELAY_MS", "2000");

Deno.test({
  name: "e2e - health report: one tells, one is told anonymously, one who blocked the teller is not",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const h = await startHarness();
    try {
      const sam = await agedAccount("Sam", 30);
      const alex = await agedAccount("Alex", 30);
      const jordan = await agedAccount("Jordan", 30);
      for (const other of [alex, jordan]) {
        await exchangeBetween(sam.defaultProfileId, other.defaultProfileId, ["Great to meet you", "Likewise!"]);
      }
      // Jordan blocks Sam before the report.
      await putProfileLike(jordan.defaultProfileId, sam.defaultProfileId, "DISLIKE", true);

      // --- Sam tells.
      const teller = await h.newPage("desktop");
      await logInAs(teller.page.context(), h.origin, sam.id);
      await teller.page.goto("/games");
      await teller.page.getByRole("link", { name: /Health Incident Report/ }).click();
      await teller.page.waitForURL(h.origin + "/games/healthreport");
      const page = teller.page;
      await page.getByText("You can send 2 more reports this month.").waitFor();
      await page.getByLabel("What were you diagnosed with?").selectOption("SYPHILIS");
      assert.equal(await page.getByLabel("How far back?").inputValue(), "90", "the condition's usual period");
      const box = page.getByRole("checkbox", { name: "Alex" });
      await box.waitFor();
      assert.ok(await box.isChecked(), "ticked by default");
      assert.equal(await page.getByRole("checkbox", { name: "Jordan" }).count(), 0, "a member who blocked is left out");
      assert.equal(await page.getByRole("checkbox").count(), 1);
      await shot(page, "health-report-desktop");
      await page.getByRole("button", { name: "Send the notices" }).click();
      await page.getByText(/Done\. 1 member will be told within 24 hours, without your name\./).waitFor();
      assert.equal(await page.getByText("Alex").count(), 0, "nobody is named once sent");
      assert.match(await page.locator(".health-remaining").innerText(), /1 more report this month/);
      await shot(page, "health-report-sent-desktop");
      // Sam's part is done: his page is not looked at again.
      await teller.context.close();

      // --- The sweep reveals the notice after its random delay.
      await until(async () => (await listHealthNotices(alex.defaultProfileId)).length > 0, "the notice revealed")
        .catch(() => {});
      assert.equal((await listHealthNotices(alex.defaultProfileId)).length, 1);
      assert.equal((await listHealthNotices(jordan.defaultProfileId)).length, 0);

      // --- Alex is told: a neutral notification that leads to /games/cooties.
      const told = await h.newPage("phone");
      await logInAs(told.page.context(), h.origin, alex.id);
      await told.page.goto("/notifications");
      const note = told.page.getByRole("button", { name: /A health notice for you\./ });
      await note.waitFor();
      await shot(told.page, "health-notification-phone");
      await note.click();
      await told.page.waitForURL(h.origin + "/games/cooties");
      const notice = told.page.locator(".health-notice");
      await notice.waitFor();
      assert.match(await notice.locator("h2").innerText(), /Possible exposure: Syphilis/);
      assert.match(await notice.locator(".health-window").innerText(), /^Between .+ and .+\.$/);
      assert.match(await notice.locator(".health-advice").innerText(), /blood test for syphilis/);
      const text = await told.page.locator("main, body").first().innerText();
      assert.ok(!text.includes("Sam"), "the notice never names who sent it");
      await shot(told.page, "health-cooties-phone");

      // --- Alex reports the notice as abuse: it goes.
      await told.page.getByRole("button", { name: "Report this notice as abuse" }).click();
      await told.page.getByText("Thank you. The notice was removed and counted as abuse.").waitFor();
      assert.equal((await listHealthNotices(alex.defaultProfileId)).length, 0);

      // --- Jordan is told nothing (Alex's phone handed to him: decision 0245).
      await handOver(told.page, h.origin, jordan.id);
      await told.page.goto("/games/cooties");
      await told.page.getByText("No health notices for you. Nothing to do.").waitFor();
      await told.page.goto("/notifications");
      assert.equal(await told.page.getByText("A health notice for you.").count(), 0);
      await told.context.close();
    } finally {
      await h.close();
    }
  },
});
