/**
 * `deno task seed [--n 300] [--seed 1] [--no-variants]`: a realistic community for development
 * and benchmarks, in the KV the app uses (KV_URL, KV_PATH or ./data/app.kv). Each member gets an
 * account (email seed-<seed>-<i>@seed.invalid, role SEED), a profile (name, birthdate, height,
 * weight, description, characteristics), one to four generated pictures (a gradient, a silhouette
 * and a letter; some private, a few NSFW) with every served size, a position around Phoenix or
 * another city, and likes of profiles and pictures. The pictures are a palette drawn once with
 * sharp through the upload pipeline and shared by reference (scripts/seeding.ts); members are
 * written many to an atomic, so 10,000 members take well under a minute. With --no-variants the
 * served sizes are left to the worker's jobs, as after an upload. Running it again with the same
 * --seed skips the members that exist. Random choices come from a seeded generator, so a seed
 * always gives the same community.
 */

import { openKv } from "../kv/db.ts";
import { mulberry32 } from "../kv/random.ts";
import { type ImportedLike, importLikes } from "../kv/likes.ts";
import { CHARACTERISTIC_VALUES } from "../domain/characteristics.ts";
import { runDueJobs } from "../workers/jobs.ts";
import { handlers } from "../workers/run.ts";
import { makePalette, type MemberPlan, writeMembers } from "./seeding.ts";

/** A small seeded generator (mulberry32): the same seed, the same community. */
export function rng(seed: number) {
  const next = mulberry32(seed);
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)],
    chance: (p: number) => next() < p,
    /** `k` distinct items of `list`. */
    sample: <T>(list: readonly T[], k: number): T[] => {
      const copy = [...list];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j], copy[i]];
      }
      return copy.slice(0, k);
    },
  };
}

type Rng = ReturnType<typeof rng>;

const FIRST = [
  "Alex",
  "Sam",
  "Jordan",
  "Robin",
  "Casey",
  "Drew",
  "Jamie",
  "Kai",
  "Lee",
  "Morgan",
  "Noa",
  "Quinn",
  "Riley",
  "Avery",
  "Rowan",
  "Sage",
  "Eli",
  "Mateo",
  "Diego",
  "Luis",
  "Andre",
  "Marcus",
  "Tyrone",
  "Jamal",
  "Wei",
  "Hiro",
  "Arjun",
  "Ravi",
  "Omar",
  "Yusuf",
  "Tomas",
  "Lukas",
  "Finn",
  "Oscar",
  "Leo",
  "Theo",
  "Hugo",
  "Nico",
  "Milo",
  "Ana",
  "Maya",
  "Lena",
  "Sofia",
  "Carmen",
  "Rosa",
  "Nadia",
  "Leila",
  "Mei",
  "Yuki",
  "Priya",
  "Zara",
  "Ines",
  "Frida",
  "Greta",
  "Ingrid",
  "Maren",
  "Tess",
  "Jo",
  "Billie",
  "Frankie",
  "Charlie",
  "Dani",
  "Ash",
  "Remy",
];
const LAST_INITIALS = "ABCDEFGHJKLMNOPRSTVWZ";
const OPENERS = [
  "Coffee first, then adventures.",
  "New in town and looking to meet people.",
  "Weekend hiker, weekday spreadsheet wrangler.",
  "Nurse on night shifts, so I reply at odd hours.",
  "Teacher by day, terrible karaoke singer by night.",
  "I bake bread and fix bikes, not at the same time.",
  "Desert sunsets are my thing.",
  "Gym, books, and too many houseplants.",
  "Dog parent. The dog is the real catch.",
  "Just moved here for work, show me around?",
];
const MIDDLES = [
  "Into live music, board games and long walks that end at a taco stand.",
  "Looking for friends, dates, and someone to split dessert with.",
  "I am into art museums, road trips and cooking for people I like.",
  "Honest, direct, and easy to talk to. Ask me about my terrible puns.",
  "Training for a half marathon and always up for brunch afterwards.",
  "I like quiet nights in as much as a good night out.",
  "Big on consent, kindness and good communication.",
  "Learning Spanish, ask me how it is going (slowly).",
];
const CLOSERS = [
  "Say hi with your favourite song.",
  "No pic, no chat, sorry.",
  "Tell me the best place to eat around here.",
  "Bonus points if you can beat me at Mario Kart.",
  "Let's grab a coffee and see.",
  "",
];

/** Cities members live around, weighted: most around Phoenix (the spec's first default city). */
const CITIES: { name: string; lat: number; lon: number; weight: number }[] = [
  { name: "Phoenix", lat: 33.4484, lon: -112.074, weight: 55 },
  { name: "Tucson", lat: 32.2226, lon: -110.9747, weight: 10 },
  { name: "Los Angeles", lat: 34.0522, lon: -118.2437, weight: 10 },
  { name: "San Francisco", lat: 37.7749, lon: -122.4194, weight: 8 },
  { name: "Denver", lat: 39.7392, lon: -104.9903, weight: 7 },
  { name: "Chicago", lat: 41.8781, lon: -87.6298, weight: 5 },
  { name: "New York", lat: 40.7128, lon: -74.006, weight: 5 },
];

function pickCity(r: Rng) {
  let x = r.next() * CITIES.reduce((s, c) => s + c.weight, 0);
  for (const c of CITIES) if ((x -= c.weight) < 0) return c;
  return CITIES[0];
}

/** A birthdate for an age between 18 and 70, most between 22 and 45. */
function birthdate(r: Rng, today: Date): string {
  const age = r.chance(0.75) ? r.int(22, 45) : r.int(18, 70);
  const d = new Date(Date.UTC(today.getUTCFullYear() - age, r.int(0, 11), r.int(1, 28)));
  if (d > new Date(Date.UTC(today.getUTCFullYear() - age, today.getUTCMonth(), today.getUTCDate()))) {
    d.setUTCFullYear(d.getUTCFullYear() - 1);
  }
  return d.toISOString().slice(0, 10);
}

function height(r: Rng): string {
  if (r.chance(0.6)) return `${r.int(5, 6)}'${r.int(0, 11)}"`;
  return `${r.int(155, 198)} cm`;
}

function weight(r: Rng): string {
  return r.chance(0.6) ? `${r.int(110, 260)} lb` : `${r.int(50, 118)} kg`;
}

function description(r: Rng): string {
  if (r.chance(0.08)) return "";
  const parts = [r.pick(OPENERS), r.pick(MIDDLES)];
  if (r.chance(0.4)) parts.push(r.pick(MIDDLES));
  parts.push(r.pick(CLOSERS));
  return parts.filter(Boolean).join(r.chance(0.5) ? " " : "\n\n");
}

function characteristics(r: Rng): string[] {
  if (r.chance(0.1)) return []; // 'i'm so boring'
  return r.sample([...CHARACTERISTIC_VALUES], r.int(2, 9));
}

export interface SeedOptions {
  n: number;
  seed: number;
  variants: boolean;
  log?: (line: string) => void;
}

export interface SeedResult {
  members: number;
  skipped: number;
  pictures: number;
  positions: number;
  likes: number;
  picLikes: number;
  variantJobs: number;
  ms: number;
}

/** Pictures drawn once and shared by every member's pictures. */
export const PALETTE_SIZE = 8;

/** Creates the community; see the module comment. */
export async function seed(opts: SeedOptions): Promise<SeedResult> {
  const t0 = performance.now();
  const log = opts.log ?? (() => {});
  const r = rng(opts.seed);
  const today = new Date();
  // Every random choice is drawn first, in order, so a seed always gives the same community.
  const plans: MemberPlan[] = Array.from({ length: opts.n }, (_, i) => {
    const first = r.pick(FIRST);
    const name = `${first} ${r.pick([...LAST_INITIALS])}.`;
    const picCount = r.chance(0.05) ? 0 : r.int(1, 4);
    const city = pickCity(r);
    const spread = city.name === "Phoenix" ? 0.25 : 0.12;
    const hue = r.int(0, 359);
    const privateCount = picCount > 1 && r.chance(0.25) ? 1 : 0;
    const nsfwPic = picCount > 0 && r.chance(0.06);
    const profile = {
      birthdate: birthdate(r, today),
      height: height(r),
      weight: weight(r),
      description: description(r),
      characteristics: characteristics(r),
    };
    const lat = city.lat + (r.next() - 0.5) * 2 * spread;
    const lon = city.lon + (r.next() - 0.5) * 2 * spread;
    const first0 = Math.floor(hue / 360 * PALETTE_SIZE);
    return {
      email: `seed-${opts.seed}-${i}@seed.invalid`,
      name,
      roles: ["USER", "SEED"],
      profile,
      pictures: Array.from({ length: picCount }, (_, p) => (first0 + p) % PALETTE_SIZE),
      privateCount,
      nsfwPic: nsfwPic && picCount > privateCount,
      position: { lat, lon, hide: r.chance(0.04) },
    };
  });

  const tp = performance.now();
  // Without the served sizes (--no-variants) the picture jobs render them: the palette's would go unused.
  const palette = plans.some((p) => p.pictures?.length)
    ? await makePalette(PALETTE_SIZE, { variants: opts.variants })
    : [];
  log(`  ${palette.length} pictures drawn and rendered in ${((performance.now() - tp) / 1000).toFixed(1)} s`);
  const written = await writeMembers(plans, { palette, variants: opts.variants, log });
  const members = written.members;
  log(`  ${members.length} members written in ${((performance.now() - tp) / 1000).toFixed(1)} s`);
  const tl = performance.now();

  // Likes: each member likes a few others and some of their public pictures, and passes on some.
  // Chosen in order first (the same seed, the same likes), then written many to an atomic.
  const chosen: ImportedLike[] = [];
  members.forEach((m, self) => {
    // A few others drawn at random (not a shuffle of everyone: that is quadratic in members).
    const k = Math.min(members.length - 1, r.int(2, 10));
    const picked = new Set<number>();
    while (picked.size < k) {
      const j = Math.floor(r.next() * members.length);
      if (j !== self) picked.add(j);
    }
    for (const o of [...picked].map((j) => members[j])) {
      const likeType = r.chance(0.8) ? "LIKE" : "DISLIKE";
      chosen.push({ liker: m.profileId, liked: o.profileId, likeType });
      if (likeType === "LIKE" && o.pics.length && r.chance(0.5)) {
        chosen.push({ liker: m.profileId, liked: o.profileId, likeType: "LIKE", picId: r.pick(o.pics) });
      }
    }
  });
  const { profile: likes, pic: picLikes } = await importLikes(chosen);
  log(`  ${likes + picLikes} likes written in ${((performance.now() - tl) / 1000).toFixed(1)} s`);
  let variantJobs = 0;
  if (opts.variants) {
    // Nothing is left for the picture jobs (the sizes are shared); jobs queued before still run.
    variantJobs = await runDueJobs(handlers);
  }
  return {
    members: members.length,
    skipped: written.skipped,
    pictures: written.pictures,
    positions: written.positions,
    likes,
    picLikes,
    variantJobs,
    ms: performance.now() - t0,
  };
}

if (import.meta.main) {
  const arg = (name: string) => {
    const i = Deno.args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    if (i < 0) return undefined;
    return Deno.args[i].includes("=") ? Deno.args[i].split("=")[1] : Deno.args[i + 1];
  };
  const n = Number(arg("n") ?? 300);
  const seedNo = Number(arg("seed") ?? 1);
  const variants = !Deno.args.includes("--no-variants");
  if (!Number.isInteger(n) || n < 1 || n > 100_000) throw new Error("--n must be a whole number from 1 to 100000");
  if (!Number.isInteger(seedNo)) throw new Error("--seed must be a whole number");
  await openKv();
  console.log(`seeding ${n} members (seed ${seedNo})...`);
  const res = await seed({ n, seed: seedNo, variants, log: console.log });
  console.log(
    `done in ${(res.ms / 1000).toFixed(1)} s: ${res.members} members (${res.skipped} already there), ` +
      `${res.pictures} pictures, ${res.positions} positions, ${res.likes} profile likes, ${res.picLikes} picture likes, ` +
      `${res.variantJobs} jobs run (load average ${Deno.loadavg().map((l) => l.toFixed(2)).join(" ")})`,
  );
  Deno.exit(0);
}
