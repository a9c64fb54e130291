/**
 * 3 2 1 Identify in Chromium with a fake camera playing a clip made here: a member asks for a
 * pose, takes the selfie after the countdown and sends it; a member made this week is told why they
 * judge nothing yet; three eligible members (accounts older than a week, with a public picture)
 * judge it (they disagree), an admin decides it from the moderation queue and the audit log says
 * so; the Verified badge shows on the profile and the tiles, "Verified only" finds
 * them, "Only verified members can message me" refuses an unverified member with the reason (the
 * message kept to send again) and lets the verified one through; the selfie is gone afterwards.
 */

import { until } from "../wait.ts";
import assert from "node:assert/strict";
import sharp from "sharp";
import type { Page } from "playwright-core";
import { handOver, logInAs, shot, startHarness } from "./harness.ts";
import { portraitPicture } from "../fixtures/pictures.ts";
import { type Account, createAccount, setLanguage, setRoles } from "../../kv/accounts.ts";
import { IDENTIFY_TEXTS } from "../../domain/identify.ts";
import { withLocale } from "../../domain/i18n.ts";
import { updateProfile } from "../../kv/profiles.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { addPicture } from "../../kv/pictures.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";

const HOME = { lat: 33.4484, lon: -112.074 };
const W = 320, H = 240, FRAMES = 10;

/**
 * A Y4M clip (I420, 320 × 240, 10 frames) of a face-like drawing, written by hand: the header,
 * then per frame "FRAME\n", the Y plane and the quarter-size U and V planes.
 */
async function cameraClip(): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
    <rect width="${W}" height="${H}" fill="#3b6ea8"/>
    <ellipse cx="160" cy="120" rx="70" ry="90" fill="#e8b48f"/>
    <circle cx="135" cy="105" r="9" fill="#222"/><circle cx="185" cy="105" r="9" fill="#222"/>
    <path d="M130 160 Q160 185 190 160" stroke="#7a2d2d" stroke-width="7" fill="none"/>
    <rect x="240" y="60" width="30" height="90" rx="12" fill="#e8b48f"/>
  </svg>`;
  const rgb = await sharp(new TextEncoder().encode(svg)).removeAlpha().raw().toBuffer();
  const y = new Uint8Array(W * H), u = new Uint8Array(W * H / 4), v = new Uint8Array(W * H / 4);
  for (let j = 0; j < H; j++) {
    for (let i = 0; i < W; i++) {
      const p = (j * W + i) * 3;
      const [r, g, b] = [rgb[p], rgb[p + 1], rgb[p + 2]];
      y[j * W + i] = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
      if (j % 2 === 0 && i % 2 === 0) {
        const q = (j / 2) * (W / 2) + i / 2;
        u[q] = Math.max(0, Math.min(255, Math.round(128 - 0.169 * r - 0.331 * g + 0.5 * b)));
        v[q] = Math.max(0, Math.min(255, Math.round(128 + 0.5 * r - 0.419 * g - 0.081 * b)));
      }
    }
  }
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [enc.encode(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`)];
  for (let f = 0; f < FRAMES; f++) parts.push(enc.encode("FRAME\n"), y, u, v);
  const path = Deno.makeTempFileSync({ suffix: ".y4m" });
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  Deno.writeFileSync(path, out);
  return path;
}

/** A member with `pictures` public pictures; `ageDays`: their account made that many days ago. */
async function member(tag: string, name: string, i: number, pictures: number, ageDays = 0) {
  const a = (await createAccount({ email: `${tag}@example.com`, name }))!;
  if (ageDays) {
    const entry = await kv().get<Account>(keys.account(a.id));
    await kv().set(entry.key, { ...entry.value!, tsCreated: entry.value!.tsCreated - ageDays * 24 * 3_600_000 });
  }
  const id = a.defaultProfileId;
  assert.ok((await updateProfile(id, { profilename: name, birthdate: `198${i % 10}-05-15` })).ok);
  for (let n = 0; n < pictures; n++) {
    assert.ok((await addPicture(id, await portraitPicture(i * 3 + n))).ok);
  }
  await reportPosition(id, { lat: HOME.lat + 0.004 * i, lon: HOME.lon + 0.003 * i, use: "OVERRIDE", hide: false });
  return { accountId: a.id, profileId: id, name };
}

/**
 * A screen for docs/screens/identify: the whole page from its top, or (`at`) the screenful around
 * that element.
 */
async function screen(page: Page, name: string, at?: string): Promise<void> {
  if (!at) {
    await page.evaluate(() => scrollTo(0, 0));
    return await shot(page, name);
  }
  await page.locator(at).evaluate((el) => el.scrollIntoView({ block: "start" }));
  await shot(page, name, { fullPage: false });
}

Deno.test({
  name: "e2e - 3 2 1 Identify: camera selfie, three judges and an admin, badge, filter and message setting",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const clip = await cameraClip();
    const h = await startHarness({ fakeCamera: clip });
    try {
      const sam = await member("sam", "Sam", 1, 2);
      // Judges must be eligible: accounts older than a week, with a public picture.
      const judges = [
        await member("j1", "Jo", 2, 1, 30),
        await member("j2", "Kai", 3, 1, 60),
        await member("j3", "Lee", 4, 1, 90),
      ];
      const admin = await member("admin", "Ada", 5, 0);
      await setRoles(admin.accountId, ["USER", "ADMIN"]);
      const picky = await member("picky", "Pat", 6, 1);

      // Pat accepts messages only from verified members (Account settings).
      const p = await h.newPage("phone");
      await logInAs(p.page.context(), h.origin, picky.accountId);
      await p.page.goto("/settings");
      await p.page.getByLabel("Only verified members can message me").check();
      await until(
        async () => (await kv().get(keys.idOnlyVerified(picky.profileId))).value !== null,
        "the setting saved",
      )
        .catch(() => {});
      assert.equal((await kv().get(keys.idOnlyVerified(picky.profileId))).value, true);
      await screen(p.page, "identify-settings-phone", "#safety-title");

      // Sam, not verified yet, writes to Pat: refused with the reason, the message kept. Both show
      // once, in the failed bubble with Send again; the message box is left empty.
      const s = await h.newPage("phone");
      await logInAs(s.page.context(), h.origin, sam.accountId);
      await s.page.goto(`/profile/${picky.profileId}#chat`);
      const box = s.page.getByRole("textbox", { name: "Message" });
      await box.fill("Hi Pat, coffee sometime?");
      await s.page.getByRole("button", { name: "Send" }).click();
      const failed = s.page.locator(".bubble.queued.failed");
      await failed.getByText("accepts messages only from verified members").waitFor();
      await failed.getByRole("button", { name: "Send again" }).waitFor();
      assert.equal(await s.page.getByText("accepts messages only from verified members").count(), 1);
      assert.equal(await s.page.getByText("Hi Pat, coffee sometime?").count(), 1);
      assert.equal(await box.inputValue(), "");
      await screen(s.page, "identify-refused-phone");

      // Asking: a pose, the countdown, the selfie from the camera, sent.
      await s.page.goto("/games/identify");
      await s.page.getByRole("button", { name: "Get my pose" }).click();
      await s.page.locator(".id-pose").waitFor();
      await s.page.waitForFunction(() =>
        (document.querySelector(".id-frame video") as HTMLVideoElement)?.videoWidth > 0
      );
      await s.page.getByRole("button", { name: "3, 2, 1: take my selfie" }).click();
      await s.page.getByRole("timer", { name: "Countdown" }).waitFor();
      await s.page.getByRole("button", { name: "Send this selfie" }).waitFor({ timeout: 10_000 });
      await screen(s.page, "identify-ask-phone");
      await s.page.getByRole("button", { name: "Send this selfie" }).click();
      await s.page.getByText("Sent! The community will compare").waitFor();
      const attempts: string[] = [];
      for await (const e of kv().list({ prefix: keys.idAttemptsAll() })) attempts.push(e.key[1] as string);
      assert.equal(attempts.length, 1);
      const attemptId = attempts[0];
      assert.ok(await kv().get(keys.blob(`identify-selfie:${attemptId}`)).then((e) => e.value));

      // Pat, whose account was made today, is told why there is nothing to judge: no error page.
      await p.page.goto("/games/identify");
      await p.page.locator('.id-judge [data-why="NEW_ACCOUNT"]').getByText("when your account is a week old").waitFor();
      assert.equal(await p.page.locator(".id-selfie").count(), 0);
      await screen(p.page, "identify-judge-new-account-phone", ".id-judge");

      // Three judges: two say same, one cannot tell; it goes to the admins. The second reads Arabic.
      // The first judges on a desktop, whose tab the admin is handed next; the other two take turns
      // on one phone, handed on to the badge's checks.
      await setLanguage(judges[1].accountId, "ar");
      const desktop = await h.newPage("desktop"), phone = await h.newPage("phone");
      for (const [i, j] of judges.entries()) {
        const { page } = i === 0 ? desktop : phone;
        const lang = i === 1 ? "ar" : "en";
        const text = (t: (x: typeof IDENTIFY_TEXTS) => string) => withLocale(lang, () => t(IDENTIFY_TEXTS));
        await handOver(page, h.origin, j.accountId);
        await page.goto("/games/identify");
        const selfie = page.getByRole("img", { name: text((t) => t.theSelfie) });
        await selfie.waitFor();
        await page.waitForFunction(() => (document.querySelector(".id-selfie") as HTMLImageElement)?.naturalWidth > 0);
        // Nothing that finds Sam: no name, no profile id.
        const html = await page.content();
        assert.ok(!html.includes(sam.profileId) && !html.includes(">Sam<"), "the judge never learns who it is");
        if (i === 0) {
          await screen(page, "identify-judge-desktop");
          await page.emulateMedia({ colorScheme: "dark" });
          await screen(page, "identify-judge-desktop-dark");
        }
        if (lang === "ar") {
          assert.equal(await page.getAttribute("html", "dir"), "rtl");
          await screen(page, "identify-judge-phone-ar");
        }
        await page.getByRole("button", { name: text((t) => i === 2 ? t.wrongPose : t.same) }).click();
        await page.getByText(text((t) => t.thanks)).waitFor();
      }

      // The admin decides alone, from the moderation queue; the audit log says who and what.
      const a = desktop;
      await a.page.emulateMedia({ colorScheme: "light" });
      await handOver(a.page, h.origin, admin.accountId);
      await a.page.goto("/admin/moderation");
      const queued = a.page.locator(`.id-admin-list [data-attempt="${attemptId}"]`);
      await queued.getByText("The judges disagreed.").waitFor();
      await queued.getByText("Judges: 2 same, 0 not the same, 1 wrong pose.").waitFor();
      await a.page.waitForFunction(() =>
        (document.querySelector(".id-admin .id-selfie") as HTMLImageElement)?.naturalWidth > 0
      );
      await screen(a.page, "identify-admin-desktop", ".id-admin");
      await queued.getByRole("button", { name: "Same person, right pose" }).click();
      await a.page.getByText("Decided.").waitFor();
      await a.page.reload();
      const audited = a.page.locator(".audit-log tr", { hasText: "IDENTIFY_VERIFIED" });
      await audited.getByText("Ada").waitFor();
      await audited.getByText(sam.profileId).waitFor();

      // The selfie is gone; only the outcome is kept.
      assert.equal((await kv().get(keys.blob(`identify-selfie:${attemptId}`))).value, null);
      assert.equal((await kv().get(keys.idAttempt(attemptId))).value, null);
      const outcome = await kv().get<{ outcome: string }>(keys.idOutcome(sam.profileId, attemptId));
      assert.equal(outcome.value?.outcome, "VERIFIED");

      // The badge on the profile and the tiles; "Verified only" finds Sam alone.
      const j = phone;
      await handOver(j.page, h.origin, judges[0].accountId);
      await j.page.goto(`/profile/${sam.profileId}`);
      await j.page.locator(".hero-caption").getByRole("img", { name: "Verified" }).waitFor();
      await screen(j.page, "identify-badge-profile-phone");
      await j.page.goto("/search/tile");
      const samTile = j.page.locator(".tile", { hasText: "Sam" });
      await samTile.getByRole("img", { name: "Verified" }).waitFor();
      assert.equal(await j.page.locator(".tile", { hasText: "Kai" }).getByRole("img", { name: "Verified" }).count(), 0);
      await j.page.getByText("Filter").first().click();
      await j.page.getByLabel("Verified only").check();
      await j.page.waitForFunction(() => document.querySelectorAll(".tile").length === 1);
      assert.match(await j.page.locator(".tile").first().innerText(), /Sam/);
      await j.page.getByRole("button", { name: "Show results" }).click();
      await screen(j.page, "identify-tiles-verified-only-phone");
      await j.page.emulateMedia({ colorScheme: "dark" });
      await screen(j.page, "identify-tiles-verified-only-phone-dark");

      // Sam, verified now, sends the kept message again; Pat gets it.
      await s.page.goto(`/profile/${picky.profileId}#chat`);
      await s.page.getByRole("button", { name: /Send again/ }).first().click();
      await s.page.waitForFunction(() => !document.body.innerText.includes("accepts messages only from verified"));
      await p.page.goto(`/profile/${sam.profileId}#chat`);
      await p.page.getByText("Hi Pat, coffee sometime?").first().waitFor();
      await p.page.locator(".chat-head").getByRole("img", { name: "Verified" }).waitFor();
      await screen(p.page, "identify-chat-badge-phone");
    } finally {
      await h.close();
      Deno.removeSync(clip);
    }
  },
});
