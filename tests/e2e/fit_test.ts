/**
 * What a phone shows fits: the discovery tiles (distance, "New", name, age, picture count), the profile's action bar (Remove Like, Chat, Notes, Actions) and the
 * chat screen's header (back, avatar, name with its Verified badge, "Online now" or "Typing…", Profile) measured at 320,
 * 390 and 430 px wide in every language. No two of their parts overlap, none sticks out of its
 * bar or the screen, and no text overflows the box that holds it.
 *
 * Each language's page is loaded once, at 320 px, and resized to each width (`atWidth`): what is
 * measured is the layout at that width, which the style sheets alone set (no island reads the
 * screen's width to lay these parts out), so a page loaded at 390 px lays them out as the 320 px
 * one resized to 390 does (decision 0241).
 */

import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import { type Harness, logInThroughApi, settledPaint, shot, sideBySide, startHarness } from "./harness.ts";
import { createAccount } from "../../kv/accounts.ts";
import { getProfile, updateProfile } from "../../kv/profiles.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { addPicture } from "../../kv/pictures.ts";
import { putProfileLike } from "../../kv/likes.ts";
import { markSeen } from "../../kv/presence.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { publishEvent } from "../../kv/events.ts";
import { now } from "../../kv/clock.ts";
import { portraitPicture } from "../fixtures/pictures.ts";

const WIDTHS = [320, 390, 430];
/** The phones' height, at every width. */
const HEIGHT = 800;
const LOCALES = ["en-US", "es-ES", "pt-BR", "fr-FR", "ar"];

/** A logged-in member's cookies and storage, for a new context. */
type State = Awaited<ReturnType<BrowserContext["storageState"]>>;

/**
 * Pages in one browser context per language, as one phone in that language would open them: the
 * build's scripts are fetched and compiled once per language, not once per page. `open` gives a
 * new page (a tab of its own, so nothing in its session storage is shared), `WIDTHS[0]` wide.
 */
function phonesByLanguage(h: Harness, state: State) {
  const contexts = new Map<string, Promise<BrowserContext>>();
  return {
    async open(locale: string): Promise<Page> {
      if (!contexts.has(locale)) {
        contexts.set(
          locale,
          h.browser.newContext({
            viewport: { width: WIDTHS[0], height: HEIGHT },
            isMobile: true,
            hasTouch: true,
            baseURL: h.origin,
            // As every browser test but the offline one (harness.ts): the app's service worker would
            // precache the whole build in each context and take every request of the walk through itself.
            serviceWorkers: "block",
            locale,
            storageState: state,
          }),
        );
      }
      return await (await contexts.get(locale)!).newPage();
    },
    async close(): Promise<void> {
      for (const ctx of contexts.values()) await (await ctx).close();
    },
  };
}

/**
 * The page turned to `width` (the phone's height kept), once it has laid itself out again and
 * stopped moving: what the checks then measure is the layout at that width.
 */
async function atWidth(page: Page, width: number): Promise<void> {
  if (page.viewportSize()?.width !== width) await page.setViewportSize({ width, height: HEIGHT });
  await settledPaint(page);
}

interface Fault {
  what: string;
}

/**
 * The faults of the parts of `container` (the selectors, in it): two that overlap, one outside
 * the container or the screen, one whose text is wider or taller than its box.
 */
function faults(page: Page, container: string, parts: string[]): Promise<Fault[]> {
  return page.evaluate(([container, parts]) => {
    const out: { what: string }[] = [];
    const root = document.querySelector(container);
    if (!root) return [{ what: `no ${container}` }];
    const r = root.getBoundingClientRect();
    const seen: { name: string; b: DOMRect }[] = [];
    for (const sel of parts) {
      const el = root.querySelector<HTMLElement>(sel);
      if (!el || !el.offsetParent) continue;
      const b = el.getBoundingClientRect();
      const name = `${sel} "${el.textContent?.trim()}"`;
      if (b.left < r.left - 0.5 || b.right > r.right + 0.5 || b.top < r.top - 0.5 || b.bottom > r.bottom + 0.5) {
        out.push({ what: `${name} sticks out of ${container}` });
      }
      if (b.left < -0.5 || b.right > innerWidth + 0.5) out.push({ what: `${name} sticks out of the screen` });
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).textOverflow !== "ellipsis") {
        out.push({ what: `${name}: its text is wider than its box (${el.scrollWidth} > ${el.clientWidth})` });
      }
      if (el.scrollHeight > el.clientHeight + 1) {
        out.push({ what: `${name}: its text is taller than its box (${el.scrollHeight} > ${el.clientHeight})` });
      }
      // The text itself, as laid out: every line box inside the part (one cut short with "…" ends inside).
      const cut = getComputedStyle(el).textOverflow === "ellipsis" && getComputedStyle(el).overflow === "hidden";
      const range = document.createRange();
      range.selectNodeContents(el);
      for (const line of cut ? [] : range.getClientRects()) {
        if (line.width === 0) continue;
        if (line.right > b.right + 1 || line.left < b.left - 1 || line.bottom > b.bottom + 1 || line.top < b.top - 1) {
          out.push({ what: `${name}: its text spills out of it` });
          break;
        }
      }
      for (const o of seen) {
        const w = Math.min(b.right, o.b.right) - Math.max(b.left, o.b.left);
        const h = Math.min(b.bottom, o.b.bottom) - Math.max(b.top, o.b.top);
        if (w > 0.5 && h > 0.5) out.push({ what: `${name} overlaps ${o.name} (${w.toFixed(1)}×${h.toFixed(1)} px)` });
      }
      seen.push({ name, b });
    }
    return out;
  }, [container, parts] as const);
}

/**
 * The action bar and the chat header at every width in every language. Each language has its own
 * member to look at (the tests change that member's presence), so the languages go side by side.
 */
async function barAndHeader(h: Harness, state: State, me: string): Promise<void> {
  // A long name, verified (the badge beside it), liked (the bar says Remove Like), online now.
  const picture = await portraitPicture(1);
  const others: string[] = [];
  for (const [i, locale] of LOCALES.entries()) {
    const other = (await createAccount({ email: `fit-other-${i}@example.com`, name: "Maximiliano" }))!.defaultProfileId;
    await updateProfile(other, { profilename: "Maximiliano Alexander", birthdate: "1990-01-01" });
    await addPicture(other, picture);
    const profile = (await getProfile(other))!;
    await kv().set(keys.profile(other), { ...profile, verifiedPicIds: profile.profilePicIds, tsVerified: Date.now() });
    await putProfileLike(me, other, "LIKE");
    others[LOCALES.indexOf(locale)] = other;
  }

  const problems: string[] = [];
  const phones = phonesByLanguage(h, state);
  await sideBySide(LOCALES, async (locale, i) => {
    const other = others[i];
    const p = await phones.open(locale);
    const hydrated = () =>
      p.waitForFunction(() => document.querySelectorAll("[data-island]:not([data-hydrated])").length === 0);
    // Online now from the first load (the header's first look is at a member online).
    await markSeen(other);
    await p.goto(`/profile/${other}`);
    await hydrated();
    await p.locator(".profile-bar button.like[aria-pressed=true]").waitFor();
    for (const width of WIDTHS) {
      await atWidth(p, width);
      for (
        const f of await faults(p, ".profile-bar", [
          "button.like",
          ".bar-link[href='#chat']",
          ".bar-link[href='#notes']",
          ".bar-link[href='#actions']",
        ])
      ) problems.push(`${locale} ${width} px, action bar: ${f.what}`);
      if (width === 320) await shot(p, `fit-${locale}-${width}-bar`);
    }
    // Scrolled to its end, the page's last part (the chat's composer) clears the bar and the tab bar.
    for (const width of WIDTHS) {
      await atWidth(p, width);
      const clear = await p.evaluate(() => {
        scrollTo(0, document.documentElement.scrollHeight);
        const send = document.querySelector(".composer button[type=submit]")!.getBoundingClientRect();
        return { send: send.bottom, bar: document.querySelector(".profile-bar")!.getBoundingClientRect().top };
      });
      if (clear.send > clear.bar + 0.5) {
        problems.push(
          `${locale} ${width} px, page end: Send (bottom ${clear.send}) under the action bar (top ${clear.bar})`,
        );
      }
    }

    await atWidth(p, WIDTHS[0]);
    await p.evaluate(() => location.hash = "chat");
    await p.waitForFunction(() => getComputedStyle(document.querySelector(".chat")!).position === "fixed");
    const head = [".chat-back", ".avatar", "h2", ".presence", ".chat-profile-link"];
    await p.waitForFunction(() => (document.querySelector(".chat-head .presence")?.textContent ?? "").length > 0);
    for (const width of WIDTHS) {
      await atWidth(p, width);
      const at = `${locale} ${width} px`;
      for (const f of await faults(p, ".chat-head", head)) problems.push(`${at}, chat header (online): ${f.what}`);
      // The name gives way to the badge: both inside the heading, side by side.
      await p.locator(".chat-head h2 .verified-badge").waitFor();
      for (const f of await faults(p, ".chat-head h2", [".name-cut", ".verified-badge"])) {
        problems.push(`${at}, chat header name: ${f.what}`);
      }
    }
    // The page's live socket may still be opening when the first event goes out, and typing is not kept
    // for late listeners: as a typing member's phone does, say it again until the header shows it.
    const typing = p.locator(".chat-head .presence.typing");
    for (const width of WIDTHS) {
      await atWidth(p, width);
      const at = `${locale} ${width} px`;
      for (let tries = 0; !(await typing.isVisible()); tries++) {
        if (tries === 30) throw new Error(`${at}: "typing" never showed in the chat header`);
        await publishEvent([me], { type: "typing", from: other });
        await typing.waitFor({ timeout: 1000 }).catch(() => {});
      }
      for (const f of await faults(p, ".chat-head", head)) problems.push(`${at}, chat header (typing): ${f.what}`);
      if (width === 320) await shot(p, `fit-${locale}-${width}-chat`);
    }
    // Seen three hours ago: "Last seen 3 hours ago" shows whole (on two lines if it must), never cut.
    await kv().set(keys.presence(other), now() - 3 * 3_600_000);
    // The page's kept answers (its query cache) still say online: asked again, loaded at the first width.
    await p.evaluate(() => localStorage.removeItem("app-query-cache"));
    await atWidth(p, WIDTHS[0]);
    await p.reload();
    await hydrated();
    await p.locator(".chat-head .presence time").waitFor();
    // How long ago, as the server tells it (to the hour at that age), never the time of day.
    const said = (await p.locator(".chat-head .presence").textContent())?.trim();
    if (locale === "en-US" && said !== "Last seen 3 hours ago") problems.push(`${locale}: last seen says "${said}"`);
    for (const width of WIDTHS) {
      await atWidth(p, width);
      const at = `${locale} ${width} px`;
      for (const f of await faults(p, ".chat-head", head)) problems.push(`${at}, chat header (last seen): ${f.what}`);
      const cut = await p.locator(".chat-head .presence").evaluate((e) =>
        e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1 ? e.textContent : null
      );
      if (cut) problems.push(`${at}, chat header: "${cut}" is cut`);
      if (width === 320) await shot(p, `fit-${locale}-${width}-chat-last-seen`);
    }
    await p.close();
  }).finally(() => phones.close());
  assert.deepEqual(problems, []);
}

/** A tile's labels at every width in every language: a page each language, side by side. */
async function tiles(h: Harness, state: State, me: string): Promise<void> {
  const home = { lat: 48.8566, lon: 2.3522 };
  await reportPosition(me, { ...home, use: "OVERRIDE", hide: false });
  // New members (joined today: each tile says "New"), from a few hundred metres to far away (the
  // widest distances, "12.43 mi", "20,01 km"), long names, verified, several pictures, online.
  const far = [0.002, 0.02, 0.12, 0.18, 0.3, 0.45];
  for (const [i, r] of far.entries()) {
    const id = (await createAccount({ email: `fit-tile${i}@example.com`, name: `Tile ${i}` }))!.defaultProfileId;
    await updateProfile(id, { profilename: i % 2 ? "Maximiliano Alexander" : "Wolfgang", birthdate: "1988-05-05" });
    await addPicture(id, await portraitPicture(i));
    if (i % 2) await addPicture(id, await portraitPicture(i + 1));
    const profile = (await getProfile(id))!;
    if (i % 3 === 0) {
      await kv().set(keys.profile(id), { ...profile, verifiedPicIds: profile.profilePicIds, tsVerified: Date.now() });
    }
    await markSeen(id);
    await reportPosition(id, { lat: home.lat + r, lon: home.lon + r / 2, use: "OVERRIDE", hide: false });
  }

  const problems: string[] = [];
  const phones = phonesByLanguage(h, state);
  await sideBySide(LOCALES, async (locale) => {
    const p = await phones.open(locale);
    await p.goto("/search/tile");
    await p.waitForFunction(() => document.querySelectorAll("[data-island]:not([data-hydrated])").length === 0);
    await p.locator(".tiles .tile-new").first().waitFor();
    for (const width of WIDTHS) {
      await atWidth(p, width);
      const at = `${locale} ${width} px`;
      const count = await p.locator(".tiles > li").count();
      assert.equal(count, far.length, `${at}: every member has a tile`);
      for (let n = 1; n <= count; n++) {
        for (
          const f of await faults(p, `.tiles > li:nth-child(${n}) .tile`, [
            ".tile-distance",
            ".tile-new",
            ".tile-name",
            ".tile-age",
            ".tile-pics",
          ])
        ) problems.push(`${at}, tile ${n}: ${f.what}`);
      }
      // The distance is whole: never cut short with "…".
      const cut = await p.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>(".tile-distance")]
          .filter((d) => d.scrollWidth > d.clientWidth + 1).map((d) => d.textContent)
      );
      for (const d of cut) problems.push(`${at}: the distance "${d}" is cut short`);
      // The online dot stays round beside a long name (never squeezed to a sliver).
      const dots = await p.evaluate(() =>
        [...document.querySelectorAll(".tile-name .online-dot")].map((d) => d.getBoundingClientRect())
          .filter((b) => Math.abs(b.width - b.height) > 0.5).length
      );
      if (dots) problems.push(`${at}: ${dots} online dots squeezed out of round`);
      if (width !== 430) await shot(p, `fit-${locale}-${width}-tiles`);
    }
    await p.close();
  }).finally(() => phones.close());
  assert.deepEqual(problems, []);
}

/** The main targets of a screen: 44 × 44 CSS px at least (the tab bar, the action bar, stepping profiles, the chat's header). */
const MAIN_TARGETS = [
  ".tab-bar a",
  ".profile-bar button",
  ".profile-bar .bar-link",
  ".profile-step a",
  ".chat-back",
  ".chat-profile-link",
  ".menu summary",
];

/**
 * Every target in view smaller than 24 × 24 CSS px (WCAG 2.2 AA, 2.5.8), and every main target
 * smaller than 44 × 44. Links inside a sentence are left out (the criterion's inline exception),
 * and so is what is hidden or only for screen readers (the skip link until focused).
 */
function smallTargets(page: Page, main: string[]): Promise<string[]> {
  return page.evaluate((main) => {
    const out: string[] = [];
    const sel = "a[href], button, input:not([type=hidden]), select, summary, [role=button], [tabindex='0']";
    for (const el of document.querySelectorAll<HTMLElement>(sel)) {
      const b = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (b.width <= 1 || b.height <= 1 || style.visibility === "hidden" || !el.checkVisibility?.()) continue;
      if (el.closest(".visually-hidden, .skip-link, .leaflet-container")) continue;
      // A link in a line of text: the sentence sets its size (WCAG's inline exception).
      if (el.tagName === "A" && style.display === "inline" && el.parentElement?.closest("p, li, label, dd")) continue;
      const name = `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(" ")[0]}` : ""} "${
        (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30)
      }"`;
      const isMain = main.some((m) => el.matches(m));
      const min = isMain ? 44 : 24;
      if (b.width < min - 0.5 || b.height < min - 0.5) {
        out.push(`${name}${isMain ? " (main)" : ""}: ${b.width.toFixed(0)}×${b.height.toFixed(0)} px`);
      }
    }
    return out;
  }, main);
}

/** Every target's size at every width, in English and Arabic: a page each language, side by side. */
async function targets(h: Harness, state: State): Promise<void> {
  // Three members in the grid's order, the middle one with three pictures: previous, next and the dots.
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const id = (await createAccount({ email: `fit-t${i}@example.com`, name: `Target ${i}` }))!.defaultProfileId;
    await updateProfile(id, { profilename: `Target ${i}`, birthdate: "1990-01-01", height: "181 cm" });
    for (let k = 0; k < (i === 1 ? 3 : 1); k++) await addPicture(id, await portraitPicture(i + k));
    ids.push(id);
  }
  const problems: string[] = [];
  const phones = phonesByLanguage(h, state);
  await sideBySide(["en-US", "ar"], async (locale) => {
    const p = await phones.open(locale);
    const hydrated = () =>
      p.waitForFunction(() => document.querySelectorAll("[data-island]:not([data-hydrated])").length === 0);
    /** The targets of the page as it is now, at every width. */
    const everyWidth = async (what: string) => {
      for (const width of WIDTHS) {
        await atWidth(p, width);
        for (const s of await smallTargets(p, MAIN_TARGETS)) problems.push(`${locale} ${width} px, ${what}: ${s}`);
      }
    };
    // The grid's order in the tab, as opening a tile leaves it (the profile steps through it).
    await p.addInitScript(([key, order]) => sessionStorage.setItem(key, order), ["grid-order", JSON.stringify(ids)]);
    await p.goto(`/profile/${ids[1]}`);
    await hydrated();
    await p.locator(".profile-step [rel=next]").waitFor();
    await p.locator(".hero-dot").first().waitFor();
    await everyWidth("profile");
    await p.evaluate(() => location.hash = "actions");
    await p.locator("#actions button.danger").first().waitFor();
    await everyWidth("profile actions");
    await atWidth(p, WIDTHS[0]);
    await p.goto("/settings");
    await hydrated();
    await p.locator("input[type=checkbox]").first().waitFor();
    await everyWidth("settings");
    await p.close();
  }).finally(() => phones.close());
  assert.deepEqual([...new Set(problems)], []);
}

// One app, one browser and one registered member for the file's three checks; each check's languages
// are pages of their own, walked side by side, each turned to every width.
Deno.test({
  name: "e2e - what a phone shows fits at 320, 390 and 430 px in every language",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const h = await startHarness();
    try {
      // The member's session, made without a page: each case's context starts from its cookie.
      const context = await h.browser.newContext();
      const me = (await logInThroughApi(context, h.origin, "fit@example.com")).profileId;
      const state = await context.storageState();
      await context.close();
      await t.step(
        "the action bar and the chat header fit at 320, 390 and 430 px in every language",
        () => barAndHeader(h, state, me),
      );
      await t.step("every target is 24 px at least, the main ones 44, at 320, 390 and 430 px", () => targets(h, state));
      // Last: it gives the member a place (the grid needs one), which the checks above never had.
      await t.step(
        "a tile's labels never cover each other at 320, 390 and 430 px in every language",
        () => tiles(h, state, me),
      );
    } finally {
      await h.close();
    }
  },
});
