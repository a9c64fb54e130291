/**
 * Server CPU a signed-in page: the screens a member opens most (the grid, the swipe deck, home, a
 * profile, the chats, Liked You), rendered by the app (main.ts, one process, React's production
 * build) for members of a seeded city (kit.ts `seedCity`), the server's own CPU from /proc over the
 * pages answered. With `--before DIR` (another copy of the repository, its modules installed) that
 * copy's app renders the same pages for the same members on the same store in alternating rounds.
 * Each copy's islands are built first (into a temp dir: the server reads its manifest on every page).
 * The pages are asked for as current Chromium asks (`Accept-Encoding: gzip, deflate, br, zstd`).
 *
 * Run: `deno run -A bench/member_pages.ts [--before DIR] [--members 3000] [--pages 100] [--rounds 3]
 * [--record] [--name member-pages]`.
 */

import { mulberry32 as rng } from "../kv/random.ts";
import { arg, loadAverageText, processCpuMs, reportRowsBeside, type ResultRow, seedCity, startApp } from "./kit.ts";

const MEMBERS = Number(arg("members", "3000"));
const N = Number(arg("pages", "100"));
const ROUNDS = Number(arg("rounds", "3"));
const BEFORE = arg("before", "");
const NAME = arg("name", "member-pages");
const HOME = { lat: 40.7, lon: -74.0 };
const VIEWERS = 20;
/** What current Chromium and Firefox send (Safari names no zstd). */
const BROWSER_ENCODINGS = "gzip, deflate, br, zstd";

/** The islands of the checkout at `root` built into a temp dir (what BUILD_DIR names). */
async function buildOf(root: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "member-pages-build-" });
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `--config=${root}/deno.json`, `${root}/islands/build.ts`],
    cwd: root,
    env: { BUILD_DIR: dir },
    stdout: "null",
  }).output();
  if (!out.success) throw new Error(`the islands of ${root} did not build`);
  return dir;
}

if (import.meta.main) {
  const here = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
  const kvPath = await Deno.makeTempFile({ suffix: ".kv" });
  const { ids, viewers } = await seedCity(kvPath, { members: MEMBERS, viewers: VIEWERS, home: HOME, rand: rng(7) });
  const pages: [string, (i: number) => string][] = [
    ["the grid (/search/tile)", () => "/search/tile"],
    ["the swipe deck (/search/swype)", () => "/search/swype"],
    ["home (/)", () => "/"],
    ["a profile (/profile/:id)", (i) => `/profile/${ids[VIEWERS + (i % 500)]}`],
    ["the chats (/chat/personal)", () => "/chat/personal"],
    ["Liked You (/likes/profilelikedyou)", () => "/likes/profilelikedyou"],
  ];
  const copies: [string, string][] = [["this checkout", here]];
  if (BEFORE) copies.push([`before (${BEFORE})`, BEFORE.replace(/\/$/, "")]);
  const builds = new Map<string, string>();
  for (const [, root] of copies) builds.set(root, await buildOf(root));
  const perPage = new Map<string, Map<string, number[]>>();
  const loads: number[] = [Deno.loadavg()[0]];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [label, root] of round % 2 ? copies.toReversed() : copies) {
        const app = await startApp(kvPath, { BUILD_DIR: builds.get(root)! }, [], root === here ? undefined : root);
        try {
          const get = async (path: string, i: number) => {
            const res = await fetch(app.origin + path, {
              headers: {
                cookie: viewers[i % VIEWERS].cookie,
                accept: "text/html",
                "accept-encoding": BROWSER_ENCODINGS,
              },
            });
            await res.arrayBuffer();
            if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
          };
          const mine = perPage.get(label) ?? new Map<string, number[]>();
          for (const [name, path] of pages) {
            for (let i = 0; i < Math.max(10, N / 4); i++) await get(path(i), i); // warm: compiled, kept
            const before = processCpuMs(app.child.pid);
            for (let i = 0; i < N; i++) await get(path(i), i);
            mine.set(name, [...(mine.get(name) ?? []), (processCpuMs(app.child.pid) - before) * 1000 / N]);
          }
          perPage.set(label, mine);
        } finally {
          app.child.kill("SIGTERM");
          await app.child.status;
        }
        loads.push(Deno.loadavg()[0]);
        console.log(`round ${round + 1}, ${label} done (load ${loadAverageText()})`);
      }
    }
  } finally {
    await Deno.remove(kvPath).catch(() => {});
    for (const dir of builds.values()) await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[xs.length >> 1];
  const rows = (label: string): ResultRow[] =>
    [...perPage.get(label)!].map(([name, xs]) => ({
      bench: "member-pages",
      metric: `${name}, signed in: server CPU a page (${MEMBERS.toLocaleString("en-US")} members, median of ${ROUNDS})`,
      unit: "µs",
      value: Math.round(median(xs)),
      better: "lower" as const,
    }));
  for (const [label] of copies) {
    console.log(`${label}:`);
    for (const r of rows(label)) console.log(`  ${r.metric.split(",")[0]}: ${r.value} µs`);
  }
  await reportRowsBeside(NAME, rows(copies[0][0]), BEFORE ? { dir: BEFORE, rows: rows(copies[1][0]) } : null, {
    note: `bench/member_pages.ts, ${MEMBERS} members, ${N} pages a screen, ${ROUNDS} rounds`,
    load: [Math.min(...loads), Math.max(...loads)],
  });
}
