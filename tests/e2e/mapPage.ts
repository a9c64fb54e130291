/**
 * The map page as the map tests drive and read it: a view opened at a point, the map ready with its
 * markers and pictures, the view the map saved, how its tile levels moved, a settled box, a message.
 */

import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { until } from "../wait.ts";

/** Waits for the map, its markers (`count`) and their pictures, and the tiles. */
export async function mapReady(page: Page, count: number): Promise<void> {
  await page.locator(".leaflet-container").waitFor();
  await page.waitForFunction((n) => document.querySelectorAll(".pm").length === n, count, { timeout: 15_000 });
  await imagesLoaded(page);
}

/** Waits until the tiles and marker pictures in view have loaded (for a screenshot). */
export async function imagesLoaded(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLImageElement>(".leaflet-tile, .pm img")].every((i) => i.complete) &&
    document.querySelectorAll(".leaflet-tile-loaded").length > 0
  );
}

/** The view the map saved in local storage (1 s after it settled). */
export async function savedView(page: Page) {
  const raw = await page.evaluate(() => localStorage.getItem("map-view"));
  assert.ok(raw, "a saved view");
  const v = JSON.parse(raw) as { latMin: number; lonMin: number; latMax: number; lonMax: number; zoom: number };
  return { ...v, lat: (v.latMin + v.latMax) / 2, lon: (v.lonMin + v.lonMax) / 2 };
}

/**
 * How many times the map's tile levels moved while `act` ran: Leaflet moves them once a frame while
 * the map glides (a fly to a member and back), and once when it jumps there.
 */
export async function levelMovesWhile(page: Page, act: () => Promise<void>): Promise<number> {
  await page.evaluate(() => {
    const w = globalThis as unknown as { levelMoves: number; levelWatch?: MutationObserver };
    w.levelMoves = 0;
    w.levelWatch?.disconnect();
    w.levelWatch = new MutationObserver((changes) => {
      if (changes.some((c) => (c.target as Element).classList.contains("leaflet-tile-container"))) w.levelMoves++;
    });
    w.levelWatch.observe(document.querySelector(".leaflet-map-pane")!, {
      attributes: true,
      attributeFilter: ["style"],
      subtree: true,
    });
  });
  await act();
  return await page.evaluate(() => {
    const w = globalThis as unknown as { levelMoves: number; levelWatch: MutationObserver };
    w.levelWatch.disconnect();
    return w.levelMoves;
  });
}

/** The saved view once it is at `zoom` (a flight takes a moment, and the view is saved 1 s after). */
export function viewAtZoom(page: Page, zoom: number) {
  return eventually(() => savedView(page).catch(() => null), (v) => v?.zoom === zoom, `a view at zoom ${zoom}`)
    .then((v) => v!);
}

/** The box of `target` once it is shown and has not moved for 200 ms. */
export async function settledBox(target: Locator) {
  await target.waitFor();
  let last = await target.boundingBox();
  await until(
    async () => {
      const box = await target.boundingBox();
      const same = JSON.stringify(box) === JSON.stringify(last);
      last = box;
      return same && box !== null;
    },
    "a box that stays",
    { timeoutMs: 10_000, everyMs: 200 },
  );
  return last!;
}

/** Polls `read` until `ok` holds (the reporter's PUT is debounced 1 s). */
export async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  let v = await read();
  await until(async () => ok(v = await read()), what, { timeoutMs: 6_000, everyMs: 100 }).catch(() => {});
  assert.ok(ok(v), `${what}: ${JSON.stringify(v)}`);
  return v;
}

export async function messageText(page: Page): Promise<string> {
  const m = page.locator(".map-message");
  await m.waitFor();
  return (await m.textContent()) ?? "";
}

/**
 * Saves a view of ±`half` degrees around a point at `zoom` and opens the map there. The view is
 * written from another document of the app's origin: a map still open could save its own view over
 * it a second later. That document is the app's icon (an SVG): no page of the app (style sheets,
 * islands, a live feed) is loaded and hydrated only to write a key.
 */
export async function openAt(page: Page, at: { lat: number; lon: number }, half: number, zoom: number): Promise<void> {
  const view = { latMin: at.lat - half, lonMin: at.lon - half, latMax: at.lat + half, lonMax: at.lon + half, zoom };
  await page.goto("/static/icon.svg");
  await page.evaluate((v) => localStorage.setItem("map-view", JSON.stringify(v)), view);
  await page.goto("/search/map");
}
