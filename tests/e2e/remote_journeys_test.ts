/**
 * The member journeys with the app on remote KV: the store a KV Connect server (scripts/kvConnect.ts)
 * in a process of its own, 5 ms away on every call, as Deno Deploy KV in the same region would be.
 * One app, one browser, two members walked back to back through what each would do on a first day:
 * register and onboarding, discovery, a like, a chat delivered live both ways with its read
 * receipt, Map Chat, and two community games. Each journey's own file checks its details on a
 * local store; this one proves they hold when every store call is a network round trip (snapshot
 * reads, atomic commits, watches of the change log and the job signal, pictures in chunks).
 */

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { until } from "../wait.ts";
import { registerAndLogIn, startHarness, waitHydrated } from "./harness.ts";
import { startKvConnectProcess } from "../remoteKv.ts";
import { getAccountByEmail } from "../../kv/accounts.ts";
import { getProfile, updateProfile } from "../../kv/profiles.ts";
import { getOwnPosition, reportPosition } from "../../kv/positions/mod.ts";
import { getProfileLike } from "../../kv/likes.ts";
import { portrait } from "../fixtures/pictures.ts";
import { SCREEN_TEXTS } from "../../domain/screenTexts.ts";
import { TEXTS } from "../../domain/texts.ts";

/** The store's added wait on every call, in ms: a remote KV in the app's region. */
const RTT_MS = 5;
const ROBIN_TEXT = "Coffee first, then hiking in the Superstitions. Looking for someone who laughs at bad puns.";

Deno.test({
  name: "e2e remote KV - register, onboarding, discovery, a like, live chat, Map Chat and games on a store 5 ms away",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const store = await startKvConnectProcess({ rttMs: RTT_MS });
    try {
      const h = await startHarness({ kv: store.newDatabase() });
      try {
        const a = await h.newPage("phone"), b = await h.newPage("phone");
        for (const p of [a.page, b.page]) p.setDefaultTimeout(20_000);
        let robin = "", bea = "";

        await t.step("register and onboarding: four steps, each saved at once", async () => {
          const email = "remote-robin@example.com";
          await registerAndLogIn(a.page, h.origin, email, { onboarding: true });
          robin = (await getAccountByEmail(email))!.defaultProfileId;
          await a.page.getByText(SCREEN_TEXTS.stepOf(1, 4)).waitFor();
          await a.page.getByLabel(TEXTS.name, { exact: true }).fill("Robin");
          await a.page.getByLabel(TEXTS.birthdateLabel).fill("1992-03-04");
          await a.page.getByRole("button", { name: SCREEN_TEXTS.next }).click();
          await a.page.getByText(SCREEN_TEXTS.stepOf(2, 4)).waitFor();
          assert.equal((await getProfile(robin))!.profilename, "Robin");
          // A picture: its sizes stored in chunks, each chunk an entry on the remote store.
          await a.page.locator("input[type=file]").setInputFiles({
            name: "me.jpg",
            mimeType: "image/jpeg",
            buffer: Buffer.from(await portrait(4)),
          });
          await a.page.waitForFunction(() =>
            document.querySelector<HTMLImageElement>(".onboarding-picture img")?.complete
          );
          await until(async () => (await getProfile(robin))!.profilePicIds.length === 1, "the picture is saved");
          await a.page.getByRole("button", { name: SCREEN_TEXTS.next }).click();
          await a.page.getByText(SCREEN_TEXTS.stepOf(3, 4)).waitFor();
          await a.page.getByRole("checkbox", { name: "Coffee" }).check();
          await until(
            async () => (await getProfile(robin))!.characteristics.length === 1,
            "the characteristic is saved",
          );
          await a.page.getByRole("button", { name: SCREEN_TEXTS.next }).click();
          await a.page.getByText(SCREEN_TEXTS.stepOf(4, 4)).waitFor();
          await until(async () => (await getOwnPosition(robin)) !== null, "a first position is reported");
          await a.page.getByRole("button", { name: SCREEN_TEXTS.finish }).click();
          await a.page.waitForURL(`${h.origin}/search/tile`);
          await waitHydrated(a.page);
          assert.equal((await getAccountByEmail(email))!.onboarding, undefined, "onboarding done");
          // A text for GPT Buster to show Bea below.
          assert.ok((await updateProfile(robin, { description: ROBIN_TEXT })).ok);
        });

        await t.step("a second member registers nearby", async () => {
          const email = "remote-bea@example.com";
          await registerAndLogIn(b.page, h.origin, email);
          bea = (await getAccountByEmail(email))!.defaultProfileId;
          assert.ok((await updateProfile(bea, { profilename: "Bea", birthdate: "1990-06-01" })).ok);
          const at = (await getOwnPosition(robin))!;
          await reportPosition(bea, { lat: at.lat + 0.002, lon: at.lon, use: "OVERRIDE", hide: false });
        });

        await t.step("discovery: Robin finds Bea on the grid and opens her profile", async () => {
          await a.page.goto("/search/tile");
          const tile = a.page.locator(`.tile[href="/profile/${bea}"]`);
          await tile.waitFor();
          assert.equal(await tile.locator(".tile-name").textContent(), "Bea");
          await tile.click();
          await a.page.waitForURL(`${h.origin}/profile/${bea}`);
          await waitHydrated(a.page);
        });

        await t.step("a like: saved, kept over a reload, and shown to Bea under Liked You", async () => {
          await b.page.goto("/likes/profilelikedyou");
          await b.page.getByText(TEXTS.likedYouEmpty).waitFor();
          await a.page.getByRole("button", { name: TEXTS.like, exact: true }).click();
          await a.page.getByRole("button", { name: TEXTS.removeLike }).waitFor();
          // The button turns at once; the like is saved in the background.
          await until(async () => (await getProfileLike(robin, bea)).likeType === "LIKE", "the like is saved");
          await a.page.reload();
          await a.page.getByRole("button", { name: TEXTS.removeLike }).waitFor();
          await b.page.goto("/likes/profilelikedyou");
          const tile = b.page.locator("ul.tiles a.tile").first();
          await tile.waitFor();
          assert.equal(await tile.getAttribute("href"), `/profile/${robin}`);
        });

        await t.step("chat: each message arrives live on the other side, then shows read", async () => {
          await b.page.goto("/chat/personal");
          await b.page.getByText(TEXTS.noConversations).waitFor();
          await a.page.goto(`/profile/${bea}#chat`);
          await a.page.getByRole("textbox", { name: "Message" }).fill("Hi Bea, fancy a coffee?");
          await a.page.getByRole("button", { name: "Send" }).click();
          const sent = a.page.locator(".bubble.mine", { hasText: "Hi Bea, fancy a coffee?" });
          await sent.waitFor();
          // Bea's list gets the conversation from the event stream (the change log watched on the remote store).
          await b.page.locator(".conversation-item", { hasText: "Hi Bea" }).waitFor({ timeout: 10_000 });
          await b.page.locator(".conversation-item").first().click();
          await b.page.waitForURL(/\/profile\//);
          await waitHydrated(b.page);
          await b.page.locator(".bubble", { hasText: "Hi Bea, fancy a coffee?" }).waitFor();
          await b.page.getByRole("textbox", { name: "Message" }).fill("Sure! Where?");
          await b.page.keyboard.press("Enter");
          await b.page.locator(".bubble.mine", { hasText: "Sure! Where?" }).waitFor();
          await a.page.locator(".bubble", { hasText: "Sure! Where?" }).waitFor({ timeout: 10_000 });
          await sent.locator(".checks", { hasText: "✓✓" }).waitFor({ timeout: 20_000 });
        });

        await t.step("Map Chat: a post reaches the member nearby", async () => {
          await a.page.goto("/chat/broadcast");
          await a.page.getByRole("textbox", { name: "Message" }).fill("Anyone at the pride picnic?");
          await a.page.getByRole("button", { name: "Send" }).click();
          await a.page.locator(".bubble.mine", { hasText: "Anyone at the pride picnic?" }).waitFor();
          await b.page.goto("/chat/broadcast");
          await b.page.locator(".bubble", { hasText: "Anyone at the pride picnic?" }).waitFor();
        });

        await t.step("games: GPT Buster and The Rating Game earn Bea volunteer credits", async () => {
          const credits = () => b.page.locator(".game-credits").first().innerText();
          await b.page.goto("/games/gptbuster");
          assert.equal(await b.page.locator(".game-text").innerText(), ROBIN_TEXT);
          await b.page.getByRole("button", { name: "Human", exact: true }).click();
          await b.page.locator(".game-tally").waitFor();
          assert.match(await b.page.locator(".game-tally").innerText(), /Human: 1/);
          assert.equal(await credits(), "Volunteer credits: 1");
          await b.page.goto("/games/ratinggame");
          const card = b.page.locator(".swipe-card:not(.behind)");
          assert.equal(await card.getAttribute("data-pic-id"), (await getProfile(robin))!.profilePicIds[0]);
          await b.page.getByRole("button", { name: /Nice/ }).click();
          await b.page.waitForFunction(() =>
            document.querySelector(".game-credits")?.textContent === "Volunteer credits: 2"
          );
        });

        await a.context.close();
        await b.context.close();
      } finally {
        await h.close();
      }
    } finally {
      await store.close();
    }
  },
});
