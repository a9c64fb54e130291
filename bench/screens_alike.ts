/**
 * Whether switches of the tests' browser leave the screens drawn alike, pixel for pixel: the home,
 * grid, map, a profile, its chat and the conversations, on a phone, light and dark, in English and
 * Arabic, each shot in a browser launched with the harness's switches (tests/e2e/browserServer.ts)
 * and, beside it at the same moment over the same app and store, in one launched with each set of
 * extra switches given, then compared channel by channel (a pair that differs is shot once more).
 * The harness's switches are also shot against themselves: what differs there differs from load to
 * load, not by switch. Two runs of tests/e2e/screens_test.ts cannot be compared so: their headers'
 * tagline changes every minute and the members around are ordered by when each was seen.
 *
 * Run: `deno run -A bench/screens_alike.ts --sets '{"in-process-gpu":["--in-process-gpu"]}' [--out DIR]`.
 * Prints a line a screen and set (`same`, or how many pixels differ and where; those screens are
 * saved to DIR, default $TMPDIR) and exits non-zero when one differs with a set proposed.
 */

import { type Browser, chromium } from "playwright-core";
import sharp from "sharp";
import { serveTiles } from "../tests/fixtures/tiles.ts";
import { arg } from "./kit.ts";
import { settledPaint, startHarness, VIEWPORTS, waitHydrated } from "../tests/e2e/harness.ts";
import { CHROMIUM_FLAGS, chromiumPath } from "../tests/e2e/browserServer.ts";
import { seedWalker } from "../tests/e2e/everyPage.ts";

/** The control: the harness's switches shot against themselves. */
const AGAIN = "harness again";
const SETS: Record<string, string[]> = { [AGAIN]: [], ...JSON.parse(arg("sets", "{}")) };
const OUT = arg("out", Deno.makeTempDirSync({ prefix: "screens-alike-" }));

/** How `a` and `b` (PNG) differ: null when alike, else how many pixels differ and where. */
export async function difference(a: Uint8Array, b: Uint8Array): Promise<string | null> {
  const raw = (png: Uint8Array) => sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const [pa, pb] = await Promise.all([raw(a), raw(b)]);
  if (pa.info.width !== pb.info.width || pa.info.height !== pb.info.height) {
    return `size ${pa.info.width}×${pa.info.height} against ${pb.info.width}×${pb.info.height}`;
  }
  const width = pa.info.width;
  let n = 0, x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
  for (let p = 0; p < pa.data.length / 4; p++) {
    const i = p * 4;
    if (pa.data.readUInt32LE(i) === pb.data.readUInt32LE(i)) continue;
    const x = p % width, y = Math.floor(p / width);
    n++;
    x0 = Math.min(x0, x), y0 = Math.min(y0, y), x1 = Math.max(x1, x), y1 = Math.max(y1, y);
  }
  return n ? `${n} pixels differ, within x ${x0}–${x1}, y ${y0}–${y1}` : null;
}

if (import.meta.main) {
  Deno.mkdirSync(OUT, { recursive: true });
  // The map's imagery from a local server: every tile the same plain PNG.
  const tiles = await serveTiles();
  const h = await startHarness({ ownBrowser: true, limitMs: 3_600_000 });
  const browsers: [string, Browser][] = [];
  // Screens that differ with a set of switches proposed, and with the harness's against themselves.
  let unlike = 0, unlikeAgain = 0;
  try {
    const walker = await seedWalker(h, "alike@example.com");
    const screens: Record<string, string> = {
      home: "/",
      grid: "/search/tile",
      map: "/search/map",
      profile: `/profile/${walker.neighbour}`,
      chat: `/profile/${walker.neighbour}#chat`,
      conversations: "/chat/personal",
    };
    for (const [name, extra] of [["harness", []], ...Object.entries(SETS)] as [string, string[]][]) {
      browsers.push([
        name,
        await chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_FLAGS, ...extra] }),
      ]);
    }
    for (const locale of ["en-US", "ar"]) {
      for (const colorScheme of ["light", "dark"] as const) {
        for (const [screen, path] of Object.entries(screens)) {
          // The same screen in every browser, one after another, over the same store.
          const shoot = async (browser: Browser) => {
            const context = await browser.newContext({
              viewport: VIEWPORTS.phone,
              isMobile: true,
              hasTouch: true,
              baseURL: h.origin,
              serviceWorkers: "block",
              colorScheme,
              locale,
            });
            await context.addCookies(walker.session);
            const page = await context.newPage();
            await page.goto(path);
            await waitHydrated(page);
            if (screen === "map") await page.locator(".leaflet-marker-icon").first().waitFor();
            await page.waitForFunction(() =>
              [...document.images].filter((i) => i.getBoundingClientRect().top < innerHeight).every((i) => i.complete)
            );
            await settledPaint(page);
            const png = await page.screenshot();
            await context.close();
            return png;
          };
          const label = `${screen}-${locale}-${colorScheme}`;
          for (let i = 1; i < browsers.length; i++) {
            // A screen that differs is shot again in both: a text caret's blink or a minute's turn
            // (the header's tagline, "now" becoming "1 min") differs between two loads, not by switch.
            let said: string | null = "";
            let pair: Uint8Array[] = [];
            for (let attempt = 0; attempt < 2 && said !== null; attempt++) {
              pair = [await shoot(browsers[0][1]), await shoot(browsers[i][1])];
              said = await difference(pair[0], pair[1]);
            }
            if (said) {
              if (browsers[i][0] === AGAIN) unlikeAgain++;
              else unlike++;
              await Deno.writeFile(`${OUT}/${label}-harness.png`, pair[0]);
              await Deno.writeFile(`${OUT}/${label}-${browsers[i][0].replace(/\W+/g, "-")}.png`, pair[1]);
            }
            console.log(`${label}, ${browsers[i][0]}: ${said ?? "same"}`);
          }
        }
      }
    }
  } finally {
    for (const [, browser] of browsers) await browser.close();
    await h.close();
    await tiles.shutdown();
  }
  console.log(
    `${unlike} screens differ with the switches proposed, ${unlikeAgain} with the harness's against themselves` +
      (unlike + unlikeAgain ? ` (saved to ${OUT})` : ""),
  );
  if (unlike) Deno.exit(1);
}
