/**
 * The screens of docs/screens/: home, grid, profile, chat, conversation list, map and settings,
 * on a phone and a desktop, as a member with neighbours, pictures and conversations sees them.
 * Each is the first screenful (what a member sees on opening it), in light and in dark, saved as PNG to
 * docs/screens/after/ (or to SCREENS_DIR: the "before" set is this file run on an older commit).
 * Screens to read, not checks: `deno task screens` takes them (with the offline and Arabic screens),
 * and `deno task test` (E2E_SHOTS=0) leaves this file out (decision 0313).
 */

import { serveTiles } from "../fixtures/tiles.ts";
import type { Page } from "playwright-core";
import {
  docShot,
  logInThroughApi,
  SAVE_SHOTS,
  settledPaint,
  sinceYesterdayNoon,
  startHarness,
  type ViewportName,
} from "./harness.ts";
import { createAccount, getAccountByEmail, setLanguage } from "../../kv/accounts.ts";
import { markSeen } from "../../kv/presence.ts";
import { updateProfile } from "../../kv/profiles.ts";
import { addPicture } from "../../kv/pictures.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { sendPrivateMessage } from "../../kv/messages.ts";
import { resetClock, shiftClock } from "../../kv/clock.ts";
import { portraitPicture } from "../fixtures/pictures.ts";

// A local tile server (the map's imagery): every tile is the same light 'map' tile.
if (SAVE_SHOTS) {
  await serveTiles(`<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">
    <rect width="256" height="256" fill="#eef1ea"/>
    <path d="M0 96H256M0 200H256M70 0V256M180 0V256" stroke="#ffffff" stroke-width="10"/>
    <path d="M0 96H256M70 0V256" stroke="#f3d9a4" stroke-width="6"/>
    <rect x="90" y="116" width="70" height="64" fill="#d8e8cf"/>
  </svg>`);
}

const OUT = Deno.env.get("SCREENS_DIR") ?? new URL("../../docs/screens/after/", import.meta.url).pathname;
const PHOENIX = { lat: 33.4484, lon: -112.074 };

/** Neighbours: name, birthdate, characteristics, pictures, how far north (degrees). */
const NEIGHBOURS = [
  { name: "Sam", born: "1991-06-02", chars: ["versatile", "coffee", "fitness"], pics: 3, north: 0.004 },
  { name: "Alexander", born: "1986-03-14", chars: ["top", "hosting"], pics: 2, north: 0.009 },
  { name: "Jordan", born: "1995-11-30", chars: ["bottom", "bear"], pics: 1, north: 0.013 },
  { name: "Kai", born: "1999-01-08", chars: [], pics: 0, north: 0.018 },
  { name: "Mateo", born: "1989-07-21", chars: ["oral", "traveling"], pics: 1, north: 0.024 },
  { name: "Robin", born: "1993-09-09", chars: ["art", "culture"], pics: 2, north: 0.031 },
  { name: "Theo", born: "1984-02-17", chars: ["leather"], pics: 1, north: 0.04 },
  { name: "Noah", born: "1997-05-05", chars: ["cooking"], pics: 1, north: 0.052 },
];

/** Waits until every picture on the page has loaded, and for the fonts. */
async function settled(page: Page) {
  await page.waitForFunction(() =>
    [...document.images].filter((i) => i.loading !== "lazy" || i.getBoundingClientRect().top < innerHeight)
      .every((i) => i.complete)
  );
  await settledPaint(page);
}

/**
 * The screen in light, then in dark (the device's colour scheme; the member chose none). The page
 * is opened once: the app's dark look is its style sheets' (`prefers-color-scheme`, no script
 * reads it), so the same page turns dark when the device does, as a member's would.
 */
async function screen(page: Page, vp: string, name: string, path: string) {
  await page.emulateMedia({ colorScheme: "light" });
  // The map as on its first opening, not at the view a previous shot left.
  await page.evaluate(() => localStorage.removeItem("map-view")).catch(() => {});
  await page.goto(path);
  // The map's members come with its first view's answer, after the page's pictures.
  if (path === "/search/map") await page.locator(".leaflet-marker-icon .pm").first().waitFor();
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await settled(page);
    await docShot(page, `${OUT}/${vp}-${name}${scheme === "dark" ? "-dark" : ""}.png`);
  }
}

Deno.test({
  name: "e2e - screens: home, grid, profile, chat, conversations, map and settings on a phone and a desktop",
  ignore: !SAVE_SHOTS,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const h = await startHarness();
    try {
      for (const vp of ["phone", "desktop"] as ViewportName[]) {
        const { context, page } = await h.newPage(vp);
        const email = `screens-${vp}@example.com`;
        await logInThroughApi(context, h.origin, email);
        const me = (await getAccountByEmail(email))!.defaultProfileId;
        await updateProfile(me, { profilename: "Avery", birthdate: "1990-04-02", characteristics: ["versatile"] });
        await addPicture(me, await portraitPicture(11));
        await reportPosition(me, { ...PHOENIX, use: "OVERRIDE", hide: false });
        const ids: Record<string, string> = {};
        for (const [i, n] of NEIGHBOURS.entries()) {
          const id = (await createAccount({ email: `screens-${vp}-${i}@example.com`, name: n.name }))!
            .defaultProfileId;
          ids[n.name] = id;
          await updateProfile(id, {
            profilename: n.name,
            birthdate: n.born,
            height: `5'${8 + (i % 4)}"`,
            weight: `${150 + i * 7} lb`,
            characteristics: n.chars,
            description: i === 0
              ? "Coffee first, then the trail. New in town, looking for friends and maybe more.\n\nAsk me about my dog."
              : "Say hi if you are around.",
          });
          for (let p = 0; p < n.pics; p++) await addPicture(id, await portraitPicture(i * 3 + p));
          await reportPosition(id, {
            lat: PHOENIX.lat + n.north,
            lon: PHOENIX.lon + 0.002 * i,
            use: "OVERRIDE",
            hide: false,
          });
        }
        // Conversations: one from yesterday, read; one now, with unread messages.
        shiftClock(-sinceYesterdayNoon());
        await sendPrivateMessage(me, ids.Alexander, "Great meeting you at the market!", []);
        await sendPrivateMessage(ids.Alexander, me, "Likewise, let's do it again soon.", []);
        resetClock();
        shiftClock(-30 * 60_000);
        await sendPrivateMessage(ids.Sam, me, "Hey Avery! Saw you're close by 👋", []);
        await sendPrivateMessage(me, ids.Sam, "Hi Sam! Yes, just around the corner.", []);
        resetClock();
        shiftClock(-3 * 60_000);
        await sendPrivateMessage(ids.Sam, me, "Fancy a coffee this afternoon? There's a nice place on 3rd street.", []);
        resetClock();
        await sendPrivateMessage(ids.Sam, me, "Around 4?", []);
        // Sam was last seen three hours ago (the chat's head says so).
        shiftClock(-3 * 3_600_000);
        await markSeen(ids.Sam);
        resetClock();

        await screen(page, vp, "home", "/");
        await screen(page, vp, "grid", "/search/tile");
        // The list before the profile: the profile's chat reads Sam's messages.
        await screen(page, vp, "conversations", "/chat/personal");
        await screen(page, vp, "profile", `/profile/${ids.Sam}`);
        await screen(page, vp, "chat", `/profile/${ids.Sam}#chat`);
        await screen(page, vp, "map", "/search/map");
        await screen(page, vp, "settings", "/settings");
        if (vp === "phone") {
          // A small phone (320 × 640), and the screens in Arabic (right to left) and Portuguese.
          await page.setViewportSize({ width: 320, height: 640 });
          await screen(page, "phone320", "home", "/");
          await screen(page, "phone320", "map", "/search/map");
          await screen(page, "phone320", "chat", `/profile/${ids.Sam}#chat`);
          await page.setViewportSize({ width: 390, height: 844 });
          const account = (await getAccountByEmail(email))!.id;
          for (const [lang, name] of [["ar", "phone-ar"], ["pt-BR", "phone-ptBR"]] as const) {
            await setLanguage(account, lang);
            await screen(page, name, "home", "/");
            await screen(page, name, "map", "/search/map");
            await screen(page, name, "chat", `/profile/${ids.Sam}#chat`);
          }
          await setLanguage(account, null);
        }
        await context.close();
        // The next viewport's member sees only their own neighbours: this one's leave the map.
        for (const id of [me, ...Object.values(ids)]) {
          await reportPosition(id, { ...PHOENIX, use: "OVERRIDE", hide: true });
        }
      }
    } finally {
      resetClock();
      await h.close();
    }
  },
});
