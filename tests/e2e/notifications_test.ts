/** Notifications in a real browser: a like arrives live, a click opens its page and deletes it. */

import assert from "node:assert/strict";
import { logInThroughApi, shot, startHarness, type ViewportName } from "./harness.ts";
import { TEXTS } from "../../domain/texts.ts";

for (const vp of ["phone", "desktop"] as ViewportName[]) {
  Deno.test(`e2e ${vp} - notifications: a like shows up live, a click opens it and deletes it, 'None' after`, async () => {
    const h = await startHarness();
    try {
      // A only calls the API: a browser context for A's session, and no page.
      const a = { context: await h.browser.newContext() }, b = await h.newPage(vp);
      const aId = (await logInThroughApi(a.context, h.origin, `notify-a-${vp}@example.com`)).profileId;
      const bId = (await logInThroughApi(b.context, h.origin, `notify-b-${vp}@example.com`)).profileId;

      // B's live socket reaches the server only after A's like: a like that comes while the page
      // loads shows up too (the feed starts from the cursor the page was rendered with).
      let release!: () => void;
      const released = new Promise<void>((r) => release = r);
      await b.page.routeWebSocket(/\/api\/events/, async (ws) => {
        await released;
        ws.connectToServer();
      });
      await b.page.goto("/notifications");
      await b.page.getByText(TEXTS.notificationsNone, { exact: true }).waitFor();

      // A likes B (through the API, with A's session); B's open page shows it without a reload (event stream).
      const liked = await a.context.request.put(`${h.origin}/api/profile-like`, {
        headers: { origin: h.origin },
        data: { likerProfileId: aId, likedProfileId: bId, likeType: "LIKE" },
      });
      assert.equal(liked.status(), 200);
      release();
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
