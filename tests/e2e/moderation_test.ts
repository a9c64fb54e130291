/**
 * Moderation in a real browser, on a phone and a desktop: an admin confirms a report from the
 * queue with a warning, which the member sees once with its reason; the admin suspends the member
 * from their page, the member's open page loses its session, and logging in again shows the
 * reason and the end date. A first message held as spam waits behind "show it?".
 */

import assert from "node:assert/strict";
import { logInThroughApi, mailedLink, shot, startHarness, type ViewportName } from "./harness.ts";
import { createAccount, getAccountByEmail, setRoles } from "../../kv/accounts.ts";
import { saveReport } from "../../kv/reports.ts";
import { sendPrivateMessage } from "../../kv/messages.ts";
import { updateProfile } from "../../kv/profiles.ts";
import { MODERATION_TEXTS } from "../../domain/moderation.ts";

for (const vp of ["phone", "desktop"] as ViewportName[]) {
  Deno.test(`e2e ${vp} - moderation: warn from the queue, suspend from the member page, login refused with the reason`, async () => {
    const h = await startHarness();
    try {
      const admin = await h.newPage(vp), member = await h.newPage(vp);
      const adminEmail = `mod-admin-${vp}@example.com`, memberEmail = `mod-member-${vp}@example.com`;
      await logInThroughApi(admin.context, h.origin, adminEmail);
      await setRoles((await getAccountByEmail(adminEmail))!.id, ["USER", "ADMIN"]);
      const firstLink = (await logInThroughApi(member.context, h.origin, memberEmail)).link;
      const memberId = (await getAccountByEmail(memberEmail))!.defaultProfileId;
      await updateProfile(memberId, { profilename: "Reported Rob" });
      const reporter = (await createAccount({ email: `mod-reporter-${vp}@example.com`, name: "Reporter" }))!;
      await saveReport(reporter.defaultProfileId, memberId, "harassment", "Rude messages after I said no.");

      // The queue: the member with one open report and the jury's tally; confirm with a warning.
      await admin.page.goto("/admin/moderation");
      const item = admin.page.locator(`.queue-item[data-profile-id="${memberId}"]`);
      await item.getByText("1 open report").waitFor();
      await item.getByText("Rude messages after I said no.").waitFor();
      await item.getByRole("button", { name: "Confirm…" }).click();
      await item.getByLabel("Action", { exact: true }).selectOption("WARNING");
      await item.getByLabel("Reason the member will read").fill("Keep it friendly: no means no.");
      await shot(admin.page, `${vp}-moderation-queue`);
      await item.getByRole("button", { name: "Confirm report and act" }).click();
      await admin.page.getByText("Nothing is waiting.").waitFor();

      // The member sees the warning once, with its reason.
      await member.page.goto("/settings");
      const warning = member.page.getByRole("alertdialog", { name: MODERATION_TEXTS.warningTitle });
      await warning.getByText("Keep it friendly: no means no.").waitFor();
      await shot(member.page, `${vp}-moderation-warning`);
      await warning.getByRole("button", { name: MODERATION_TEXTS.warningOk }).click();
      await member.page.waitForURL(h.origin + "/settings");
      assert.equal(await member.page.getByRole("alertdialog").count(), 0);

      // The member page: suspend for 7 days.
      await admin.page.goto(`/admin/members/${memberId}`);
      await admin.page.getByRole("heading", { name: "Reported Rob" }).waitFor();
      const act = admin.page.getByRole("region", { name: "Take an action" });
      await act.getByLabel("Action", { exact: true }).selectOption("SUSPENSION");
      await act.getByLabel("Days").selectOption("7");
      await act.getByLabel("Reason the member will read").fill("Threats in chat");
      await act.getByRole("button", { name: "Take action" }).click();
      await admin.page.getByText(/Suspended until/).waitFor();
      await shot(admin.page, `${vp}-moderation-member`);

      // The member's session ended: the next page asks them to log in; logging in says why and until when.
      // Their open page may hear the end on its live feed and go to login first: that navigation
      // aborts the test's (or interrupts it, as Playwright says when it lands while the test's is
      // under way), and ends on the same page.
      await member.page.goto("/settings").catch((e: Error) => {
        if (
          !e.message.includes("net::ERR_ABORTED") &&
          !/interrupted by another navigation to "[^"]*\/login"/.test(e.message)
        ) {
          throw e;
        }
      });
      await member.page.waitForURL(h.origin + "/login");
      await member.page.goto("/register");
      await member.page.getByLabel("Email", { exact: true }).fill(memberEmail);
      for (const box of await member.page.getByRole("checkbox").all()) await box.check();
      await member.page.getByRole("button", { name: "Send me a login link" }).click();
      await member.page.getByText("Check your email").waitFor();
      await member.page.goto(await mailedLink(memberEmail, { except: firstLink }));
      const refusal = member.page.getByRole("alert").filter({ hasText: "suspended until" });
      await refusal.waitFor();
      assert.match(await refusal.innerText(), /Your account is suspended until .+ UTC\. Reason: Threats in chat/);
      assert.doesNotMatch(await refusal.innerText(), /Reporter/);
      await shot(member.page, `${vp}-moderation-login-refused`);

      // A first message held as spam: the admin (as any recipient) sees it only when they ask.
      const sender = (await createAccount({ email: `mod-spammer-${vp}@example.com`, name: "Spammy" }))!;
      const me = (await getAccountByEmail(adminEmail))!.defaultProfileId;
      await sendPrivateMessage(sender.defaultProfileId, me, "Hot pics at www.example-cams.com", [], { held: true });
      await admin.page.goto(`/profile/${sender.defaultProfileId}#chat`);
      await admin.page.getByText(MODERATION_TEXTS.spamHeld).waitFor();
      assert.equal(await admin.page.getByText("www.example-cams.com").count(), 0);
      await shot(admin.page, `${vp}-moderation-held-message`);
      await admin.page.getByRole("button", { name: MODERATION_TEXTS.spamShow }).click();
      await admin.page.getByText("Hot pics at www.example-cams.com").waitFor();
      await admin.context.close();
      await member.context.close();
    } finally {
      await h.close();
    }
  });
}
