/**
 * Tap on a tile → the profile's photo visible, phone with 4× CPU throttling, p75 in ms: the app's
 * grid and profiles (12 members around, as the e2e budget test seeds them) beside a peer, the floor
 * of any cross-document tap on this machine: a bare two-page site with the same pictures and the
 * same speculation rules, no script and no style beyond the picture's box. Rounds alternate app and
 * peer in one browser tab driven through its tab target (tests/e2e/tapToPhoto.ts), so Chromium
 * prefetches and prerenders as it does for a member.
 *
 * Run: `deno run -A bench/tap.ts [--taps 8] [--rounds 3] [--look 1500] [--record]`.
 */

import sharp from "sharp";
import { arg, reportRows } from "./kit.ts";
import { startHarness } from "../tests/e2e/harness.ts";
import { describeTaps, measureTaps, openPhoneTab, p75, seedNearby, type Taps } from "../tests/e2e/tapToPhoto.ts";
import { portrait } from "../tests/fixtures/pictures.ts";
import { createLoginToken } from "../kv/accounts.ts";
import { SPECULATION_RULES } from "../routes/speculation.ts";

const TAPS = Number(arg("taps", "8"));
const ROUNDS = Number(arg("rounds", "3"));
const LOOK_MS = Number(arg("look", "1500"));
const GOAL_MS = 200;

/** The peer: /grid with 12 tiles linking to /profile/<n>, each a page of one picture. */
async function startPeer() {
  const tiles: Uint8Array<ArrayBuffer>[] = [], photos: Uint8Array<ArrayBuffer>[] = [];
  for (let i = 0; i < 12; i++) {
    const source = await portrait(i);
    tiles.push(new Uint8Array(await sharp(source).resize(256, 320).webp().toBuffer()));
    photos.push(new Uint8Array(await sharp(source).resize(800, 1000).webp().toBuffer()));
  }
  const page = (body: string) =>
    new Response(
      `<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<style>body{margin:0}.grid{display:grid;grid-template-columns:repeat(3,1fr);gap:3px}` +
        `.tile img,.photo{display:block;width:100%;aspect-ratio:4/5;object-fit:cover}</style></head>` +
        `<body>${body}</body></html>`,
      { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } },
    );
  const picture = (bytes: Uint8Array<ArrayBuffer>) =>
    new Response(bytes, { headers: { "content-type": "image/webp", "cache-control": "max-age=31536000" } });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    const n = Number(path.split("/").pop());
    if (path === "/grid") {
      return page(
        `<div class="grid">${
          tiles.map((_, i) => `<a class="tile" href="/profile/${i}"><img src="/tile/${i}" alt=""></a>`).join("")
        }</div><script type="speculationrules">${SPECULATION_RULES}</script>`,
      );
    }
    if (path.startsWith("/profile/")) {
      return page(`<img class="photo" elementtiming="profile-photo" fetchpriority="high" src="/photo/${n}" alt="">`);
    }
    if (path.startsWith("/tile/")) return picture(tiles[n]);
    if (path.startsWith("/photo/")) return picture(photos[n]);
    return new Response("not found", { status: 404 });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

const h = await startHarness({ limitMs: 60 * 60_000 });
const peer = await startPeer();
const tab = await openPhoneTab();
const loads: number[] = [];
const all = { app: { times: [], ways: [] } as Taps, peer: { times: [], ways: [] } as Taps };
try {
  const s = await seedNearby();
  await tab.navigate(`${h.origin}/login#token=${await createLoginToken(s.viewer.id)}`);
  await tab.waitFor(`location.pathname === "/"`);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, url] of [["app", `${h.origin}/search/tile`], ["peer", `${peer.origin}/grid`]] as const) {
      loads.push(Deno.loadavg()[0]);
      const taps = await measureTaps(tab, url, TAPS, LOOK_MS);
      console.log(`round ${round} ${name}: ${describeTaps(taps)} (load ${Deno.loadavg()[0].toFixed(2)})`);
      all[name].times.push(...taps.times);
      all[name].ways.push(...taps.ways);
    }
  }
} finally {
  await tab.close();
  await peer.close();
  await h.close();
}

const app = p75(all.app.times), bare = p75(all.peer.times);
const ways = (t: Taps) =>
  Object.entries(Object.groupBy(t.ways, (w) => w)).map(([w, xs]) => `${xs!.length} ${w}`).join(", ");
console.log(
  `\ntap → photo p75: app ${app.toFixed(0)} ms (${ways(all.app)}), bare two-page site ${bare.toFixed(0)} ms (${
    ways(all.peer)
  }); goal ${GOAL_MS} ms; ${ROUNDS}×${TAPS} taps each; load ${Math.min(...loads).toFixed(2)}–${
    Math.max(...loads).toFixed(2)
  } on ${navigator.hardwareConcurrency} cores`,
);
await reportRows("tap", [{
  bench: "tap",
  metric: "tap on a tile → the profile's photo visible, p75 (phone, 4× CPU throttling)",
  unit: "ms",
  value: Math.round(app),
  peer: "a bare two-page site (one picture, no script)",
  peerValue: Math.round(bare),
  goal: GOAL_MS,
  better: "lower",
}], {
  note: `deno run -A bench/tap.ts: ${ROUNDS} rounds of ${TAPS} taps, app and peer alternating`,
  load: [Math.min(...loads), Math.max(...loads)],
});
Deno.exit(0);
