/**
 * Discovery in a real browser, on a phone and a desktop: tiles load more than 30 members (scroll
 * trigger and Load More), a swipe right (drag and button) saves a LIKE that shows under You
 * Liked, Meh / Skip / arrow keys / an upward drag, the end of the deck, and the profile list
 * showing 10 and then more on scroll, with the filter.
 */

import { until } from "../wait.ts";
import { markSeen } from "../../kv/presence.ts";
import assert from "node:assert/strict";
import { portraitPicture } from "../fixtures/pictures.ts";
import type { Page, Request } from "playwright-core";
import { handOver, logInAs, settledPaint, shot, startHarness, type ViewportName } from "./harness.ts";
import { createAccount } from "../../kv/accounts.ts";
import { updateProfile } from "../../kv/profiles.ts";
import { getOwnPosition, reportPosition } from "../../kv/positions/mod.ts";
import { addPicture } from "../../kv/pictures.ts";
import { getProfileLike } from "../../kv/likes.ts";
import { NO_CHARACTERISTICS } from "../../domain/characteristics.ts";
import { FEEL_TEXTS } from "../../domain/feelTexts.ts";
import { DISCOVERY_TEXTS } from "../../domain/discovery.ts";
import { shortName } from "../../domain/format.ts";

/** Phoenix, where everybody is. */
const HOME = { lat: 33.4484, lon: -112.074 };
/** Members seeded around the viewer: more than three pages of tiles. */
const MEMBERS = 75;
/** Members given a picture (the others show a placeholder, as real members without one do). */
const WITH_PICTURE = 16;
/** Members with the rare characteristic 'taboo', for an end of the deck a few swipes away. */
const TABOO = 3;

const NAMES = [
  "Alexander the Great",
  "Benny",
  "Carlos",
  "Dmitri",
  "Eli",
  "Frankie Two Times",
  "Gus",
  "Hiro",
  "Ismael",
  "Jules",
  "Kofi",
  "Luca",
  "Marcus",
  "Nate",
  "Omar",
  "Pete",
];
const CHAR_SETS = [[], ["top", "hosting"], ["bottom", "bear"], ["versatile", "fitness", "travel"], ["top", "prep"]];

interface Seeded {
  viewer: { accountId: string; profileId: string };
  /** Profile ids by seed index. */
  ids: string[];
  names: string[];
}

/** The viewer at HOME and MEMBERS members at growing distances (~0.4 km apart) around them. */
async function seed(): Promise<Seeded> {
  const viewerAccount = (await createAccount({ email: "viewer@example.com", name: "Viewer" }))!;
  const viewer = { accountId: viewerAccount.id, profileId: viewerAccount.defaultProfileId };
  await reportPosition(viewer.profileId, { ...HOME, use: "OVERRIDE", hide: false });
  const ids: string[] = [];
  const names: string[] = [];
  for (let i = 0; i < MEMBERS; i++) {
    const name = `${NAMES[i % NAMES.length]}${i >= NAMES.length ? ` ${i}` : ""}`;
    const account = (await createAccount({ email: `near${i}@example.com`, name }))!;
    const id = account.defaultProfileId;
    const chars = i >= MEMBERS - TABOO ? ["taboo", "kink"] : CHAR_SETS[i % CHAR_SETS.length];
    const res = await updateProfile(id, {
      profilename: name,
      birthdate: `${1975 + (i % 25)}-0${1 + (i % 9)}-15`,
      height: i % 3 === 0 ? "" : `${170 + (i % 20)} cm`,
      weight: i % 4 === 0 ? "" : `${65 + (i % 30)} kg`,
      characteristics: chars,
    });
    assert.ok(res.ok, "profile updated");
    if (i < WITH_PICTURE) {
      const added = await addPicture(id, await portraitPicture(i));
      assert.ok(added.ok, "picture added");
    }
    // Spread along a spiral, further out with each member: distinct cells, a clear distance order.
    const r = 0.004 * (i + 1), a = i * 2.4;
    await reportPosition(id, {
      lat: HOME.lat + r * Math.sin(a),
      lon: HOME.lon + r * Math.cos(a),
      use: "OVERRIDE",
      hide: false,
    });
    ids.push(id);
    names.push(name);
  }
  return { viewer, ids, names };
}

/** Parses "850 ft" / "1.25 mi" back to feet, for order checks. */
function feet(text: string): number {
  const m = text.match(/^([\d.]+) (ft|mi)$/);
  assert.ok(m, `a distance: ${text}`);
  return Number(m[1]) * (m[2] === "mi" ? 5280 : 1);
}

async function scrollToEnd(page: Page): Promise<void> {
  await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
}

/** A pointer that drags: touch events through CDP on the phone, the mouse on the desktop. */
interface Finger {
  down(x: number, y: number): Promise<void>;
  move(x: number, y: number): Promise<void>;
  up(): Promise<void>;
}

async function fingerOf(page: Page, vp: ViewportName): Promise<Finger> {
  if (vp === "desktop") {
    return {
      down: async (x, y) => {
        await page.mouse.move(x, y);
        await page.mouse.down();
      },
      move: (x, y) => page.mouse.move(x, y),
      up: () => page.mouse.up(),
    };
  }
  // One CDP session for the whole test: a touch begun in one session cannot end in another.
  const cdp = await page.context().newCDPSession(page);
  let at = { x: 0, y: 0 };
  const touch = async (type: "touchStart" | "touchMove" | "touchEnd", x: number, y: number) => {
    at = { x, y };
    await cdp.send("Input.dispatchTouchEvent", {
      type,
      touchPoints: type === "touchEnd" ? [] : [{ x, y, id: 1, radiusX: 4, radiusY: 4, force: 1 }],
    });
  };
  return {
    down: (x, y) => touch("touchStart", x, y),
    move: (x, y) => touch("touchMove", x, y),
    up: () => touch("touchEnd", at.x, at.y),
  };
}

/** Drags the top card by (dx, dy) in small steps; `release` false keeps holding it. */
async function dragCard(page: Page, finger: Finger, dx: number, dy: number, release = true): Promise<void> {
  const box = (await page.locator(".swipe-card:not(.behind)").boundingBox())!;
  const x = box.x + box.width / 2, y = box.y + box.height / 2;
  const steps = 12;
  await finger.down(x, y);
  for (let s = 1; s <= steps; s++) await finger.move(x + dx * s / steps, y + dy * s / steps);
  if (release) await finger.up();
}

/** The profile id of the card on top, once the deck has settled. */
async function topCardId(page: Page): Promise<string> {
  const top = page.locator(".swipe-card:not(.behind)");
  await top.waitFor();
  return (await top.getAttribute("data-profile-id"))!;
}

/** Waits until the card on top is another member than `id`; returns the new one. */
async function nextCard(page: Page, id: string): Promise<string> {
  await page.locator(`.swipe-card:not(.behind):not([data-profile-id="${id}"])`).waitFor();
  return await topCardId(page);
}

/** The stored like of the viewer for `liked`, once the PUT has landed. */
async function likeOf(viewer: string, liked: string, want: string): Promise<string> {
  let type = "";
  await until(async () => (type = (await getProfileLike(viewer, liked)).likeType) === want, `a ${want} stored`, {
    timeoutMs: 5_000,
  }).catch(() => {});
  return type;
}

/** Records, from each document's first paint, every status text the discovery screen shows (`statusSeen`). */
async function recordStatuses(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (globalThis as unknown as { statusSeen: string[] }).statusSeen = seen;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll(".discovery-status")) {
        const t = el.textContent ?? "";
        if (t && !seen.includes(t)) seen.push(t);
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

for (const vp of ["phone", "desktop"] as ViewportName[]) {
  Deno.test({
    name: `e2e ${vp} - discovery: tiles load more, swipes save likes, the list shows 10 more per scroll`,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const h = await startHarness();
      try {
        const s = await seed();
        const { context, page } = await h.newPage(vp);
        await logInAs(page.context(), h.origin, s.viewer.accountId);

        // --- Tiles: 30 nearest, sorted by distance, names cut at 12, 'near you'; more on scroll and Load More.
        await markSeen(s.ids[0]); // the nearest member has the app open: online now
        await page.goto("/search/tile");
        const tiles = page.locator(".tiles > li");
        assert.equal(await page.title(), "Profile Tiles · Lambda");
        assert.ok((await tiles.count()) >= 30, "the server rendered the first page");
        await page.getByText(DISCOVERY_TEXTS.nearYou, { exact: true }).waitFor();
        const nearestId = (await page.locator(".tile").first().getAttribute("href"))!.replace("/profile/", "");
        await page.locator(`.tile[href="/profile/${s.ids[0]}"] .online-dot`).waitFor();
        assert.equal(await page.locator(".tiles .online-dot").count(), 1, "only the member online has the dot");
        assert.ok(s.ids.slice(0, 5).includes(nearestId), "one of the nearest members first");
        const names = await page.locator(".tile-name").allTextContents();
        assert.ok(names.includes("Alexander th"), "names cut at 12 characters");
        assert.ok(names.every((n) => [...n].length <= 12));
        const distances = (await page.locator(".tile-distance").allTextContents()).map(feet);
        assert.deepEqual(distances, [...distances].sort((a, b) => a - b), "sorted by distance");
        await page.evaluate(() => scrollTo(0, 0));
        await page.locator(".tile img").first().evaluate((img: HTMLImageElement) =>
          img.complete ? null : new Promise((r) => img.addEventListener("load", r, { once: true }))
        );
        await shot(page, `${vp}-tiles`);
        // On a phone the screen's title is in the top bar (on a desktop its heading shows it) and at
        // least 12 whole tiles in 3 columns fill the first screen.
        if (vp === "desktop") await page.getByRole("heading", { name: "Profile Tiles", level: 1 }).waitFor();
        if (vp === "phone") {
          await page.locator(".app-header .screen-title", { hasText: "Profile Tiles" }).waitFor();
          const whole = await page.evaluate(() => {
            const floor = document.querySelector(".tab-bar")!.getBoundingClientRect().top;
            const ceiling = document.querySelector(".app-header")!.getBoundingClientRect().bottom;
            return [...document.querySelectorAll(".tile")].map((t) => t.getBoundingClientRect())
              .filter((b) => b.top >= ceiling - 0.5 && b.bottom <= floor + 0.5 && b.left >= 0 && b.right <= innerWidth);
          });
          assert.ok(whole.length >= 12, `${whole.length} whole tiles on the first screen`);
          assert.equal(new Set(whole.map((b) => Math.round(b.left))).size, 3, "3 columns");
        }
        // The filter is one button; its sheet has the age range, distance, online now and with pictures.
        await page.locator(".filter-panel > summary").click();
        const sheet = page.getByRole("group", { name: FEEL_TEXTS.filters });
        await sheet.getByLabel(FEEL_TEXTS.ageFrom).waitFor();
        await sheet.getByLabel(FEEL_TEXTS.distance).waitFor();
        await sheet.locator(".chip", { hasText: FEEL_TEXTS.withPictures }).waitFor();
        await sheet.locator(".chip", { hasText: FEEL_TEXTS.onlineNow }).click();
        await shot(page, `${vp}-filter-sheet`);
        await sheet.getByRole("button", { name: FEEL_TEXTS.showResults }).click();
        await page.waitForFunction(
          (id) => {
            const hrefs = [...document.querySelectorAll(".tile")].map((a) => a.getAttribute("href"));
            return hrefs.length === 1 && hrefs[0] === `/profile/${id}`;
          },
          s.ids[0],
        );
        await page.locator(".filter-panel > summary").click();
        await page.getByRole("button", { name: "Clear filter" }).click();
        await page.getByRole("button", { name: FEEL_TEXTS.showResults }).click();
        await page.waitForFunction(() => document.querySelectorAll(".tiles > li").length >= 30);

        await scrollToEnd(page);
        await page.waitForFunction(() => document.querySelectorAll(".tiles > li").length >= 60);
        // Load More, unless the scroll has already fetched the last page (the button is then gone):
        // looked for and clicked in one step, as it may go between a look and a click.
        await page.evaluate((name) => {
          const button = [...document.querySelectorAll("button")].find((b) => b.textContent?.trim() === name);
          if (button && !button.disabled) button.click();
        }, DISCOVERY_TEXTS.loadMore);
        await page.waitForFunction((n) => document.querySelectorAll(".tiles > li").length === n, MEMBERS);
        await page.getByText(DISCOVERY_TEXTS.endOfList).waitFor();
        const allDistances = (await page.locator(".tile-distance").allTextContents()).map(feet);
        assert.deepEqual(allDistances, [...allDistances].sort((a, b) => a - b), "later pages continue the order");
        await shot(page, `${vp}-tiles-all`);
        await page.evaluate(() => scrollTo(0, 0));
        const secondId = (await page.locator(".tile").nth(1).getAttribute("href"))!.replace("/profile/", "");
        await page.locator(".tile").first().click();
        await page.waitForURL(`${h.origin}/profile/${nearestId}`);
        // Opened from the grid: the next profile is the grid's next tile.
        await page.getByRole("link", { name: FEEL_TEXTS.nextProfile }).click();
        await page.waitForURL(`${h.origin}/profile/${secondId}`);
        await page.getByRole("link", { name: FEEL_TEXTS.previousProfile }).waitFor();

        // --- Swipe: the nearest member on top; a drag right saves LIKE.
        await page.goto("/search/swype");
        let top = await topCardId(page);
        assert.equal(top, nearestId, "the nearest member on top");
        if (top === s.ids[0]) await page.locator(".swipe-card:not(.behind) .online-dot").waitFor();
        assert.equal(
          await page.getByRole("link", { name: DISCOVERY_TEXTS.viewProfileChat }).getAttribute("href"),
          `/profile/${top}`,
        );
        await shot(page, `${vp}-swipe`);
        const finger = await fingerOf(page, vp);
        await dragCard(page, finger, 90, 10, false);
        await page.locator(".stamp-right").waitFor({ state: "attached" });
        await shot(page, `${vp}-swipe-dragging`);
        const box = (await page.locator(".swipe-card:not(.behind)").boundingBox())!;
        await finger.move(box.x + box.width, box.y + box.height / 2);
        await finger.up();
        const likedByDrag = top;
        top = await nextCard(page, top);
        assert.equal(await likeOf(s.viewer.profileId, likedByDrag, "LIKE"), "LIKE", "a drag right saves LIKE");

        // The Nice button saves LIKE.
        const likedByButton = top;
        await page.getByRole("button", { name: DISCOVERY_TEXTS.nice }).click();
        top = await nextCard(page, top);
        assert.equal(await likeOf(s.viewer.profileId, likedByButton, "LIKE"), "LIKE", "Nice saves LIKE");

        // Meh and a drag left save DISLIKE; Skip, a drag down and the down arrow UNDETERMINED.
        const meh = top;
        await page.getByRole("button", { name: DISCOVERY_TEXTS.meh }).click();
        top = await nextCard(page, top);
        assert.equal(await likeOf(s.viewer.profileId, meh, "DISLIKE"), "DISLIKE");
        const left = top;
        await dragCard(page, finger, -200, 0);
        top = await nextCard(page, top);
        assert.equal(await likeOf(s.viewer.profileId, left, "DISLIKE"), "DISLIKE", "a drag left saves DISLIKE");
        const skipped = top;
        await page.getByRole("button", { name: DISCOVERY_TEXTS.skip }).click();
        top = await nextCard(page, top);
        const down = top;
        await dragCard(page, finger, 0, 200);
        top = await nextCard(page, top);
        // Swiping up is disabled: the card stays, nothing is saved (nor even sent).
        let sent = 0;
        const likeSent = (r: Request) => void (r.method() === "PUT" && r.url().includes("/api/profile-like") && sent++);
        page.on("request", likeSent);
        await dragCard(page, finger, 0, -250);
        // The card has gone back and stopped: had the drag swiped, it would be gone by then.
        await settledPaint(page);
        page.off("request", likeSent);
        assert.equal(await topCardId(page), top, "an upward drag does not swipe");
        assert.equal(sent, 0, "and sends no like");
        assert.equal((await getProfileLike(s.viewer.profileId, top)).tsCreated, 0, "and saves nothing");
        const keyed = top;
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        await page.keyboard.press("ArrowLeft");
        top = await nextCard(page, top);
        assert.equal(await likeOf(s.viewer.profileId, keyed, "DISLIKE"), "DISLIKE", "the left arrow swipes left");
        // The arrow's like, sent after the Skip and the drag down, has landed: theirs would have too.
        for (const id of [skipped, down]) {
          const like = await getProfileLike(s.viewer.profileId, id);
          assert.equal(like.likeType, "UNDETERMINED");
        }

        // Both likes show under You Liked (the likes tab), and through the API.
        for (const id of [likedByDrag, likedByButton]) {
          const r = await page.request.get(
            `/api/profile-like?likerProfileId=${s.viewer.profileId}&likedProfileId=${id}`,
          );
          assert.equal(r.status(), 200);
          assert.equal((await r.json()).likeType, "LIKE");
        }
        await page.goto("/likes/youlikedprofile");
        if (!(await page.getByText("Coming soon").count())) {
          for (const id of [likedByDrag, likedByButton]) {
            await page.getByText(shortName(s.names[s.ids.indexOf(id)])).first().waitFor();
          }
          await shot(page, `${vp}-you-liked`);
        }

        // The filter narrows the deck; its end says so.
        await page.goto("/search/swype");
        await page.locator(".filter-panel > summary").click();
        await page.locator(".chip", { hasText: "Taboo" }).click();
        await page.locator(".filter-panel > summary").click();
        for (let i = 0; i < TABOO; i++) {
          const id = await topCardId(page);
          assert.ok(s.ids.indexOf(id) >= MEMBERS - TABOO, "only members with the filter's characteristic");
          await page.getByRole("button", { name: DISCOVERY_TEXTS.nice }).click();
          if (i < TABOO - 1) await nextCard(page, id);
        }
        await page.getByText(DISCOVERY_TEXTS.endOfDeck).waitFor();
        assert.equal(await page.getByRole("button", { name: DISCOVERY_TEXTS.nice }).isDisabled(), true);
        await shot(page, `${vp}-swipe-end`);
        // The filter is shared: clear it for the list.
        await page.locator(".filter-panel > summary").click();
        await page.getByRole("button", { name: "Clear filter" }).click();

        // --- Profile list: 10 cards, then 10 more each time the end scrolls into view.
        await page.goto("/search/profile");
        const cards = page.locator(".profile-list > li");
        assert.equal(await cards.count(), 10, "the server rendered ten");
        const card0 = cards.first();
        assert.equal(
          await card0.getByRole("link", { name: DISCOVERY_TEXTS.chat }).getAttribute("href"),
          `/profile/${nearestId}#chat`,
        );
        await card0.getByText(/^\d+ ft$|^\d+\.\d\d mi$/).waitFor();
        await page.locator(".profile-card", { hasText: NO_CHARACTERISTICS }).first().waitFor();
        await page.locator(".profile-card .brief-chars li", { hasText: /^Top$/ }).first().waitFor();
        await shot(page, `${vp}-list`);
        const before = await cards.count();
        await scrollToEnd(page);
        await page.waitForFunction((n) => document.querySelectorAll(".profile-list > li").length > n, before);
        const after = await cards.count();
        assert.equal(after % 10, 0, `ten more at a time (${before} → ${after})`);
        // Scrolling to the end loads the next ten, until the end of the list shows. A scroll made
        // while the previous ten were still coming sees the end already in view and starts
        // nothing: as a person would, scroll to the end again until more show.
        // The list's pages as the server answered them, named if the list stops growing.
        const asked: string[] = [];
        page.on("response", (r) => {
          const url = new URL(r.url());
          if (url.pathname.startsWith("/api/profile-briefs/")) asked.push(`${r.status()} ${url.search}`);
        });
        // The count is read once per turn: a page that lands between two reads is not waited for again.
        for (let i = 0; i < 10; i++) {
          const shown = await cards.count();
          if (shown >= MEMBERS) break;
          await until(
            async () => {
              await scrollToEnd(page);
              return (await cards.count()) > shown;
            },
            "more cards after scrolling to the end",
            { timeoutMs: 30_000, everyMs: 250 },
          ).catch(async (e) => {
            const state = await page.evaluate(() => ({
              cards: document.querySelectorAll(".profile-list > li").length,
              end: document.querySelector(".load-more")?.textContent,
              scrollY,
              innerHeight,
              height: document.documentElement.scrollHeight,
            }));
            throw new Error(`${e.message}: ${JSON.stringify(state)}; pages answered: ${asked.join(", ")}`);
          });
        }
        await page.getByText(DISCOVERY_TEXTS.endOfList).waitFor();
        assert.equal(await cards.count(), MEMBERS);

        // The list with a filter: every card has the characteristic.
        await page.goto("/search/profile");
        await page.locator(".filter-panel > summary").click();
        await page.locator(".chip", { hasText: /^Top$/ }).click();
        await page.waitForFunction(() => {
          const items = [...document.querySelectorAll(".profile-list > li")];
          return items.length > 0 &&
            items.every((li) => [...li.querySelectorAll(".brief-chars li")].some((c) => c.textContent === "Top"));
        });
        assert.ok((await cards.count()) > 0);
        await shot(page, `${vp}-list-filter`);

        // A newcomer has no position yet: the first tiles page says it is looking, never 'nobody near
        // you', until the page's location reporter places them near Phoenix; the tiles follow without
        // a reload. The viewer's tab is handed to them (decision 0245).
        const newcomer = (await createAccount({ email: `newcomer-${vp}@example.com`, name: "Newcomer" }))!;
        await handOver(page, h.origin, newcomer.id);
        await recordStatuses(page);
        await page.goto("/search/tile");
        await page.waitForFunction(() => document.querySelectorAll(".tiles > li").length >= 30, null, {
          timeout: 10_000,
        });
        assert.ok(await getOwnPosition(newcomer.defaultProfileId), "the reporter reported a position");
        const seen = await page.evaluate(() => (globalThis as unknown as { statusSeen: string[] }).statusSeen);
        assert.ok(!seen.includes(DISCOVERY_TEXTS.nobodyNear), `statuses shown: ${JSON.stringify(seen)}`);
        assert.ok(seen.includes(DISCOVERY_TEXTS.loading), `statuses shown: ${JSON.stringify(seen)}`);
        await context.close();
      } finally {
        await h.close();
      }
    },
  });
}
