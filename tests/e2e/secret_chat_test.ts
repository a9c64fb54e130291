/**
 * Secret chats in real browsers: two members on two browser contexts. The one whose partner has no
 * device yet gets the clear message; once both have opened it, they see the same safety code and
 * exchange messages encrypted on their devices, with read receipts, and a picture (redrawn on the phone, so none of
 * its EXIF, GPS or XMP is left, and encrypted before upload); the screen's code loads only when it is opened; a
 * copy of the whole store in a KV file holds none of the texts and none of the picture's bytes; a report verifies. A
 * member's second phone, approved from the first, is removed from the chat's MLS group once it logs out.
 */

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { exifApp1, phoneJpeg, XMP } from "../fixtures/pictures.ts";
import { logInThroughApi, shot, startHarness, waitHydrated } from "./harness.ts";
import { until } from "../wait.ts";
import { kv } from "../../kv/db.ts";
import { listReports } from "../../kv/reports.ts";
import { SECRET_TEXTS } from "../../domain/secretChats.ts";
import { SECRET_TEXTS as AR } from "../../domain/locales/ar/secretChats.ts";
import { TEXTS } from "../../domain/texts.ts";
import { getAccountByEmail, setLanguage } from "../../kv/accounts.ts";

/** What a live event may take to show on the other page: a third of the secret screen's 15 s fallback poll. */
const LIVE_MS = 5_000;

/** Does `hay` hold the bytes of `needle`? */
function holds(hay: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * Every entry of the store (the blobs' chunks included) written to a KV file of its own, closed,
 * and its bytes (SQLite file, write-ahead log) returned: what a seized disk or a backup would hold.
 */
async function storeFileBytes(): Promise<Uint8Array[]> {
  const dir = await Deno.makeTempDir({ prefix: "secret-scan-" });
  const path = `${dir}/copy.kv`;
  const copy = await Deno.openKv(path);
  let n = 0;
  for await (const e of kv().list({ prefix: [] })) {
    await copy.set(e.key, e.value);
    n++;
  }
  copy.close();
  assert.ok(n > 20, `the store was copied (${n} entries)`);
  const out: Uint8Array[] = [];
  for (const f of [path, `${path}-wal`]) {
    try {
      out.push(await Deno.readFile(f));
    } catch { /* no write-ahead log left */ }
  }
  await Deno.remove(dir, { recursive: true });
  return out;
}

Deno.test("e2e phone - secret chat: the clear message first, then the same safety code, messages both ways, no text in the store, a verified report", async () => {
  const h = await startHarness();
  try {
    const a = await h.newPage("phone"), b = await h.newPage("phone");
    const aId = (await logInThroughApi(a.context, h.origin, "secret-a@example.com")).profileId;
    const bId = (await logInThroughApi(b.context, h.origin, "secret-b@example.com")).profileId;

    // The secret chat's code is not fetched until a member opens it.
    const secretScripts: string[] = [];
    a.page.on("request", (r) => /SecretChat-|ed25519-/.test(r.url()) && secretScripts.push(r.url()));

    // B opens it first: A has no device for secret chats yet, and B is told so.
    await b.page.goto(`/profile/${aId}#chat`);
    await b.page.getByRole("button", { name: SECRET_TEXTS.startSecretChat }).click();
    // Before it starts, the screen says that losing every device loses the history.
    const confirmB = b.page.locator(".secret-confirm");
    await confirmB.getByText(SECRET_TEXTS.loseHistory).waitFor({ timeout: 30_000 });
    await confirmB.getByRole("button", { name: SECRET_TEXTS.startSecretChat }).click();
    await b.page.getByRole("alert").filter({ hasText: SECRET_TEXTS.peerCannot }).waitFor({ timeout: 30_000 });

    await a.page.goto(`/profile/${bId}#chat`);
    assert.equal(secretScripts.length, 0, "nothing of the secret chat loads with the conversation");
    await a.page.getByRole("button", { name: SECRET_TEXTS.startSecretChat }).click();
    await a.page.locator(".secret-confirm").getByRole("button", { name: SECRET_TEXTS.startSecretChat })
      .click({ timeout: 30_000 });
    const codeA = a.page.locator(".safety-code");
    await codeA.waitFor({ timeout: 30_000 });
    assert.ok(secretScripts.some((u) => u.includes("SecretChat-")), "the screen loaded on demand");
    await a.page.getByText(SECRET_TEXTS.secretNotice).waitFor();

    // B's screen finds the chat A started and joins it: both show the same code.
    const codeB = b.page.locator(".safety-code");
    await codeB.waitFor({ timeout: 30_000 });
    const [ca, cb] = [await codeA.textContent(), await codeB.textContent()];
    assert.match(ca ?? "", /^\d{5} \d{5} \d{5} \d{5}$/);
    assert.equal(ca, cb, "both see the same safety code");

    const first = "The pink triangle at the lighthouse, nine tonight";
    const reply = "Bringing the umbrella with the rainbow handle";
    await a.page.locator(".secret-chat").getByRole("textbox").fill(first);
    await a.page.locator(".secret-chat").getByRole("button", { name: "Send", exact: true }).click();
    await a.page.locator(".bubble.mine", { hasText: first }).waitFor();
    // Live: the message and then its receipt arrive well before the 15 s fallback poll would look.
    await b.page.locator(".bubble:not(.mine)", { hasText: first }).waitFor({ timeout: LIVE_MS });
    // B read it: A's message shows the two checks, as in a conversation.
    await a.page.locator(".bubble.mine", { hasText: first }).locator(".checks", { hasText: "✓✓" })
      .waitFor({ timeout: LIVE_MS });
    await b.page.locator(".secret-chat").getByRole("textbox").fill(reply);
    await b.page.locator(".secret-chat").getByRole("button", { name: "Send", exact: true }).click();
    await a.page.locator(".bubble:not(.mine)", { hasText: reply }).waitFor({ timeout: LIVE_MS });

    // Offline, a message is kept on A's phone and shown as waiting; back online, it goes by itself.
    const offline = "Typed in the tunnel, sent at the station";
    await a.context.setOffline(true);
    await a.page.locator(".secret-chat").getByRole("textbox").fill(offline);
    await a.page.locator(".secret-chat").getByRole("button", { name: "Send", exact: true }).click();
    const waiting = a.page.locator(".bubble.mine.pending", { hasText: offline });
    await waiting.getByText(SECRET_TEXTS.queued).waitFor();
    assert.equal(await a.page.locator(".secret-chat").getByRole("textbox").inputValue(), "", "not back in the box");
    await a.context.setOffline(false);
    await b.page.locator(".bubble:not(.mine)", { hasText: offline }).waitFor({ timeout: 20_000 });
    await a.page.locator(".bubble.mine:not(.pending)", { hasText: offline }).waitFor({ timeout: LIVE_MS });
    assert.equal(await waiting.count(), 0, "no longer waiting");

    // A picture from A's phone (EXIF with GPS, XMP, an ICC profile; stored sideways): B's phone shows
    // it, turned upright and decrypted; what B's device opened holds none of the file's metadata.
    const original = await phoneJpeg();
    await a.page.locator(".secret-chat input[type=file]").setInputFiles({
      name: "harbour.jpg",
      mimeType: "image/jpeg",
      buffer: Buffer.from(original),
    });
    const mineShown = a.page.locator(".bubble.mine .secret-picture img");
    await mineShown.waitFor({ timeout: 30_000 });
    const theirs = b.page.locator(".bubble:not(.mine) .secret-picture img");
    await theirs.waitFor({ timeout: LIVE_MS });
    assert.equal(await theirs.getAttribute("alt"), SECRET_TEXTS.picture);
    const opened = await theirs.evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      // The bytes B's phone decrypted and keeps (what the picture shows), opened from its own store
      // with its sealing key: code in the page can use the key, though not read it out.
      const kept = await new Promise<number[]>((resolve, reject) => {
        const req = indexedDB.open("lambda-secret");
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const store = req.result.transaction("kv").objectStore("kv");
          const all = store.getAll();
          const keys = store.getAllKeys();
          keys.onsuccess = async () => {
            const key = all.result.find((v) => v instanceof CryptoKey) as CryptoKey;
            const at = keys.result.findIndex((k) => String(k).startsWith("pic:"));
            const sealed = all.result[at] as { iv: Uint8Array<ArrayBuffer>; ct: Uint8Array<ArrayBuffer> };
            const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: sealed.iv }, key, sealed.ct);
            resolve(Array.from(new Uint8Array(plain)));
          };
        };
      });
      return { w: img.naturalWidth, h: img.naturalHeight, src: img.src, bytes: kept };
    });
    const pictureBytes = new Uint8Array(opened.bytes);
    for (const [what, mark] of [["EXIF", "Exif"], ["XMP", "xmpmeta"], ["its creator", "secret person"]] as const) {
      assert.ok(!holds(pictureBytes, new TextEncoder().encode(mark)), `no ${what} in the picture that was sent`);
    }
    assert.ok(holds(original, new TextEncoder().encode(XMP.slice(0, 20))), "the original file had XMP");
    await shot(b.page, "phone-secret-chat-picture");

    // Unsend is a request B's device makes of A's: A's phone deletes its copy and says so; B's says it was a request.
    const regret = "Forget I said the hotel name";
    await b.page.locator(".secret-chat").getByRole("textbox").fill(regret);
    await b.page.locator(".secret-chat").getByRole("button", { name: "Send", exact: true }).click();
    await a.page.locator(".bubble:not(.mine)", { hasText: regret }).waitFor({ timeout: LIVE_MS });
    await b.page.locator(".bubble.mine", { hasText: regret }).getByRole("button", { name: SECRET_TEXTS.unsend })
      .click();
    await b.page.locator(".bubble.mine").getByText(SECRET_TEXTS.unsentMine).waitFor();
    await a.page.locator(".bubble:not(.mine)").getByText(SECRET_TEXTS.unsentTheirs).waitFor({ timeout: LIVE_MS });
    assert.equal(await a.page.locator(".bubble", { hasText: regret }).count(), 0, "A's phone deleted its copy");
    // At rest, A's phone keeps everything sealed under a key no script can read out: the raw values
    // of its store hold none of the texts, and the key is a non-extractable CryptoKey.
    const aStore = await a.page.evaluate(() =>
      new Promise<{ text: string; key: string; extractable: boolean; exported: boolean }>((resolve) => {
        const req = indexedDB.open("lambda-secret");
        req.onsuccess = () => {
          const store = req.result.transaction("kv").objectStore("kv");
          const all = store.getAll();
          all.onsuccess = () => {
            const decoder = new TextDecoder();
            const text = all.result.map((v) =>
              v instanceof CryptoKey ? "" : JSON.stringify(
                v,
                (_k, x) => x instanceof Uint8Array ? decoder.decode(x) : typeof x === "bigint" ? "" : x,
              )
            ).join("\n");
            const key = all.result.find((v) => v instanceof CryptoKey) as CryptoKey;
            crypto.subtle.exportKey("raw", key).then(() => true, () => false).then((exported) =>
              resolve({ text, key: key?.algorithm.name, extractable: key?.extractable, exported })
            );
          };
        };
      })
    );
    assert.equal(aStore.key, "AES-GCM");
    assert.equal(aStore.extractable, false);
    assert.equal(aStore.exported, false, "its bytes cannot be exported");
    for (const text of [first, reply, offline, "hotel name"]) {
      assert.ok(!aStore.text.includes(text), `"${text}" is not readable in the phone's store at rest`);
    }

    // View once: B's phone shows A's picture once; closing it deletes it there, and its bytes leave the server.
    await a.page.locator(".secret-chat").getByLabel(SECRET_TEXTS.viewOnce).check();
    await a.page.getByText(SECRET_TEXTS.viewOnceHint).waitFor();
    await a.page.locator(".secret-chat input[type=file]").setInputFiles({
      name: "once.jpg",
      mimeType: "image/jpeg",
      buffer: Buffer.from(original),
    });
    await a.page.locator(".bubble.mine .secret-once", { hasText: SECRET_TEXTS.viewOnceSent }).waitFor({
      timeout: 30_000,
    });
    const countPictures = async () => (await Array.fromAsync(kv().list({ prefix: ["secret_pictures"] }))).length;
    assert.equal(await countPictures(), 2);
    await b.page.getByRole("button", { name: SECRET_TEXTS.viewOnceOpen }).click({ timeout: LIVE_MS });
    const onceShown = b.page.locator(".secret-viewing img");
    await onceShown.waitFor({ timeout: 10_000 });
    await shot(b.page, "phone-secret-chat-view-once");
    await b.page.locator(".secret-viewing").getByRole("button", { name: SECRET_TEXTS.close }).click();
    await b.page.locator(".bubble:not(.mine) .secret-once", { hasText: SECRET_TEXTS.viewed }).waitFor();
    assert.equal(await b.page.getByRole("button", { name: SECRET_TEXTS.viewOnceOpen }).count(), 0, "once only");
    await a.page.locator(".bubble.mine .secret-once", { hasText: SECRET_TEXTS.viewed }).waitFor({ timeout: LIVE_MS });
    await until(async () => await countPictures() === 1, "the viewed picture's bytes to leave the server", {
      timeoutMs: 5_000,
      everyMs: 100,
    });
    await shot(a.page, "phone-secret-chat");

    // The whole store, as a file: neither text, in any form the store keeps a string, nor any part
    // of the picture: not what the phone sent (a few slices of its decrypted bytes), not the file.
    const files = await storeFileBytes();
    for (const text of [first, reply, "lighthouse", "rainbow handle"]) {
      const needle = new TextEncoder().encode(text);
      assert.ok(!files.some((f) => holds(f, needle)), `"${text}" is nowhere in the store's file`);
    }
    const slices: Uint8Array[] = [0.1, 0.3, 0.5, 0.7, 0.9].map((at) => {
      const from = Math.floor(pictureBytes.length * at);
      return pictureBytes.subarray(from, from + 48);
    });
    // Of the original file, what no other picture has: its EXIF with the GPS position, its XMP.
    slices.push(exifApp1(6).subarray(10, 58), new TextEncoder().encode(XMP.slice(-80)));
    for (const [i, needle] of slices.entries()) {
      assert.ok(!files.some((f) => holds(f, needle)), `slice ${i} of the picture is nowhere in the store's file`);
    }

    // B reports A's message: the server verifies its commitment and files the revealed text.
    await b.page.locator(".bubble:not(.mine)", { hasText: first }).getByRole("button", { name: SECRET_TEXTS.report })
      .click();
    await b.page.getByText(SECRET_TEXTS.reported).waitFor();
    const [report] = await listReports(aId);
    assert.equal(report.text, `${SECRET_TEXTS.verifiedReportPrefix} ${first}`);
    assert.equal(report.reporterProfileId, bId);

    // "Your data": A's phone downloads its own decrypted copy of the secret chat (built on the phone:
    // the server's ZIP cannot hold it), with the picture it keeps and the unsent message gone.
    await a.page.goto("/settings");
    const [download] = await Promise.all([
      a.page.waitForEvent("download"),
      a.page.getByRole("button", { name: TEXTS.downloadSecretChats }).click(),
    ]);
    await a.page.locator(".secret-export").scrollIntoViewIfNeeded();
    await shot(a.page, "phone-secret-chat-export");
    const mine = JSON.parse(await Deno.readTextFile((await download.path())!));
    assert.equal(mine.chats.length, 1);
    assert.equal(mine.chats[0].with, bId);
    const said = mine.chats[0].messages.map((m: { text?: string }) => m.text).filter(Boolean);
    for (const text of [first, reply, offline]) assert.ok(said.includes(text), `"${text}" is in the copy`);
    assert.ok(!JSON.stringify(mine).includes(regret), "the unsent message is not");
    assert.ok(
      mine.chats[0].messages.some((m: { picture?: string }) => m.picture?.startsWith("data:image/jpeg;base64,")),
      "the picture it keeps",
    );

    // The screen in the dark, then in Arabic (right to left), light and dark: B's phone reopens the
    // chat from what it keeps (the picture shows from its own decrypted copy).
    await b.page.emulateMedia({ colorScheme: "dark" });
    await shot(b.page, "phone-secret-chat-dark");
    await setLanguage((await getAccountByEmail("secret-b@example.com"))!.id, "ar");
    await b.page.emulateMedia({ colorScheme: "light" });
    // The same address with its #chat: a reload (a navigation to it would only move to the anchor).
    await b.page.reload();
    await waitHydrated(b.page);
    assert.equal(await b.page.locator("html").getAttribute("dir"), "rtl");
    await b.page.getByRole("button", { name: AR.startSecretChat }).first().click();
    await b.page.locator(".safety-code").waitFor({ timeout: 30_000 });
    // Compared in person with a phone in another language: its groups run left to right here too.
    const groupsLeftToRight = await b.page.locator(".safety-code").evaluate((el) => {
      const text = el.firstChild!;
      const value = text.textContent!;
      const left = (at: number) => {
        const r = document.createRange();
        r.setStart(text, at);
        r.setEnd(text, at + 1);
        return r.getBoundingClientRect().left;
      };
      return left(0) < left(value.lastIndexOf(" ") + 1);
    });
    assert.ok(groupsLeftToRight, "the safety code's first group is on the left in Arabic too");
    await b.page.getByText(AR.sendPicture).waitFor();
    await b.page.getByText(AR.unsentMine).waitFor();
    await b.page.locator(".bubble:not(.mine) .secret-picture img").waitFor({ timeout: 10_000 });
    await shot(b.page, "phone-secret-chat-ar");
    await b.page.emulateMedia({ colorScheme: "dark" });
    await shot(b.page, "phone-secret-chat-ar-dark");

    await a.context.close();
    await b.context.close();
  } finally {
    await h.close();
  }
});

Deno.test("e2e phone - secret chat: a second device of a member joins once the first approves it; the other side is told the devices changed", async () => {
  const h = await startHarness();
  try {
    const a1 = await h.newPage("phone"), b = await h.newPage("phone"), a2 = await h.newPage("phone");
    const aId = (await logInThroughApi(a1.context, h.origin, "secret2-a@example.com")).profileId;
    const bId = (await logInThroughApi(b.context, h.origin, "secret2-b@example.com")).profileId;
    const openSecret = async (page: typeof a1.page, other: string) => {
      await page.goto(`/profile/${other}#chat`);
      await page.getByRole("button", { name: SECRET_TEXTS.startSecretChat }).click();
    };

    // B's device exists (B opened it first); A's first phone starts the chat; B's joins.
    await openSecret(b.page, aId);
    await b.page.locator(".secret-confirm").getByRole("button", { name: SECRET_TEXTS.startSecretChat }).click();
    await b.page.getByRole("alert").filter({ hasText: SECRET_TEXTS.peerCannot }).waitFor({ timeout: 30_000 });
    await openSecret(a1.page, bId);
    await a1.page.locator(".secret-confirm").getByRole("button", { name: SECRET_TEXTS.startSecretChat }).click();
    await a1.page.locator(".safety-code").waitFor({ timeout: 30_000 });
    await b.page.locator(".safety-code").waitFor({ timeout: 30_000 });
    const codeBefore = await a1.page.locator(".safety-code").textContent();

    // A logs in on a second phone: it is not in the chat, and asks the first to add it.
    await logInThroughApi(a2.context, h.origin, "secret2-a@example.com");
    await openSecret(a2.page, bId);
    await a2.page.getByText(SECRET_TEXTS.otherDevice).waitFor({ timeout: 30_000 });
    await a2.page.getByRole("button", { name: SECRET_TEXTS.askToJoin }).click();
    await a2.page.getByText(SECRET_TEXTS.waitingApproval).waitFor();

    // The first phone shows the request and adds it: a new safety code, the same on all three.
    await a1.page.getByText(SECRET_TEXTS.newDeviceAsks).waitFor({ timeout: 30_000 });
    await a1.page.getByRole("button", { name: SECRET_TEXTS.addNewDevice }).click();
    await a2.page.locator(".safety-code").waitFor({ timeout: 30_000 });
    const codeAfter = await a2.page.locator(".safety-code").textContent();
    assert.notEqual(codeAfter, codeBefore, "a device more: another safety code");
    await a1.page.locator(".safety-code", { hasText: codeAfter! }).waitFor({ timeout: 20_000 });
    await b.page.locator(".safety-code", { hasText: codeAfter! }).waitFor({ timeout: 20_000 });
    await b.page.getByText(SECRET_TEXTS.devicesChanged).waitFor();

    // B writes once: both of A's phones read it. A's second phone answers: B reads it, A's first shows it as A's.
    await b.page.locator(".secret-chat").getByRole("textbox").fill("Both of your phones read this");
    await b.page.locator(".secret-chat").getByRole("button", { name: "Send", exact: true }).click();
    await a1.page.locator(".bubble:not(.mine)", { hasText: "Both of your phones read this" }).waitFor({
      timeout: 20_000,
    });
    await a2.page.locator(".bubble:not(.mine)", { hasText: "Both of your phones read this" }).waitFor({
      timeout: 20_000,
    });
    await a2.page.locator(".secret-chat").getByRole("textbox").fill("Answered from the new phone");
    await a2.page.locator(".secret-chat").getByRole("button", { name: "Send", exact: true }).click();
    await b.page.locator(".bubble:not(.mine)", { hasText: "Answered from the new phone" }).waitFor({ timeout: 20_000 });
    await a1.page.locator(".bubble.mine", { hasText: "Answered from the new phone" }).waitFor({ timeout: 20_000 });
    await shot(b.page, "phone-secret-chat-devices-changed");

    // A logs out on the second phone: a device that stays (B's or A's first) removes it from the chat's
    // MLS group; the safety code changes on both remaining phones, and they go on talking.
    const codeWithThree = await b.page.locator(".safety-code").textContent();
    // The second phone's own session logs out (the call its Log out button makes; the page then leaves).
    const cookie = (await a2.context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const out = await fetch(`${h.origin}/api/auth/logout`, { method: "POST", headers: { cookie, origin: h.origin } });
    await out.body?.cancel();
    assert.ok(out.status < 400, `logged out (${out.status})`);
    type Chat = { devices: { deviceId: string; profileId: string; evicted?: boolean }[] };
    const chat = await until(
      async () => {
        const stored = (await Array.fromAsync(kv().list<Chat>({ prefix: ["secret_chats"] })))[0]?.value;
        return stored?.devices.some((d) => d.evicted) ? stored : null;
      },
      "a device removed from the chat's group",
      { timeoutMs: 20_000, everyMs: 200 },
    );
    const evicted = chat.devices.filter((d) => d.evicted);
    assert.equal(evicted.length, 1, "one device removed from the group");
    assert.equal(evicted[0].profileId, aId);
    await b.page.locator(".safety-code").filter({ hasNotText: codeWithThree! }).waitFor({ timeout: 20_000 });
    const codeWithTwo = await b.page.locator(".safety-code").textContent();
    await a1.page.locator(".safety-code", { hasText: codeWithTwo! }).waitFor({ timeout: 20_000 });
    await b.page.locator(".secret-chat").getByRole("textbox").fill("Only your phone that stays reads this");
    await b.page.locator(".secret-chat").getByRole("button", { name: "Send", exact: true }).click();
    await a1.page.locator(".bubble:not(.mine)", { hasText: "Only your phone that stays reads this" }).waitFor({
      timeout: 20_000,
    });
    for (const x of [a1, a2, b]) await x.context.close();
  } finally {
    await h.close();
  }
});
