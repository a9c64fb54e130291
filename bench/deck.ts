/**
 * The swipe deck's page by the viewer's history: `GET /api/profile-briefs/nearest?ratedBefore=`
 * leaves out whom the viewer rated before the deck opened. The old way read the whole history
 * (every LIKE and DISLIKE) for each page; now only the candidates the index returns are asked
 * about (`ratedAmong`, point reads). Both in the same run, for viewers who rated 0, 1k, 5k and 20k
 * members, rated members drawn at random from the neighbourhood and, the worst case for the new
 * way, the nearest ones (a deck swiped from the top).
 *
 * Run: `deno run -A bench/deck.ts [--members 40000] [--pages 60]`. A temp KV file, deleted after.
 */

import { closeKv, kv, openKv } from "../kv/db.ts";
import { keys } from "../kv/keys.ts";
import { createAccount } from "../kv/accounts.ts";
import { nearest, reportPosition } from "../kv/positions/mod.ts";
import { type ListedLike, listedLikeOf, putProfileLike } from "../kv/likes.ts";
import { profileBriefs } from "../kv/briefs.ts";
import { mulberry32 as rng } from "../kv/random.ts";
import { arg, pct, placeAround } from "./kit.ts";

const MEMBERS = Number(arg("members", "40000"));
const PAGES = Number(arg("pages", "60"));
const HISTORIES = [0, 1000, 5000, 20000].filter((h) => h < MEMBERS);
const HOME = { lat: 40.7, lon: -74.0 };

/** The old way: the whole history read for each page, then the page without it. */
async function oldPage(viewer: string, before: number) {
  const rated = new Set<string>();
  for (const type of ["LIKE", "DISLIKE"] as const) {
    for await (
      const e of kv().list<ListedLike>({
        prefix: keys.profileLikesByLiker(viewer, type),
      })
    ) if (listedLikeOf(e.value).tsCreated < before) rated.add(String(e.key[4]));
  }
  // The old page: the index search without the rated ones, then their profiles (briefs).
  const page = await nearest(viewer, { size: 200, exclude: rated });
  await profileBriefs(viewer, { kind: "nearest" }, { size: 30 });
  return page;
}
const dir = await Deno.makeTempDir({ prefix: "deck-bench-" });
await openKv(`${dir}/app.kv`);
try {
  const rand = rng(11);
  const ids: string[] = [];
  for (let i = 0; i < MEMBERS; i++) {
    const a = (await createAccount({ email: `m${i}@bench.invalid`, name: `M${i}` }))!;
    ids.push(a.defaultProfileId);
  }
  await placeAround(ids, HOME, 0.6, rand);
  console.log(`${MEMBERS.toLocaleString("en-US")} members seeded`);

  const rows: string[] = [];
  for (const how of ["random", "nearest"] as const) {
    for (const history of HISTORIES) {
      const viewer = (await createAccount({ email: `v-${how}-${history}@bench.invalid` }))!.defaultProfileId;
      await reportPosition(viewer, { ...HOME, use: "OVERRIDE", hide: false });
      const order = how === "nearest"
        ? (await nearest(viewer, { size: Math.min(2000, history || 1) })).items.map((i) => i.profileId)
        : [];
      // The nearest beyond 2,000 and the random ones: from the whole neighbourhood.
      const pool = [...ids].sort(() => rand() - 0.5);
      const rated = new Set(order.slice(0, history));
      for (const id of pool) {
        if (rated.size >= history) break;
        rated.add(id);
      }
      for (const id of rated) await putProfileLike(viewer, id, rand() < 0.5 ? "LIKE" : "DISLIKE");
      const before = Date.now() + 1;
      const timeNew: number[] = [], timeOld: number[] = [];
      for (let p = 0; p < PAGES; p++) {
        let t = performance.now();
        await profileBriefs(viewer, { kind: "nearest" }, { size: 30, ratedBefore: before });
        timeNew.push(performance.now() - t);
        t = performance.now();
        await oldPage(viewer, before);
        timeOld.push(performance.now() - t);
      }
      rows.push(
        `| ${how} | ${history.toLocaleString("en-US")} | ${pct(timeOld, 0.5).toFixed(1)} ms | ${
          pct(timeNew, 0.5).toFixed(1)
        } ms | ${pct(timeNew, 0.99).toFixed(1)} ms | ${(pct(timeOld, 0.5) / pct(timeNew, 0.5)).toFixed(1)}× |`,
      );
    }
  }
  console.log(
    "\n| rated members | history | old way p50 (read it all) | new p50 (ask the candidates) | new p99 | faster |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const r of rows) console.log(r);
  const [l1, l5, l15] = Deno.loadavg();
  console.log(
    `\n${MEMBERS.toLocaleString("en-US")} members, ${PAGES} deck pages of 30 each; load average ${l1} ${l5} ${l15}`,
  );
} finally {
  closeKv();
  await Deno.remove(dir, { recursive: true });
}
