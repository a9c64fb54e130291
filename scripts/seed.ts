/**
 * `deno task seed [--n 300] [--seed 1] [--no-variants]`: a realistic community for development
 * and benchmarks, in the KV the app uses (KV_URL, KV_PATH or ./data/app.kv). Each member gets an
 * account (email seed-<i>@seed.invalid, role SEED), a profile (name, birthdate, height, weight,
 * description, characteristics), one to four generated pictures (a gradient, a silhouette and
 * initials, drawn with sharp and sent through the upload pipeline; some private, a few NSFW),
 * a position around Phoenix or another city, and likes of profiles and pictures.
 * Running it again with the same --seed skips the members that exist. Random choices come from
 * a seeded generator, so a seed always gives the same community.
 */

import sharp from "sharp";
import { openKv } from "../kv/db.ts";
import { createAccount, getAccountByEmail } from "../kv/accounts.ts";
import { updateProfile } from "../kv/profiles.ts";
import { mulberry32 } from "../kv/random.ts";
import { addPicture, setPictureNsfw } from "../kv/pictures.ts";
import { type ImportItem, importPositions } from "../kv/positions/mod.ts";
import { putPicLike, putProfileLike } from "../kv/likes.ts";
import { CHARACTERISTIC_VALUES } from "../domain/characteristics.ts";
import { normalizeUpload } from "../images/pipeline.ts";
import { runDueJobs } from "../workers/jobs.ts";
import { handlers } from "../workers/run.ts";

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

/**
 * A generated profile picture (640 × 800, aspect 0.8): a two-colour gradient, a silhouette
 * and the initials, as PNG bytes; `n` varies the colours of one member's pictures.
 */
async function drawPicture(initials: string, hue: number, n: number): Promise<Uint8Array> {
  const h1 = (hue + n * 47) % 360, h2 = (hue + 140 + n * 23) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="800" viewBox="0 0 800 1000">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="hsl(${h1},70%,55%)"/><stop offset="1" stop-color="hsl(${h2},65%,35%)"/>
  </linearGradient></defs>
  <rect width="800" height="1000" fill="url(#g)"/>
  <circle cx="400" cy="${400 + n * 10}" r="150" fill="rgba(255,255,255,0.22)"/>
  <ellipse cx="400" cy="${900 + n * 10}" rx="300" ry="260" fill="rgba(255,255,255,0.22)"/>
  <text x="400" y="${460 + n * 10}" font-family="DejaVu Sans, sans-serif" font-size="150" font-weight="700"
    text-anchor="middle" fill="rgba(255,255,255,0.92)">${initials}</text>
  <text x="760" y="960" font-family="DejaVu Sans, sans-serif" font-size="44" text-anchor="end"
    fill="rgba(255,255,255,0.7)">${n + 1}</text>
</svg>`;
  return new Uint8Array(await sharp(new TextEncoder().encode(svg)).png({ compressionLevel: 3 }).toBuffer());
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

interface Seeded {
  email: string;
  profileId: string;
  pics: string[];
}

/** Members made at the same time: sharp works on other threads while KV commits wait. */
const CONCURRENCY = 4;

/** Creates the community; see the module comment. */
export async function seed(opts: SeedOptions): Promise<SeedResult> {
  const t0 = performance.now();
  const log = opts.log ?? (() => {});
  const r = rng(opts.seed);
  const today = new Date();
  const members: Seeded[] = [];
  const positions: ImportItem[] = [];
  let skipped = 0;
  let pictures = 0;
  // Every random choice is drawn first, in order, so a seed always gives the same community
  // whatever the concurrency below.
  const plans = Array.from({ length: opts.n }, (_, i) => {
    const first = r.pick(FIRST);
    const name = `${first} ${r.pick([...LAST_INITIALS])}.`;
    const picCount = r.chance(0.05) ? 0 : r.int(1, 4);
    const city = pickCity(r);
    const spread = city.name === "Phoenix" ? 0.25 : 0.12;
    return {
      email: `seed-${opts.seed}-${i}@seed.invalid`,
      name,
      initials: name.split(" ").map((w) => w[0]).join(""),
      hue: r.int(0, 359),
      picCount,
      privateCount: picCount > 1 && r.chance(0.25) ? 1 : 0,
      nsfwPic: picCount > 0 && r.chance(0.06),
      profile: {
        profilename: name,
        birthdate: birthdate(r, today),
        height: height(r),
        weight: weight(r),
        description: description(r),
        characteristics: characteristics(r),
      },
      lat: city.lat + (r.next() - 0.5) * 2 * spread,
      lon: city.lon + (r.next() - 0.5) * 2 * spread,
      hide: r.chance(0.04),
    };
  });

  let done = 0;
  async function make(plan: (typeof plans)[number]): Promise<void> {
    if (await getAccountByEmail(plan.email)) {
      skipped++;
      return;
    }
    const account = await createAccount({ email: plan.email, name: plan.name, roles: ["USER", "SEED"] });
    if (!account) throw new Error(`could not create ${plan.email}`);
    const profileId = account.defaultProfileId;
    const res = await updateProfile(profileId, plan.profile);
    if (!res.ok) throw new Error(`profile ${profileId}: ${res.reason}`);
    const pics: string[] = [];
    for (let p = 0; p < plan.picCount; p++) {
      // Through the upload pipeline, as a member's upload would go.
      const master = await normalizeUpload(await drawPicture(plan.initials, plan.hue, p));
      const added = await addPicture(profileId, master);
      if (!added.ok) throw new Error(`picture of ${profileId}: ${added.reason}`);
      pics.push(added.pic.id);
      pictures++;
    }
    const publicIds = pics.slice(0, pics.length - plan.privateCount);
    if (plan.privateCount) {
      const moved = await updateProfile(profileId, { profilePicIds: publicIds, profilePicIdsPrivate: pics.slice(-1) });
      if (!moved.ok) throw new Error(`private picture of ${profileId}: ${moved.reason}`);
    }
    if (plan.nsfwPic && publicIds.length) await setPictureNsfw(profileId, publicIds[publicIds.length - 1], true);
    members.push({ email: plan.email, profileId, pics: publicIds });
    positions.push({ profileId, lat: plan.lat, lon: plan.lon, use: "OVERRIDE", hide: plan.hide });
    if (++done % 25 === 0) log(`  ${done}/${opts.n} members`);
  }
  let nextPlan = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (nextPlan < plans.length) await make(plans[nextPlan++]);
  }));
  // Concurrency finishes members out of order: likes below follow the plan order.
  const order = new Map(plans.map((p, i) => [p.email, i]));
  members.sort((a, b) => (order.get(a.email) ?? 0) - (order.get(b.email) ?? 0));

  const placed = positions.length ? await importPositions(positions) : 0;

  // Likes: each member likes a few others and some of their public pictures, and passes on some.
  let likes = 0;
  let picLikes = 0;
  for (const m of members) {
    const others = r.sample(members.filter((o) => o !== m), Math.min(members.length - 1, r.int(2, 10)));
    for (const o of others) {
      const type = r.chance(0.8) ? "LIKE" : "DISLIKE";
      if ((await putProfileLike(m.profileId, o.profileId, type)).changed) likes++;
      if (type === "LIKE" && o.pics.length && r.chance(0.5)) {
        const pic = r.pick(o.pics);
        if ((await putPicLike(m.profileId, o.profileId, pic, "LIKE")).changed) picLikes++;
      }
    }
  }

  let variantJobs = 0;
  if (opts.variants) {
    log(`  rendering the served sizes of ${pictures} pictures...`);
    variantJobs = await runDueJobs(handlers);
  }
  return {
    members: members.length,
    skipped,
    pictures,
    positions: placed,
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
      `${res.variantJobs} jobs run`,
  );
  Deno.exit(0);
}
