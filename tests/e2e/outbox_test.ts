/**
 * Messages written without a connection: kept on the device, shown as pending, sent once when the
 * connection returns (or at the next page load), and never stored twice when an answer is lost.
 */

import { until } from "../wait.ts";
import assert from "node:assert/strict";
import { handOver, logInThroughApi, shot, startHarness, waitHydrated } from "./harness.ts";
import { createAccount } from "../../kv/accounts.ts";
import { UI_TEXTS } from "../../domain/uiTexts.ts";
import { conversationWith } from "../../kv/messages.ts";

Deno.test("e2e phone - a message sent offline waits on the device, then lands once when the connection returns", async () => {
  const h = await startHarness();
  try {
    // B looks only at the end, on A's phone handed over (decision 0245): no tab of B's idles meanwhile.
    const a = await h.newPage("phone");
    const aId = (await logInThroughApi(a.context, h.origin, "outbox-a@example.com")).profileId;
    const b = (await createAccount({ email: "outbox-b@example.com", name: "B" }))!;
    const bId = b.defaultProfileId;
    await a.page.goto(`/profile/${bId}#chat`);
    await waitHydrated(a.page);
    const box = a.page.getByRole("textbox", { name: "Message" });

    // Offline: the message stays on the device, shown as waiting; the composer is free again.
    await a.context.setOffline(true);
    await box.fill("See you at the bar tonight");
    await box.press("Enter");
    const waiting = a.page.locator(".bubble.queued", { hasText: "See you at the bar tonight" });
    await waiting.getByText(UI_TEXTS.messageWaiting).waitFor();
    assert.equal(await box.inputValue(), "", "the composer is cleared: the message is kept below");
    await shot(a.page, "phone-chat-message-waiting");
    assert.equal((await conversationWith(bId, aId)).items.length, 0, "nothing reached the server");

    // Back online: sent by itself, once, and shown as an ordinary sent message.
    await a.context.setOffline(false);
    await a.page.locator(".bubble.mine:not(.queued)", { hasText: "See you at the bar tonight" }).waitFor({
      timeout: 20_000,
    });
    assert.equal(await waiting.count(), 0);

    // Written offline and the page closed: the next page load sends it.
    await a.context.setOffline(true);
    await box.fill("Running late");
    await box.press("Enter");
    await a.page.locator(".bubble.queued", { hasText: "Running late" }).waitFor();
    await a.page.close();
    await a.context.setOffline(false);
    const again = await a.context.newPage();
    await again.goto(`${h.origin}/chat/personal`);
    await waitHydrated(again);
    await until(async () => (await conversationWith(bId, aId)).items.length >= 2, "the queued message stored", {
      timeoutMs: 20_000,
    });

    // An answer lost on the way back (the server stored it): the retry stores nothing new.
    await again.goto(`${h.origin}/profile/${bId}#chat`);
    await waitHydrated(again);
    let dropped = 0;
    await again.route("**/api/message", async (route) => {
      if (dropped++ > 0) return route.continue();
      await route.fetch();
      await route.abort("connectionreset");
    });
    const box2 = again.getByRole("textbox", { name: "Message" });
    await box2.fill("Only once please");
    await box2.press("Enter");
    await again.locator(".bubble.mine:not(.queued)", { hasText: "Only once please" }).waitFor({ timeout: 30_000 });

    const texts = (await conversationWith(bId, aId)).items.map((m) => m.bodyText).reverse();
    assert.deepEqual(texts, ["See you at the bar tonight", "Running late", "Only once please"], "each stored once");
    await handOver(again, h.origin, b.id);
    await again.goto(`${h.origin}/profile/${aId}#chat`);
    await again.locator(".bubble", { hasText: "Only once please" }).waitFor();
    assert.equal(await again.locator(".bubble", { hasText: "See you at the bar tonight" }).count(), 1);
    await a.context.close();
  } finally {
    await h.close();
  }
});
