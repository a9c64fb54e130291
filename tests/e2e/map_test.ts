/**
 * The map in a real browser, on a phone and a desktop: seeded members show as markers (hidden and
 * blocked ones do not), the toggles show their messages and change what the server stores, the
 * view glides to a `#profileId=&lat=&lng=` link and back on a recenter (and jumps for a member who
 * asks for less motion), the view is restored after a reload,
 * the filter, a marker opens the profile, aggregates when zoomed out, the 800 cap, a GPS refusal,
 * a 401 pausing the reporter, and tiles that fail. The app fetches the map tiles from a local tile
 * server; the browser only ever asks the app.
 */

import { until } from "../wait.ts";
import { nearestPoints } from "../../kv/briefs.ts";
import assert from "node:assert/strict";
import { portraitPicture } from "../fixtures/pictures.ts";
import { serveTiles } from "../fixtures/tiles.ts";
import type { BrowserContext } from "playwright-core";
import { logInAs, placeOnSpiral, shot, sideBySide, startHarness, type ViewportName } from "./harness.ts";
import {
  eventually,
  imagesLoaded,
  levelMovesWhile,
  mapReady,
  messageText,
  openAt,
  savedView,
  settledBox,
  viewAtZoom,
} from "./mapPage.ts";
import { createAccount } from "../../kv/accounts.ts";
import { newProfile, updateProfile } from "../../kv/profiles.ts";
import {
  aggregates,
  getOwnPosition,
  getShownPosition,
  importPositions,
  reportPosition,
} from "../../kv/positions/mod.ts";
import { addPicture } from "../../kv/pictures.ts";
import { putProfileLike } from "../../kv/likes.ts";
import { profileBriefs } from "../../kv/briefs.ts";
import { sectorKey } from "../../domain/geo.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { newId } from "../../kv/ids.ts";
import { markSeen } from "../../kv/presence.ts";
import { TEXTS } from "../../domain/texts.ts";
import { markerSize } from "../../islands/map/markers.ts";
import { fitZoom } from "../../islands/map/firstView.ts";
import { UI_TEXTS } from "../../domain/uiTexts.ts";

const HOME = { lat: 33.4484, lon: -112.074 };
const TUCSON = { lat: 32.2226, lon: -110.9747 };

// --- a local tile server: every /{z}/{x}/{y}.png is the same light 'map' tile (the app's: routes/tiles.ts fetches from it)
/** The local tile server answers 503 while this is set. */
let tilesDown = false;
const tileServer = await serveTiles(
  `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">
    <rect width="256" height="256" fill="#eef1ea"/>
    <path d="M0 96H256M0 200H256M70 0V256M180 0V256" stroke="#ffffff" stroke-width="10"/>
    <path d="M0 96H256M70 0V256" stroke="#f3d9a4" stroke-width="6"/>
    <rect x="90" y="116" width="70" height="64" fill="#d8e8cf"/>
    <rect width="256" height="256" fill="none" stroke="#e0e4dc"/>
  </svg>`,
  { down: () => tilesDown },
);

interface Member {
  name: string;
  chars: string[];
  pic: boolean;
}

const MEMBERS: Member[] = [
  { name: "Alexander", chars: ["top", "hosting"], pic: true },
  { name: "Benny", chars: ["bottom"], pic: true },
  { name: "Carlos", chars: ["oral", "traveling"], pic: false },
  { name: "Dmitri Everything", chars: ["top", "bottom", "oral", "hosting", "traveling"], pic: true },
  { name: "Eli", chars: [], pic: false },
  { name: "Frankie", chars: ["versatile", "top"], pic: true },
  { name: "Gus", chars: ["bottom", "hosting"], pic: false },
  { name: "Hiro", chars: ["traveling"], pic: true },
];

async function account(email: string, name: string) {
  const a = (await createAccount({ email, name }))!;
  return { accountId: a.id, profileId: a.defaultProfileId };
}

/** The viewer at HOME, the members around them, one hidden and one the viewer blocked. */
async function seed() {
  const viewer = await account("viewer@example.com", "Viewer");
  await reportPosition(viewer.profileId, { ...HOME, use: "OVERRIDE", hide: false });
  const ids: string[] = [];
  for (const [i, m] of MEMBERS.entries()) {
    const { profileId } = await account(`m${i}@example.com`, m.name);
    assert.ok((await updateProfile(profileId, { profilename: m.name, characteristics: m.chars })).ok);
    if (m.pic) assert.ok((await addPicture(profileId, await portraitPicture(i))).ok);
    // Around the viewer, within what a phone shows at zoom 13.
    await placeOnSpiral(profileId, HOME, i, { start: 0.012, step: 0.0042 });
    ids.push(profileId);
  }
  const hidden = await account("hidden@example.com", "Hidden Harry");
  await reportPosition(hidden.profileId, { lat: HOME.lat + 0.004, lon: HOME.lon, use: "OVERRIDE", hide: true });
  const blocked = await account("blocked@example.com", "Blocked Bob");
  await reportPosition(blocked.profileId, { lat: HOME.lat - 0.004, lon: HOME.lon, use: "OVERRIDE", hide: false });
  await putProfileLike(viewer.profileId, blocked.profileId, "DISLIKE", true);
  // The page opens on the nearest members the position index holds (synced through the change
  // log): the map is opened once it holds every one of them, as it would a while after they came.
  await until(
    async () => (await nearestPoints(viewer.profileId)).length === MEMBERS.length,
    "every member in the position index",
  );
  return { viewer, ids, hidden, blocked };
}

for (const vp of ["phone", "desktop"] as ViewportName[]) {
  Deno.test({
    name: `e2e ${vp} - map: markers, toggles and their messages, link, recenter, restore, filter, aggregates, cap`,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const h = await startHarness();
      let context: BrowserContext | undefined;
      try {
        const s = await seed();
        ({ context } = await h.newPage(vp));
        const page = context.pages()[0];
        await logInAs(page.context(), h.origin, s.viewer.accountId);

        // --- the members near the viewer, with pictures or initials and their icons; not hidden, not blocked
        await markSeen(s.ids[3]); // Dmitri has the app open: online now
        await page.goto("/search/map");
        assert.equal(await page.title(), "Gaydar Map · Lambda");
        await mapReady(page, MEMBERS.length);
        await page.locator(".me-marker").waitFor();
        assert.equal(await page.locator(`.leaflet-marker-icon[title="Hidden Harry"]`).count(), 0);
        assert.equal(await page.locator(`.leaflet-marker-icon[title="Blocked Bob"]`).count(), 0);
        const dmitri = page.locator(`.leaflet-marker-icon[title="Dmitri Everything"]`);
        assert.deepEqual(
          await dmitri.locator(".pm-icon").evaluateAll((els) => els.map((e) => e.getAttribute("title"))),
          ["Top", "Bottom", "Oral", "Hosting", "Traveling"],
        );
        await dmitri.locator(".pm-online").waitFor();
        assert.equal(await page.locator(".pm-online").count(), 1, "only the member online has the dot");
        assert.equal(await page.locator(`.leaflet-marker-icon[title="Carlos"] .pm-initials`).textContent(), "CA");
        assert.equal(await page.locator(`.leaflet-marker-icon[title="Benny"] img`).count(), 1);
        const mapBox = (await page.locator(".leaflet-container").boundingBox())!;
        const edge = (await page.locator(".pm").first().boundingBox())!.width;
        assert.equal(Math.round(edge), markerSize(mapBox.width, mapBox.height, MEMBERS.length));
        // The 'me' marker is where the viewer reported, and the map starts around it at zoom 13, or
        // out just so far that every member's face shows whole (decision 0161: on a phone the
        // farthest of the eight is at the edge of zoom 13's view). The first view saved (1 s after the map settles).
        const start = (await eventually(() => savedView(page).catch(() => null), (v) => v !== null, "a saved view"))!;
        // The members are shown at points of their 1 km cells that change with each run's secret, so the
        // fit lands at 12 or 13: on a desktop exactly where the rule puts the points the page was given;
        // on a phone also by a few pixels of the map's first size. What counts is that every face shows
        // whole (below), never cut to keep the start zoom.
        if (vp === "phone") assert.ok(start.zoom === 12 || start.zoom === 13, `zoom ${start.zoom}`);
        else {
          const near = await nearestPoints(s.viewer.profileId);
          assert.equal(start.zoom, fitZoom(HOME, near, mapBox.width, mapBox.height), JSON.stringify(near));
        }
        // The faces and the map's box read together (the box may have moved since it was first read:
        // a scrollbar, a banner); the faces out of it are named, with both boxes.
        const cut = await page.evaluate(() => {
          const box = document.querySelector(".leaflet-container")!.getBoundingClientRect();
          return [...document.querySelectorAll<HTMLElement>(".leaflet-marker-icon:has(.pm)")]
            .filter((m) => {
              const f = m.querySelector(".pm")!.getBoundingClientRect();
              return f.left < box.left || f.top < box.top || f.right > box.right || f.bottom > box.bottom;
            })
            .map((m) =>
              `${m.title} ${JSON.stringify(m.querySelector(".pm")!.getBoundingClientRect())} in ${JSON.stringify(box)}`
            );
        });
        assert.deepEqual(cut, [], "every member's face shows whole");
        assert.ok(Math.abs(start.lat - HOME.lat) < 1e-3 && Math.abs(start.lon - HOME.lon) < 1e-3, "centred on me");
        await shot(page, `${vp}-map`);

        // --- visibility: 'You are hiding...' for 2.5 s, the server hides the viewer from others
        const benny = s.ids[1];
        const seesViewer = async () =>
          (await profileBriefs(benny, { kind: "nearest" })).items.some((b) => b.profileId === s.viewer.profileId);
        assert.equal(await seesViewer(), true);
        await page.getByRole("button", { name: "Visibility: Showing" }).click();
        const pressedAt = Date.now();
        assert.equal(await messageText(page), TEXTS.hidingMessage);
        await page.getByRole("button", { name: "Visibility: Hidden" }).waitFor();
        assert.ok(await page.locator(".map-btn-caption", { hasText: "Hidden" }).isVisible(), "caption after a press");
        await eventually(() => getOwnPosition(s.viewer.profileId), (p) => p?.hide === true, "stored hidden");
        assert.equal(await seesViewer(), false, "hidden from others");
        await shot(page, `${vp}-map-hidden`);
        await page.locator(".map-message").waitFor({ state: "detached", timeout: 4000 });
        assert.ok(Date.now() - pressedAt >= 2000, "the message stays about 2.5 s");
        await page.getByRole("button", { name: "Visibility: Hidden" }).click();
        assert.equal(await messageText(page), "You are  visible to others.", "two spaces, word for word");
        await eventually(() => getOwnPosition(s.viewer.profileId), (p) => p?.hide === false, "stored visible");
        assert.equal(await seesViewer(), true);

        // --- location type: GPS places the viewer at the device's position, Walk keeps it as an override
        const gpsAt = { latitude: HOME.lat + 0.009, longitude: HOME.lon - 0.011 };
        await context.grantPermissions(["geolocation"], { origin: h.origin });
        await context.setGeolocation(gpsAt);
        await page.getByRole("button", { name: "Location: Walk" }).click();
        assert.equal(await messageText(page), TEXTS.gpsMessage);
        await page.getByRole("button", { name: "Location: GPS" }).waitFor();
        const gps = await eventually(
          () => getOwnPosition(s.viewer.profileId),
          (p) => p?.use === "DEVICE_GPS" && Math.abs((p.gpsLat ?? 0) - gpsAt.latitude) < 1e-9,
          "stored GPS position",
        );
        assert.equal(gps?.lon, gpsAt.longitude);
        await shot(page, `${vp}-map-gps`);
        await page.getByRole("button", { name: "Location: GPS" }).click();
        assert.equal(await messageText(page), TEXTS.walkMessage);
        await eventually(
          () => getOwnPosition(s.viewer.profileId),
          (p) => p?.use === "OVERRIDE" && p.overrideLat === gpsAt.latitude,
          "stored as an override where GPS left it",
        );

        // --- a link to a member flies there at zoom 18 and marks them; recenter flies back at zoom 17
        const target = (await getShownPosition(s.ids[3]))!;
        const linkTo = (t: typeof target) => `profileId=${t.profileId}&lat=${t.lat}&lng=${t.lon}`;
        let linked = { lat: NaN, lon: NaN };
        const glide = await levelMovesWhile(page, async () => {
          await page.evaluate((hash) => location.hash = hash, linkTo(target));
          await page.locator(".pm-focus").waitFor();
          linked = await viewAtZoom(page, 18);
        });
        assert.ok(glide >= 5, `the map glides to the member (its tile levels moved ${glide} times)`);
        assert.ok(
          Math.abs(linked.lat - target.lat) < 2e-4 && Math.abs(linked.lon - target.lon) < 2e-4,
          "at the member",
        );
        await page.getByRole("button", { name: "Recenter on me" }).click();
        const me = (await getOwnPosition(s.viewer.profileId))!;
        const back = await viewAtZoom(page, 17);
        assert.ok(Math.abs(back.lat - me.lat) < 2e-4 && Math.abs(back.lon - me.lon) < 2e-4, "back on me");
        await imagesLoaded(page);
        await shot(page, `${vp}-map-recentered`);

        // --- the view is restored after a reload (the hash cleared), here with less motion asked for
        // (a mark in the stored view tells when the reloaded map has saved its own)
        await page.emulateMedia({ reducedMotion: "reduce" });
        await page.evaluate(() => {
          history.replaceState(null, "", "/search/map");
          localStorage.setItem(
            "map-view",
            JSON.stringify({ ...JSON.parse(localStorage.getItem("map-view")!), mark: 1 }),
          );
        });
        await page.reload();
        await eventually(
          () => page.evaluate(() => localStorage.getItem("map-view")),
          (raw) => !!raw && !raw.includes("mark"),
          "the view saved again",
        );
        const restored = await savedView(page);
        assert.equal(restored.zoom, 17);
        assert.ok(Math.abs(restored.lat - back.lat) < 1e-6 && Math.abs(restored.lon - back.lon) < 1e-6, "restored");

        // --- a member who asks for less motion: the map jumps to a member, with no glide and no fade
        // (the reload above made the map with the setting on, as a member's phone would)
        assert.ok(!(await page.locator(".leaflet-container").getAttribute("class"))!.includes("leaflet-fade-anim"));
        const jump = await levelMovesWhile(page, async () => {
          await page.evaluate((hash) => location.hash = hash, linkTo(target));
          await page.locator(".pm-focus").waitFor();
          const still = await viewAtZoom(page, 18);
          assert.ok(Math.abs(still.lat - target.lat) < 2e-4 && Math.abs(still.lon - target.lon) < 2e-4, "jumped there");
        });
        assert.ok(jump <= 2, `the map jumps to the member (its tile levels moved ${jump} times)`);
        await page.emulateMedia({ reducedMotion: "no-preference" });

        // --- the filter: every ticked characteristic present
        await openAt(page, HOME, 0.05, 13);
        await mapReady(page, MEMBERS.length);
        await page.locator(".map-filter summary").click();
        await page.locator(".map-filter label", { hasText: /^Top$/ }).click();
        const tops = MEMBERS.filter((m) => m.chars.includes("top")).length;
        await page.waitForFunction((n) => document.querySelectorAll(".pm").length === n, tops);
        await page.locator(".map-filter label", { hasText: /^Hosting$/ }).click();
        const topHosts = MEMBERS.filter((m) => m.chars.includes("top") && m.chars.includes("hosting")).length;
        await page.waitForFunction((n) => document.querySelectorAll(".pm").length === n, topHosts);
        await shot(page, `${vp}-map-filter`);
        await page.getByRole("button", { name: "Clear filter" }).click();
        await page.locator(".map-filter summary").click();
        await mapReady(page, MEMBERS.length);

        // --- a marker opens the member's profile
        // (by keyboard: on a phone the big markers overlap, and Enter must work anyway)
        await page.locator(`.leaflet-marker-icon[title="Benny"]`).focus();
        await page.keyboard.press("Enter");
        await page.waitForURL(`${h.origin}/profile/${benny}`);

        // --- zoomed out past 20 sectors: 'Zoom in to see profiles.' and the counts per sector
        await openAt(page, HOME, 12, 5);
        await page.getByText(TEXTS.zoomIn).waitFor();
        const sector = sectorKey(HOME.lat, HOME.lon);
        const count = (await aggregates()).filter((a) => `${a.centerLat - 0.5}:${a.centerLon - 0.5}` === sector)[0]
          .count;
        await page.locator(".agg-label", { hasText: String(count) }).first().waitFor();
        assert.equal(await page.locator(".pm").count(), 0);
        await imagesLoaded(page);
        await shot(page, `${vp}-map-aggregates`);

        // --- 800 or more in view: 'Too many profiles to display.' and no markers
        const crowd = Array.from({ length: 800 }, (_, i) => ({
          profileId: newId(),
          lat: TUCSON.lat + ((i * 7919) % 401 - 200) / 20_000,
          lon: TUCSON.lon + ((i * 104_729) % 397 - 198) / 20_000,
          use: "OVERRIDE" as const,
          hide: false,
        }));
        for (const c of crowd) {
          await kv().set(keys.profile(c.profileId), newProfile(c.profileId, "crowd", "Crowd", ["USER"]));
        }
        await importPositions(crowd);
        const answers: number[] = [];
        page.on("response", (r) => void (r.url().includes("/api/profile-briefs/map?") && answers.push(r.status())));
        await openAt(page, TUCSON, 0.03, 13);
        await page.getByText(TEXTS.tooManyProfiles).waitFor({ timeout: 30_000 }).catch((e) => {
          throw new Error(`${e.message}\nthe map view answered: ${answers.join(", ")}`);
        });
        assert.equal(await page.locator(".pm").count(), 0);
        await imagesLoaded(page);
        await shot(page, `${vp}-map-too-many`);

        // --- the captions hide 8 s after the last press
        await page.locator(".map-page.captions").waitFor({ state: "detached", timeout: 10_000 });
        assert.equal(await page.locator(".map-btn-caption").first().isVisible(), false);

        if (vp === "desktop") {
          // --- Walk: dragging the 'me' marker moves the viewer
          await openAt(page, restored, 0.01, 15);
          // Dragged once it can be (Walk known: `.me-walk`) and where it stays (the map settled):
          // a press before then lands on the map and pans it.
          const dot = await settledBox(page.locator(".me-marker.me-walk"));
          const before = (await getOwnPosition(s.viewer.profileId))!;
          await page.mouse.move(dot.x + dot.width / 2, dot.y + dot.height / 2);
          await page.mouse.down();
          for (let i = 1; i <= 10; i++) {
            await page.mouse.move(dot.x + dot.width / 2 + 12 * i, dot.y + dot.height / 2 + 6 * i);
          }
          await page.mouse.up();
          const dragged = await eventually(
            () => getOwnPosition(s.viewer.profileId),
            (p) => !!p && p.lon > before.lon + 0.001 && p.lat < before.lat,
            "moved east and south",
          );
          assert.equal(dragged?.use, "OVERRIDE");

          // --- GPS refused: back to Walk with 'GPS: ' and the spec's text
          await context.clearPermissions();
          await page.reload();
          await page.locator(".leaflet-container").waitFor();
          await page.getByRole("button", { name: "Location: Walk" }).click();
          await page.getByText(TEXTS.gpsPrefix + TEXTS.geoDenied).waitFor();
          await page.getByRole("button", { name: "Location: Walk" }).waitFor();
          await imagesLoaded(page);
          await shot(page, `${vp}-map-gps-denied`);

          // --- a 401 pauses reporting and goes to /login
          await context.clearCookies();
          // The first call after this gets the 401: the toggle's, or the map's own refetch (every
          // 15 s) when it comes first, and then the page leaves for /login under the click.
          const atLogin = page.waitForURL(`${h.origin}/login`);
          // A click the page's leaving cut short is not a failure: reaching /login is what is checked.
          const click = page.getByRole("button", { name: "Visibility: Showing" }).click().catch(() => {});
          await Promise.race([atLogin, click]);
          await atLogin;
        }
      } finally {
        await context?.close();
        await h.close();
      }
    },
  });
}

/**
 * Records the first tiles as they were laid out, the moment Leaflet's box appeared (so before
 * React and Leaflet had drawn anything), and whether the page was then wider than the window.
 */
const RECORD_FIRST_TILES = () => {
  const w = globalThis as unknown as { firstTiles?: { src: string; x: number; y: number }[]; tooWide?: boolean };
  new MutationObserver((_, obs) => {
    if (!document.querySelector(".leaflet-host")) return;
    w.firstTiles = [...document.querySelectorAll<HTMLImageElement>(".map-preview img")].map((i) => {
      const r = i.getBoundingClientRect();
      return { src: i.src, x: r.x, y: r.y };
    });
    w.tooWide = document.documentElement.scrollWidth > innerWidth;
    obs.disconnect();
  }).observe(document, { childList: true, subtree: true });
};

/** Where the desktop's member of the first-tiles walk lives: far from the phone's, on neither's map. */
const PRESCOTT = { lat: 34.54, lon: -112.4685 };

// The phone and the desktop side by side over one app: each its own member in a context of its own.
Deno.test({
  name:
    "e2e phone, desktop - map: the first tiles show before the map has run, are Leaflet's tiles at their places, then go",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const h = await startHarness();
    try {
      await sideBySide(["phone", "desktop"] as ViewportName[], async (vp) => {
        const viewer = await account(`first-tiles-${vp}@example.com`, "Viewer");
        const home = vp === "phone" ? HOME : PRESCOTT;
        await reportPosition(viewer.profileId, { ...home, use: "OVERRIDE", hide: false });
        const { context, page } = await h.newPage(vp);
        try {
          await page.addInitScript(RECORD_FIRST_TILES);
          await logInAs(page.context(), h.origin, viewer.accountId);

          const compare = async (zoom: number) => {
            await page.locator(".leaflet-container").waitFor();
            await imagesLoaded(page);
            // The first tiles go once Leaflet's have faded in over them.
            await page.locator(".map-preview").waitFor({ state: "detached" });
            const { first, tooWide } = await page.evaluate(() => {
              const w = globalThis as unknown as {
                firstTiles?: { src: string; x: number; y: number }[];
                tooWide?: boolean;
              };
              return { first: w.firstTiles ?? [], tooWide: w.tooWide };
            });
            assert.equal(tooWide, false, "the first tiles stay within the map's box");
            const box = (await page.locator(".leaflet-container").boundingBox())!;
            const leaflet = await page.locator(".leaflet-tile-loaded").evaluateAll((els) =>
              els.map((i) => {
                const r = i.getBoundingClientRect();
                return { src: (i as HTMLImageElement).src, x: r.x, y: r.y };
              })
            );
            const inView = (t: { x: number; y: number }) =>
              t.x < box.x + box.width && t.x + 256 > box.x && t.y < box.y + box.height && t.y + 256 > box.y;
            const shown = leaflet.filter(inView);
            assert.ok(first.length > 0, "first tiles were laid out before Leaflet's box appeared");
            assert.equal(first.length, shown.length, "as many first tiles as Leaflet shows");
            for (const t of first) {
              assert.match(t.src, new RegExp(`^${h.origin}/tiles/${zoom}/\\d+/\\d+$`), "from the app's origin");
              const same = shown.find((l) => l.src === t.src);
              assert.ok(same, `Leaflet shows ${t.src} too`);
              assert.ok(Math.abs(same.x - t.x) <= 1 && Math.abs(same.y - t.y) <= 1, `${t.src} at the same place`);
            }
          };

          // --- a device with nothing saved: the member's own last report, at the start zoom
          await page.goto("/search/map");
          await compare(13);

          // --- the saved view, at its zoom
          await openAt(page, TUCSON, 0.02, 15);
          await compare(15);

          // --- what the member sees while Leaflet is still on its way: the first tiles under the controls
          let release = () => {};
          const held = new Promise<void>((r) => release = r);
          await page.route("**/LeafletMap-*.js", async (r) => {
            await held;
            await r.continue();
          });
          await page.goto("/search/map");
          await page.waitForFunction(() => {
            const tiles = [...document.querySelectorAll<HTMLImageElement>(".map-preview img")];
            return tiles.length > 0 && tiles.every((i) => i.complete && i.naturalWidth > 0);
          });
          assert.equal(await page.locator(".leaflet-host").count(), 0, "Leaflet has not run yet");
          assert.equal(await page.locator(".map-loading").isVisible(), false, "the tiles, not 'Loading the map...'");
          await shot(page, `${vp}-map-first-tiles`);
          release();
          await compare(15);

          // --- a map that cannot load shows its error, not tiles that look like a working map
          await page.unroute("**/LeafletMap-*.js");
          await page.route("**/LeafletMap-*.js", (r) => r.abort());
          await page.goto("/search/map");
          await page.getByText("The map could not be loaded.").waitFor();
          assert.equal(await page.locator(".map-preview").count(), 0);
        } finally {
          await context.close();
        }
      });
    } finally {
      await h.close();
    }
  },
});

Deno.test({
  name:
    "e2e phone - map: the browser asks only the app for tiles; when they fail the map says so and links to the list",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const h = await startHarness();
    let context: BrowserContext | undefined;
    // A cache of its own: tiles kept by the tests before would hide the failure.
    const keptDir = Deno.env.get("TILE_CACHE_DIR");
    const dir = await Deno.makeTempDir({ prefix: "e2e-tiles-down-" });
    Deno.env.set("TILE_CACHE_DIR", dir);
    try {
      const viewer = await account("tiles-down@example.com", "Viewer");
      await reportPosition(viewer.profileId, { ...HOME, use: "OVERRIDE", hide: false });
      ({ context } = await h.newPage("phone"));
      const page = context.pages()[0];
      const asked: string[] = [];
      page.on("request", (r) => void asked.push(r.url()));
      await logInAs(page.context(), h.origin, viewer.accountId);

      // --- tiles that load: from the app's /tiles, never the tile server; the attribution shows
      await page.goto("/search/map");
      await imagesLoaded(page);
      const tileServerOrigin = tileServer.origin;
      assert.ok(asked.some((u) => u.startsWith(`${h.origin}/tiles/13/`)), "tiles asked from the app");
      assert.ok(!asked.some((u) => u.startsWith(tileServerOrigin)), "the browser never asks the tile server");
      assert.match((await page.locator(".leaflet-control-attribution").textContent()) ?? "", /OpenStreetMap/);
      assert.equal(await page.locator(".map-tiles-failed").count(), 0, "no failure while tiles load");

      // --- the tile server down: a clear message and a link to the list
      tilesDown = true;
      await openAt(page, TUCSON, 0.02, 14);
      const failed = page.locator(".map-tiles-failed");
      await failed.waitFor({ timeout: 15_000 });
      assert.equal(await failed.getAttribute("role"), "alert");
      assert.match((await failed.textContent()) ?? "", new RegExp(UI_TEXTS.mapTilesFailed.replace(".", "\\.")));
      const link = failed.getByRole("link", { name: UI_TEXTS.seeMembersAsList });
      assert.equal(await link.getAttribute("href"), "/search/tile");
      assert.match((await page.locator(".leaflet-control-attribution").textContent()) ?? "", /OpenStreetMap/);
      assert.ok(!asked.some((u) => u.startsWith(tileServerOrigin)), "still never the tile server");
      await shot(page, "phone-map-tiles-failed");
      await link.click();
      await page.waitForURL(`${h.origin}/search/tile`);
    } finally {
      tilesDown = false;
      if (keptDir) Deno.env.set("TILE_CACHE_DIR", keptDir);
      else Deno.env.delete("TILE_CACHE_DIR");
      await context?.close();
      await h.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
