/**
 * My data in a real browser, on a phone and a desktop: "Download my data" mails a link; the link
 * opens Account settings, which downloads the ZIP once; "Delete my account" asks for the current
 * password, then logs the member out with the account gone.
 */

import { until } from "../wait.ts";
import assert from "node:assert/strict";
import { unzipSync } from "fflate";
import { logInThroughApi, shot, startHarness, type ViewportName } from "./harness.ts";
import { TEXTS } from "../../domain/texts.ts";
import { SECRET_DB } from "../../islands/secret/store.ts";
import { getAccountByEmail, hashPassword } from "../../kv/accounts.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { listOutbox } from "../../kv/outbox.ts";
import { shiftClock } from "../../kv/clock.ts";

for (const vp of ["phone", "desktop"] as ViewportName[]) {
  Deno.test(`e2e ${vp} - my data: download a ZIP by the mailed link; delete my account with my password`, async () => {
    const h = await startHarness();
    try {
      const { context, page } = await h.newPage(vp);
      const email = `mydata-${vp}@example.com`;
      await logInThroughApi(context, h.origin, email);
      await page.goto("/settings");
      const section = page.getByRole("region", { name: TEXTS.myDataTitle });
      await section.getByRole("button", { name: TEXTS.downloadMyData }).click();
      await section.getByText(TEXTS.exportRequested).waitFor();
      // The section as the member sees it, scrolled into the screen (not a full page: the bars stay put).
      await section.scrollIntoViewIfNeeded();
      await shot(page, `${vp}-mydata-requested`, { fullPage: false });

      let link = "";
      await until(
        async () => {
          const mail = (await listOutbox()).find((m) => m.to === email && /data is ready/.test(m.subject));
          return link = mail?.text.match(/https?:\/\/\S+#export=\S+/)?.[0] ?? "";
        },
        "the mail with the link",
        { timeoutMs: 20_000 },
      ).catch(() => {});
      assert.ok(link, "the link was mailed");
      // The link opens as a page of its own (from /settings, only its #hash would change): off the
      // app first, to a blank page, rather than to another of its screens.
      await page.goto("about:blank");
      await page.goto(link);
      await section.getByText(TEXTS.exportReady).waitFor();
      assert.equal(new URL(page.url()).hash, "", "the token leaves the address bar");
      await shot(page, `${vp}-mydata-ready`);
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        section.getByRole("button", { name: TEXTS.downloadZip }).click(),
      ]);
      const zip = unzipSync(new Uint8Array(await Deno.readFile((await download.path())!)));
      assert.equal(JSON.parse(new TextDecoder().decode(zip["data.json"])).account.email, email);

      // Delete: the password is asked (this login is older than 10 minutes by now).
      const account = (await getAccountByEmail(email))!;
      await kv().set(keys.account(account.id), { ...account, passwordHash: await hashPassword("a long password") });
      shiftClock(11 * 60_000);
      await page.goto("/settings");
      await section.getByRole("button", { name: TEXTS.deleteMyAccount }).click();
      const confirm = section.getByRole("group", { name: TEXTS.deleteMyAccount });
      await confirm.getByLabel(TEXTS.currentPassword).fill("a long password");
      // The confirmation is scrolled into view, its button on the screen and clear of the phone's tab bar
      // (nothing drawn over its middle).
      await shot(page, `${vp}-mydata-confirm`, { fullPage: false });
      const shown = await confirm.getByRole("button", { name: TEXTS.deleteConfirm }).evaluate((b) => {
        const r = b.getBoundingClientRect();
        const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return r.top >= 0 && r.bottom <= innerHeight && !!top && b.contains(top);
      });
      assert.ok(shown, "the button shows, clear of the tab bar");
      await shot(page, `${vp}-mydata-delete`);
      // What this device keeps of the member: a secret chat's store (islands/secret/store.ts) beside local storage.
      await page.evaluate((name) =>
        new Promise((done, fail) => {
          const open = indexedDB.open(name);
          open.onsuccess = () => (open.result.close(), done(null));
          open.onerror = () => fail(open.error);
        }), SECRET_DB);
      await confirm.getByRole("button", { name: TEXTS.deleteConfirm }).click();
      await page.waitForURL(`${h.origin}/?deleted=1`);
      await page.getByText(TEXTS.accountDeleted).waitFor();
      // The deleted member's device keeps nothing of them: local storage, session storage, their secret chats.
      const kept = await page.evaluate(async () => ({
        local: localStorage.length,
        session: sessionStorage.length,
        databases: (await indexedDB.databases()).map((d) => d.name),
      }));
      assert.deepEqual(kept, { local: 0, session: 0, databases: [] });
      await shot(page, `${vp}-mydata-deleted`);
      await page.goto("/settings");
      await page.waitForURL(`${h.origin}/login`);
      await context.close();
    } finally {
      await h.close();
    }
  });
}
