/**
 * Tap on a tile → the profile's photo visible: from the tap's `pointerdown` to the Element Timing
 * of the new document's `profile-photo` (its first picture painted; a prerendered page counts from
 * its activation at the earliest), in a phone tab with 4× CPU throttling (tests/e2e/cdpTab.ts, so
 * Chromium speculates as it does for a member). The e2e budget test prints it for the app; the
 * tap bench (bench/tap.ts) judges it beside the same taps on a bare two-page site.
 */

import { openTab, type Tab } from "./cdpTab.ts";
import { placeOnSpiral, VIEWPORTS } from "./harness.ts";
import { createAccount } from "../../kv/accounts.ts";
import { updateProfile } from "../../kv/profiles.ts";
import { addPicture } from "../../kv/pictures.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { sendPrivateMessage } from "../../kv/messages.ts";
import { portraitPicture } from "../fixtures/pictures.ts";

const HOME = { lat: 33.4484, lon: -112.074 };

/** The viewer, 12 members around them with pictures (the first with 3), one with a conversation. */
export async function seedNearby() {
  const viewer = (await createAccount({ email: "budget-viewer@example.com", name: "Viewer" }))!;
  const me = viewer.defaultProfileId;
  await reportPosition(me, { ...HOME, use: "OVERRIDE", hide: false });
  const others: string[] = [];
  for (let i = 0; i < 12; i++) {
    const a = (await createAccount({ email: `budget-${i}@example.com`, name: `Near ${i}` }))!;
    const id = a.defaultProfileId;
    await updateProfile(id, {
      profilename: `Near ${i}`,
      birthdate: "1990-01-01",
      description: "Coffee, hikes and old films. Say hi if you are around.",
      characteristics: ["top", "hosting"],
    });
    for (let p = 0; p < (i === 0 ? 3 : 1); p++) await addPicture(id, await portraitPicture(i + p));
    await placeOnSpiral(id, HOME, i, { start: 0.006, step: 0.003 });
    others.push(id);
  }
  for (let i = 0; i < 6; i++) {
    await sendPrivateMessage(others[0], me, `Message ${i}: coffee later? I know a place near the park.`, []);
    await sendPrivateMessage(me, others[0], `Answer ${i}: sounds good.`, []);
  }
  return { viewer, profile: others[0] };
}

/** Each tap's time in ms and how its page came: opened in the grid's page, prerendered, prefetched, or loaded on the tap. */
export interface Taps {
  times: number[];
  ways: string[];
}

/** The phone tab the taps are measured in; `tapAt` in session storage is the last tap's time. */
export function openPhoneTab(): Promise<Tab> {
  return openTab({
    ...VIEWPORTS.phone,
    cpuRate: 4,
    initScript: `addEventListener("pointerdown", (e) =>
      sessionStorage.setItem("tapAt", String(performance.timeOrigin + e.timeStamp)), { capture: true });`,
  });
}

/**
 * `taps` taps, each on the next `.tile` of the page at `gridUrl`, loaded again before each after
 * `lookMs` (a member looks before tapping: the speculation rules fetch ahead meanwhile). Throws when
 * a tap does not open its link or the photo never shows.
 */
export async function measureTaps(tab: Tab, gridUrl: string, taps: number, lookMs = 1500): Promise<Taps> {
  const times: number[] = [], ways: string[] = [];
  for (let i = 0; i < taps; i++) {
    await tab.navigate(gridUrl);
    await new Promise((r) => setTimeout(r, lookMs));
    const { x, y, href } = await tab.evaluate<{ x: number; y: number; href: string }>(`(() => {
      const tile = document.querySelectorAll(".tile")[${i}], r = tile.getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2, href: tile.getAttribute("href") };
    })()`);
    const before = Date.now();
    await tab.tap(x, y);
    let measured: { ms: number; how: string } | undefined;
    for (let t = 0; t < 1000 && !measured; t++) {
      measured = await tab.evaluate<{ ms: number; how: string } | undefined>(
        `location.pathname !== ${JSON.stringify(href)} ? undefined : new Promise((resolve) => {
        const nav = performance.getEntriesByType("navigation")[0];
        const shown = nav.activationStart ?? 0;
        const how = nav.name !== location.href ? "in-page" : shown > 0 ? "prerendered"
          : nav.deliveryType === "navigational-prefetch" ? "prefetched" : "loaded";
        setTimeout(() => resolve(undefined), 5000);
        new PerformanceObserver((list) => {
          const e = list.getEntries().find((x) => x.identifier === "profile-photo");
          if (!e) return;
          const at = performance.timeOrigin + Math.max(e.renderTime || e.loadTime, shown);
          resolve({ ms: at - Number(sessionStorage.getItem("tapAt") ?? ${before}), how });
        }).observe({ type: "element", buffered: true });
      })`,
      ).catch(() => undefined);
      if (!measured) await new Promise((r) => setTimeout(r, 10));
    }
    if (!measured) throw new Error(`the tap on ${href} did not show its photo`);
    times.push(measured.ms);
    ways.push(measured.how);
  }
  return { times, ways };
}

/** The 75th percentile of the taps' times. */
export function p75(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length * 0.75) - 1];
}

/** "p75 412 ms of 380 prefetched, 412 prerendered, ..." */
export function describeTaps({ times, ways }: Taps): string {
  return `p75 ${p75(times).toFixed(0)} ms of ${times.map((t, i) => `${t.toFixed(0)} ${ways[i]}`).join(", ")}`;
}
