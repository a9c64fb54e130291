/** Notifications in a real browser: a like arrives live, a click opens its page and deletes it. */

import assert from "node:assert/strict";
import { registerAndLogIn, shot, startHarness, type ViewportName } from "./harness.ts";
import { TEXTS } from "../../domain/texts.ts";

for (const vp of ["phone", "desktop"] as ViewportName[]) {
  Deno.test(`e2e ${vp} - notifications: a like shows up live, a click opens it and deletes it, 'None' after`, async () => {
    const h = await startHarness();
    try {
      const a = await h.newPage(vp), b = await h.newPage(vp);
      await registerAndLogIn(a.page, h.origin, `notify-a-${vp}@example.com`);
      await registerAndLogIn(b.page, h.origin, `notify-b-${vp}@example.com`);
      const ids = async (p: typeof a.page) =>
        await p.evaluate(() => fetch("/api/settings").then((r) => r.json()).then((s) => s.defaultProfileId as string));
      const aId = await ids(a.page), bId = await ids(b.page);

      await b.page.goto("/notifications");
      await b.page.getByText(TEXTS.notificationsNone, { exact: true }).waitFor();

      // A likes B; B's open page shows it without a reload (event stream).
      const status = await a.page.evaluate(
        ([liker, liked]) =>
          fetch("/api/profile-like", {
            method: "PUT",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ likerProfileId: liker, likedProfileId: liked, likeType: "LIKE" }),
          }).then((r) => r.status),
        [aId, bId],
      );
      assert.equal(status, 200);
      const item = b.page.getByRole("button", { name: /Someone liked your profile\./ });
      await item.waitFor({ timeout: 10_000 });
      await shot(b.page, `${vp}-notifications`);

      await item.click();
      await b.page.waitForURL(h.origin + "/likes/profilelikedyou");
      await b.page.goto("/notifications");
      await b.page.getByText(TEXTS.notificationsNone, { exact: true }).waitFor();
      await shot(b.page, `${vp}-notifications-none`);
      await a.context.close();
      await b.context.close();
    } finally {
      await h.close();
    }
  });
}
