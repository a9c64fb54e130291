/**
 * The map's first view on a phone (390 × 844 and 320 × 640): with members spread a few km around
 * (as a real town's are), the grid lists them, and the map opens on them. Every member the grid
 * shows whose place is within the map's view is a marker there, and no floating control (the
 * buttons, the filter, Leaflet's zoom buttons and attribution) covers a marker's face.
 */

import assert from "node:assert/strict";
import { serveTiles } from "../fixtures/tiles.ts";
import type { Page } from "playwright-core";
import { logInAs, shot, startHarness } from "./harness.ts";
import { createAccount } from "../../kv/accounts.ts";
import { updateProfile } from "../../kv/profiles.ts";
import { getShownPosition, reportPosition } from "../../kv/positions/mod.ts";

const HOME = { lat: 33.4484, lon: -112.074 };

// A local tile server: the app fetches its tiles here, the browser only ever asks the app.
await serveTiles(undefined, { cacheControl: null });

/** Fourteen members 1.5 to 9 km around the viewer, on a spiral, some of them in the same 1 km cell. */
async function seed() {
  const viewer = (await createAccount({ email: "viewer@example.com", name: "Viewer" }))!;
  await reportPosition(viewer.defaultProfileId, { ...HOME, use: "OVERRIDE", hide: false });
  const names: string[] = [];
  for (let i = 0; i < 14; i++) {
    const name = `Member ${String.fromCharCode(65 + i)}`;
    const a = (await createAccount({ email: `m${i}@example.com`, name }))!;
    assert.ok((await updateProfile(a.defaultProfileId, { profilename: name })).ok);
    const r = 0.014 + 0.0055 * i, angle = i * 2.4;
    await reportPosition(a.defaultProfileId, {
      lat: HOME.lat + r * Math.sin(angle),
      lon: HOME.lon + r * Math.cos(angle) * 1.2,
      use: "OVERRIDE",
      hide: false,
    });
    names.push(name);
  }
  return { viewer };
}

/** The names and ids of the members the grid shows (its tiles' links). */
async function gridMembers(page: Page): Promise<{ id: string; name: string }[]> {
  await page.goto("/search/tile");
  await page.locator(".tiles a.tile").first().waitFor();
  return await page.$$eval(".tiles a.tile", (links) =>
    links.map((a) => ({
      id: a.getAttribute("href")!.split("/").pop()!.split("#")[0],
      name: a.textContent ?? "",
    })));
}

Deno.test({
  name:
    "e2e - map: the first view shows every member the grid shows in it, none under a floating control (320 and 390 px)",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const h = await startHarness();
    try {
      const { viewer } = await seed();
      for (const size of [{ width: 390, height: 844 }, { width: 320, height: 640 }]) {
        const { context, page } = await h.newPage("phone");
        await page.setViewportSize(size);
        await logInAs(context, h.origin, viewer.id);

        const grid = await gridMembers(page);
        assert.ok(grid.length >= 12, `${size.width} px: the grid lists the neighbours (${grid.length})`);

        await page.goto("/search/map");
        await page.locator(".leaflet-container").waitFor();
        // The view is saved 1 s after it settles: the box the member sees.
        await page.waitForFunction(() => localStorage.getItem("map-view") !== null, null, { timeout: 15_000 });
        const view = JSON.parse((await page.evaluate(() => localStorage.getItem("map-view")))!) as {
          latMin: number;
          lonMin: number;
          latMax: number;
          lonMax: number;
        };
        const inView: string[] = [];
        for (const m of grid) {
          const p = (await getShownPosition(m.id))!;
          if (p.lat >= view.latMin && p.lat <= view.latMax && p.lon >= view.lonMin && p.lon <= view.lonMax) {
            inView.push(m.id);
          }
        }
        assert.ok(
          inView.length >= 12,
          `${size.width} px: the map's view holds the grid's first screenful (${inView.length})`,
        );
        // The markers are there once the view's members have come (their titles are the members' names).
        await page.waitForFunction(
          (n) => document.querySelectorAll(".leaflet-marker-icon.pm-wrap").length >= n,
          inView.length,
          { timeout: 15_000 },
        );
        const titles = await page.$$eval(
          ".leaflet-marker-icon.pm-wrap",
          (els) => els.map((e) => e.getAttribute("title")),
        );
        const names = new Map(grid.map((m) => [m.id, m.name]));
        for (const id of inView) {
          assert.ok(
            titles.some((t) => t && names.get(id)!.includes(t)),
            `${size.width} px: ${names.get(id)} is on the map`,
          );
        }

        // No floating control covers a marker's face.
        const overlaps = await page.evaluate(() => {
          const box = (e: Element) => e.getBoundingClientRect();
          const controls = [...document.querySelectorAll(".map-btn, .map-filter summary, .leaflet-control")];
          const faces = [...document.querySelectorAll(".leaflet-marker-icon .pm")];
          const out: string[] = [];
          for (const f of faces) {
            const a = box(f);
            for (const c of controls) {
              const b = box(c);
              if (a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top) {
                out.push(`${f.closest("[title]")?.getAttribute("title")} under ${c.className}`);
              }
            }
          }
          return { out, faces: faces.length };
        });
        assert.ok(overlaps.faces >= inView.length);
        assert.deepEqual(overlaps.out, [], `${size.width} px: no control over a face`);
        await shot(page, `map-first-view-${size.width}`, { fullPage: false });
        await context.close();
      }
    } finally {
      await h.close();
    }
  },
});
