/** Chat in a real browser: a private conversation with read receipts, and Map Chat. */

import assert from "node:assert/strict";
import { handOver, logInThroughApi, shot, startHarness, type ViewportName, waitHydrated } from "./harness.ts";
import { createAccount, getAccountByEmail } from "../../kv/accounts.ts";
import { TEXTS } from "../../domain/texts.ts";
import { portraitPicture } from "../fixtures/pictures.ts";
import { addPicture } from "../../kv/pictures.ts";
import { reportPosition } from "../../kv/positions/mod.ts";

for (const vp of ["phone", "desktop"] as ViewportName[]) {
  Deno.test(`e2e ${vp} - chat: a message arrives, is read, shows two checks; Map Chat posts nearby`, async () => {
    const h = await startHarness();
    try {
      const a = await h.newPage(vp), b = await h.newPage(vp);
      // The two members register at once (through the API: their pages' first loads are the chat's).
      const [, bId] = (await Promise.all([
        logInThroughApi(a.context, h.origin, `chat-a-${vp}@example.com`),
        logInThroughApi(b.context, h.origin, `chat-b-${vp}@example.com`),
      ])).map((m) => m.profileId);

      await b.page.goto("/chat/personal");
      await b.page.getByText(TEXTS.noConversations).waitFor();

      await a.page.goto(`/profile/${bId}#chat`);
      const box = a.page.getByRole("textbox", { name: "Message" });
      await box.fill("   ");
      assert.equal(await a.page.getByRole("button", { name: "Send" }).isDisabled(), true, "nothing to send");
      await box.fill("Hi there, fancy a coffee?");
      await a.page.getByRole("button", { name: "Send" }).click();
      const sent = a.page.locator(".bubble.mine", { hasText: "Hi there, fancy a coffee?" });
      await sent.waitFor();
      assert.equal(await sent.locator(".checks").textContent(), "✓");

      // B sees the conversation appear live (event stream), opens it: the message is read.
      await b.page.locator(".conversation-item", { hasText: "Hi there" }).waitFor({ timeout: 10_000 });
      await shot(b.page, `${vp}-conversations`);
      await b.page.locator(".conversation-item").first().click();
      await b.page.waitForURL(/\/profile\//);
      await waitHydrated(b.page);
      await b.page.locator(".bubble", { hasText: "Hi there, fancy a coffee?" }).waitFor();
      await b.page.getByRole("textbox", { name: "Message" }).fill("Sure! Where?");
      await b.page.keyboard.press("Enter");
      await b.page.locator(".bubble.mine", { hasText: "Sure! Where?" }).waitFor();
      await shot(b.page, `${vp}-chat`);

      await a.page.locator(".bubble", { hasText: "Sure! Where?" }).waitFor({ timeout: 10_000 });
      await sent.locator(".checks", { hasText: "✓✓" }).waitFor({ timeout: 20_000 });
      await sent.locator(".bubble-body").click();
      await a.page.getByText(/Seen/).waitFor();
      await shot(a.page, `${vp}-chat-read`);

      // Map Chat: both are near Phoenix (the random default), so B sees A's post.
      await a.page.goto("/chat/broadcast");
      await a.page.getByRole("textbox", { name: "Message" }).fill("Anyone at the pride picnic?");
      await a.page.getByRole("button", { name: "Send" }).click();
      await a.page.locator(".bubble.mine", { hasText: "Anyone at the pride picnic?" }).waitFor();
      await b.page.goto("/chat/broadcast");
      await b.page.locator(".bubble", { hasText: "Anyone at the pride picnic?" }).waitFor({ timeout: 20_000 });
      await b.page.getByText(TEXTS.thatsAll).waitFor();
      await shot(b.page, `${vp}-map-chat`);
      await a.context.close();
      await b.context.close();
    } finally {
      await h.close();
    }
  });
}

Deno.test("e2e - a picture sent in chat still shows after its owner makes it private; locked, the bubble says so", async () => {
  const h = await startHarness();
  try {
    // One phone that A and B take turns on (decision 0245): neither watches the other live.
    const { context, page } = await h.newPage("phone");
    const aId = (await logInThroughApi(context, h.origin, "chatpic-a@example.com")).profileId;
    const aAccount = (await getAccountByEmail("chatpic-a@example.com"))!.id;
    const b = (await createAccount({ email: "chatpic-b@example.com", name: "B" }))!;
    const bId = b.defaultProfileId;
    const added = await addPicture(aId, await portraitPicture(3));
    assert.ok(added.ok);
    const picId = added.pic.id;
    // A's message and A's picture made private, through the API with A's session.
    const call = async (method: string, path: string, data?: unknown) =>
      (await context.request.fetch(h.origin + path, { method, headers: { origin: h.origin }, data })).status();
    const body = { senderProfileId: aId, recipientProfileId: bId, bodyText: "This is me", profilePicIds: [picId] };
    assert.equal(await call("POST", "/api/message", body), 201);
    assert.equal(await call("PUT", "/api/profile", { profilePicIds: [], profilePicIdsPrivate: [picId] }), 200);

    await handOver(page, h.origin, b.id);
    await page.goto(`/profile/${aId}#chat`);
    const pic = page.locator(".bubble .bubble-pics img");
    await pic.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>(".bubble .bubble-pics img");
      return img?.complete && img.naturalWidth > 0;
    });
    await shot(page, "phone-chat-picture-private-still-shown");

    // A locks their private pictures for B from B's profile (Actions).
    await handOver(page, h.origin, aAccount);
    await page.goto(`/profile/${bId}`);
    await page.getByRole("button", { name: "Actions" }).click();
    await page.getByRole("button", { name: TEXTS.lockPictures }).click();
    await page.getByText(TEXTS.picturesLocked).waitFor();
    await shot(page, "phone-profile-pictures-locked");
    await handOver(page, h.origin, b.id);
    await page.goto(`/profile/${aId}#chat`);
    await page.locator(".bubble .pic-gone", { hasText: TEXTS.picNoLongerShared }).waitFor();
    assert.equal(await page.locator(".bubble .bubble-pics img").count(), 0, "no broken image");
    await shot(page, "phone-chat-picture-locked");
    await context.close();
  } finally {
    await h.close();
  }
});

Deno.test("e2e - delete a message for me, unsend one for both (the other side updates live), delete a conversation", async () => {
  const h = await startHarness();
  try {
    const a = await h.newPage("phone"), b = await h.newPage("phone");
    // The two members register at once (through the API: their pages' first loads are the chat's).
    const [aId, bId] = (await Promise.all([
      logInThroughApi(a.context, h.origin, "del-a@example.com"),
      logInThroughApi(b.context, h.origin, "del-b@example.com"),
    ])).map((m) => m.profileId);
    await a.page.goto(`/profile/${bId}#chat`);
    const box = a.page.getByRole("textbox", { name: "Message" });
    for (const text of ["Keep this one", "Only for me to forget", "Oops, wrong person"]) {
      await box.fill(text);
      await a.page.getByRole("button", { name: "Send" }).click();
      await a.page.locator(".bubble.mine", { hasText: text }).waitFor();
    }
    await b.page.goto(`/profile/${aId}#chat`);
    await b.page.locator(".bubble", { hasText: "Oops, wrong person" }).waitFor();

    // Unsend: gone on both sides, B's page without a reload.
    await a.page.locator(".bubble.mine", { hasText: "Oops, wrong person" }).locator(".bubble-body").click();
    await shot(a.page, "phone-chat-message-actions");
    await a.page.getByRole("button", { name: TEXTS.unsend }).click();
    await a.page.locator(".bubble", { hasText: "Oops, wrong person" }).waitFor({ state: "detached" });
    await b.page.locator(".bubble", { hasText: "Oops, wrong person" }).waitFor({ state: "detached", timeout: 10_000 });

    // Delete for me: gone on A's side, B keeps it.
    await a.page.locator(".bubble.mine", { hasText: "Only for me to forget" }).locator(".bubble-body").click();
    await a.page.getByRole("button", { name: TEXTS.deleteForMe }).click();
    await a.page.locator(".bubble", { hasText: "Only for me to forget" }).waitFor({ state: "detached" });
    await b.page.reload();
    await b.page.locator(".bubble", { hasText: "Only for me to forget" }).waitFor();

    // B deletes the whole conversation from their list.
    await b.page.goto("/chat/personal");
    b.page.once("dialog", (d) => d.accept());
    await b.page.getByRole("button", { name: new RegExp(`^${TEXTS.deleteConversation} with`) }).click();
    await b.page.getByText(TEXTS.noConversations).waitFor();
    await shot(b.page, "phone-conversation-deleted");
    await a.context.close();
    await b.context.close();
  } finally {
    await h.close();
  }
});

Deno.test("e2e - the chat header and the grid show the other member online; Typing... while they type", async () => {
  const h = await startHarness();
  try {
    const a = await h.newPage("desktop"), b = await h.newPage("desktop");
    // The two members register at once (through the API: their pages' first loads are the chat's).
    const [aId, bId] = (await Promise.all([
      logInThroughApi(a.context, h.origin, "typing-a@example.com"),
      logInThroughApi(b.context, h.origin, "typing-b@example.com"),
    ])).map((m) => m.profileId);
    await a.page.goto(`/profile/${bId}#chat`);
    await b.page.goto(`/profile/${aId}#chat`);
    // Both pages hold the live stream open: each sees the other online (after a refresh of the header).
    await a.page.reload();
    await a.page.locator(".chat .presence", { hasText: TEXTS.onlineNow }).waitFor({ timeout: 10_000 });
    await b.page.getByRole("textbox", { name: "Message" }).pressSequentially("Hey, are you", { delay: 30 });
    await a.page.locator(".chat .presence", { hasText: TEXTS.typing }).waitFor({ timeout: 5000 });
    await shot(a.page, "desktop-chat-typing");
    await b.page.keyboard.press("Enter");
    await a.page.locator(".bubble", { hasText: "Hey, are you" }).waitFor({ timeout: 10_000 });
    await a.page.locator(".chat .presence", { hasText: TEXTS.onlineNow }).waitFor({ timeout: 5000 });
    // A quick message and a short reply typed right after it: the reply's typing shows too (the
    // sender's page starts a new round at each message instead of waiting out its repeat).
    const box = b.page.getByRole("textbox", { name: "Message" });
    await box.pressSequentially("Sure", { delay: 20 });
    await b.page.keyboard.press("Enter");
    await box.pressSequentially("ok", { delay: 20 });
    await a.page.locator(".bubble", { hasText: "Sure" }).waitFor({ timeout: 10_000 });
    await a.page.locator(".chat .presence", { hasText: TEXTS.typing }).waitFor({ timeout: 3000 });
    // Silence ends it.
    await a.page.locator(".chat .presence", { hasText: TEXTS.onlineNow }).waitFor({ timeout: 9000 });
    // B's grid marks A, whose page is open, online.
    await reportPosition(aId, { lat: 33.4484, lon: -112.074, use: "OVERRIDE", hide: false });
    await reportPosition(bId, { lat: 33.45, lon: -112.07, use: "OVERRIDE", hide: false });
    await b.page.goto("/search/tile");
    await b.page.locator(`a.tile[href="/profile/${aId}"] .online-dot`).waitFor({ timeout: 10_000 });
    await shot(b.page, "desktop-tiles-online-dot");
    await a.context.close();
    await b.context.close();
  } finally {
    await h.close();
  }
});

Deno.test("e2e - a view-once private picture opens full screen once; then the bubble says opened, on both sides", async () => {
  const h = await startHarness();
  try {
    const a = await h.newPage("phone"), b = await h.newPage("phone");
    // The two members register at once (through the API: their pages' first loads are the chat's).
    const [aId, bId] = (await Promise.all([
      logInThroughApi(a.context, h.origin, "once-a@example.com"),
      logInThroughApi(b.context, h.origin, "once-b@example.com"),
    ])).map((m) => m.profileId);
    const added = await addPicture(aId, await portraitPicture(5));
    assert.ok(added.ok);
    // A makes the picture private, through the API with A's session.
    const made = await a.context.request.put(`${h.origin}/api/profile`, {
      headers: { origin: h.origin },
      data: { profilePicIds: [], profilePicIdsPrivate: [added.pic.id] },
    });
    assert.equal(made.status(), 200);

    await a.page.goto(`/profile/${bId}#chat`);
    await a.page.getByRole("button", { name: "Attach pictures" }).click();
    await a.page.locator(".pic-chooser label").first().click();
    await a.page.getByLabel(TEXTS.viewOnce).check();
    await a.page.getByRole("button", { name: "Send" }).click();
    await a.page.locator(".bubble.mine .view-once-state", { hasText: TEXTS.viewOnceNotOpened }).waitFor();

    await b.page.goto(`/profile/${aId}#chat`);
    assert.equal(await b.page.locator(".bubble .bubble-pics img").count(), 0, "no picture before it is opened");
    await b.page.getByRole("button", { name: new RegExp(TEXTS.viewOnceOpen) }).click();
    const viewer = b.page.getByRole("dialog", { name: TEXTS.viewOnce });
    await viewer.waitFor();
    await b.page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>(".view-once-viewer img");
      return img?.complete && img.naturalWidth > 0;
    });
    await shot(b.page, "phone-view-once-open");
    await viewer.getByRole("button", { name: "Close" }).click();
    await b.page.locator(".bubble .view-once.opened").waitFor();
    await a.page.locator(".bubble.mine .view-once-state", { hasText: TEXTS.viewOnceOpened }).waitFor({
      timeout: 10_000,
    });
    await shot(a.page, "phone-view-once-sender-opened");
    await a.context.close();
    await b.context.close();
  } finally {
    await h.close();
  }
});
