/**
 * Writing many members fast, for `deno task seed` and the benches alike.
 *
 * A member's account, email index, role indexes and whole profile (its fields and picture lists)
 * go in one atomic with many other members' (`newAccountOp`, checked against each email being
 * taken), within the store's checks per atomic. Pictures are drawn and rendered ONCE into a small
 * palette (`makePalette`: each with sharp through images/pipeline.ts, master and every served
 * size, plain and blurred) kept as shareable blobs; each member's picture is its own record whose
 * blobs share the palette's bytes (kv/blobs.ts `shareBlobOp`), so a picture costs a few small
 * writes, not its bytes and a render. Positions go through the position store's bulk import (the
 * same records and change log as a reported position). Likes go through the app's own like writes,
 * many at once, so that they commit in groups (kv/groupCommit.ts).
 */

import sharp from "sharp";
import { kv, maxChecksPerAtomic } from "../kv/db.ts";
import { type Account, newAccountOp, roleCountOp } from "../kv/accounts.ts";
import { keys } from "../kv/keys.ts";
import { newId } from "../kv/ids.ts";
import { now } from "../kv/clock.ts";
import { type BlobPutMeta, keepShareableBlob, sha256HexBytes, type ShareableBlob, shareBlobOp } from "../kv/blobs.ts";
import {
  generationKinds,
  type ProfilePic,
  sourceBlobId,
  storedSizes,
  variantBlobId,
  type VariantKind,
} from "../kv/pictures.ts";
import { enqueueJob } from "../kv/jobs.ts";
import { type ImportItem, importPositions } from "../kv/positions/mod.ts";
import { createSession } from "../kv/sessions.ts";
import { decodeMaster, normalizeUpload, type Picture, renderVariant } from "../images/pipeline.ts";
import type { Profile } from "../domain/shapes/profiles.ts";

/** One picture of the palette: its master and every served size, stored once to be shared. */
export interface PalettePicture {
  width: number;
  height: number;
  master: ShareableBlob;
  /** By `variantKey(kind)`; empty in a palette made without them (`makePalette`). */
  variants: Map<string, ShareableBlob>;
}

const variantKey = (k: VariantKind) => `${k.blur ? "b" : "w"}${k.size}`;

/**
 * A generated profile picture (640 × 800, aspect 0.8): a two-colour gradient, a silhouette and
 * a label, as PNG bytes; `n` varies the colours.
 */
export async function drawPicture(label: string, hue: number, n: number): Promise<Uint8Array> {
  const h1 = (hue + n * 47) % 360, h2 = (hue + 140 + n * 23) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="800" viewBox="0 0 800 1000">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="hsl(${h1},70%,55%)"/><stop offset="1" stop-color="hsl(${h2},65%,35%)"/>
  </linearGradient></defs>
  <rect width="800" height="1000" fill="url(#g)"/>
  <circle cx="400" cy="${400 + n * 10}" r="150" fill="rgba(255,255,255,0.22)"/>
  <ellipse cx="400" cy="${900 + n * 10}" rx="300" ry="260" fill="rgba(255,255,255,0.22)"/>
  <text x="400" y="${460 + n * 10}" font-family="DejaVu Sans, sans-serif" font-size="150" font-weight="700"
    text-anchor="middle" fill="rgba(255,255,255,0.92)">${label}</text>
</svg>`;
  return new Uint8Array(await sharp(new TextEncoder().encode(svg)).png({ compressionLevel: 3 }).toBuffer());
}

/**
 * Each palette picture's bytes (its master; each served size, by `variantKey`), drawn and rendered
 * once a process: they depend on its index alone, and a process that seeds more than once (the seed
 * tests, a bench's rounds) would render the same pictures again.
 */
const masters = new Map<number, Promise<Picture>>();
const sizes = new Map<number, Promise<Map<string, Picture>>>();

/** What `make` gives for `i`, made once in `made` (a failed one is made again by the next call). */
function onceFor<T>(made: Map<number, Promise<T>>, i: number, make: () => Promise<T>): Promise<T> {
  let r = made.get(i);
  if (!r) {
    r = make();
    r.catch(() => made.delete(i));
    made.set(i, r);
  }
  return r;
}

/** Palette picture `i` drawn through the upload pipeline. */
const paletteMaster = (i: number) =>
  onceFor(
    masters,
    i,
    async () => await normalizeUpload(await drawPicture(String.fromCharCode(65 + (i % 26)), (i * 137) % 360, i)),
  );

/** Every served size of palette picture `i` (plain and blurred). */
const paletteSizes = (i: number) =>
  onceFor(sizes, i, async () => {
    const master = await paletteMaster(i);
    const decoded = await decodeMaster(master.bytes);
    const variants = new Map<string, Picture>();
    for (const size of storedSizes({ width: master.width } as Pick<ProfilePic, "width">)) {
      for (const blur of [false, true]) {
        variants.set(variantKey({ size, blur }), await renderVariant(decoded, size, { blur }));
      }
    }
    return variants;
  });

/**
 * Draws `count` pictures (different colours), each through the upload pipeline as a member's
 * upload goes, renders every served size of each (plain and blurred; once a process), and keeps
 * them as shareable blobs under `seed-palette/…`, named by the master's content (found again, not
 * stored twice, on a rerun). With `variants: false` (members written for the picture jobs to render
 * their sizes, `WriteOptions`) only the masters are made.
 */
export async function makePalette(count: number, { variants: withSizes = true } = {}): Promise<PalettePicture[]> {
  return await Promise.all(Array.from({ length: count }, async (_, i) => {
    const master = await paletteMaster(i);
    const outs = withSizes ? await paletteSizes(i) : new Map<string, Picture>();
    // Named by content: a rerun finds the same bytes again, and other bytes (another encoder) get ids of their own.
    const keepAs = async (name: string, bytes: Uint8Array, meta: BlobPutMeta) =>
      await keepShareableBlob(`seed-palette/${name}-${(await sha256HexBytes(bytes)).slice(0, 16)}`, bytes, meta);
    const variants = new Map<string, ShareableBlob>();
    for (const [key, out] of outs) {
      variants.set(
        key,
        await keepAs(`${i}/${key}`, out.bytes, { type: out.type, width: out.width, height: out.height }),
      );
    }
    return {
      width: master.width,
      height: master.height,
      master: await keepAs(`${i}/master`, master.bytes, { type: master.type, stage: "master" }),
      variants,
    };
  }));
}

/** One member to write. */
export interface MemberPlan {
  email: string;
  name: string;
  roles?: string[];
  /** Profile fields (birthdate, height, weight, description, characteristics). */
  profile?: Partial<Pick<Profile, "birthdate" | "height" | "weight" | "description" | "characteristics">>;
  /** Palette indexes of the member's pictures, in order. */
  pictures?: number[];
  /** How many of the last pictures are private. */
  privateCount?: number;
  /** Flag the last public picture NSFW. */
  nsfwPic?: boolean;
  /** Where the member is shown; none: no position. */
  position?: { lat: number; lon: number; hide: boolean };
  /** Give the member a session (its cookie comes back). */
  signIn?: boolean;
}

/** A member written. */
export interface WrittenMember {
  email: string;
  accountId: string;
  profileId: string;
  /** Public picture ids. */
  pics: string[];
  /** `sid=<token>` when the plan asked for a session. */
  cookie?: string;
}

export interface WriteOptions {
  /** Needed when any plan has pictures. */
  palette?: PalettePicture[];
  /** Store the served sizes (shared) now; otherwise the master only, and a job renders the sizes. */
  variants?: boolean;
  /** Account creation time (an established member: a time in the past); default now. */
  tsCreated?: number;
  /** What the members' sessions are labelled (their device); default "seed". */
  sessionAs?: string;
  log?: (line: string) => void;
}

/** Writes per atomic, within the store's checks (one per member) and its mutations and bytes. */
function membersPerAtomic(): number {
  return Math.min(maxChecksPerAtomic(), 25);
}

/**
 * Writes `plans` in batched atomics (members whose email is taken are skipped: a rerun), then
 * their positions in one bulk import, then their sessions. Returns the members written, in plan
 * order, and how many were skipped.
 */
export async function writeMembers(
  plans: MemberPlan[],
  o: WriteOptions = {},
): Promise<{ members: WrittenMember[]; skipped: number; pictures: number; positions: number }> {
  const log = o.log ?? (() => {});
  const members: (WrittenMember & { plan: MemberPlan })[] = [];
  let skipped = 0;
  let pictures = 0;
  const per = membersPerAtomic();
  for (let start = 0; start < plans.length; start += per) {
    let batch = plans.slice(start, start + per);
    for (let attempt = 0;; attempt++) {
      // The emails already taken (a rerun): read in tens (KV's most keys per read).
      const taken = new Set<string>();
      for (let i = 0; i < batch.length; i += 10) {
        const got = await kv().getMany<string[]>(batch.slice(i, i + 10).map((p) => keys.accountByEmail(p.email)));
        got.forEach((e, j) => e.value && taken.add(batch[i + j].email));
      }
      skipped += taken.size;
      batch = batch.filter((p) => !taken.has(p.email));
      if (!batch.length) break;
      const op = kv().atomic();
      const roleCounts = new Map<string, number>();
      const written: (WrittenMember & { plan: MemberPlan })[] = [];
      let pics = 0;
      for (const plan of batch) {
        const picIds = (plan.pictures ?? []).map(() => newId());
        const privateCount = Math.min(plan.privateCount ?? 0, picIds.length);
        const publicIds = picIds.slice(0, picIds.length - privateCount);
        const account: Account = newAccountOp(op, { email: plan.email, name: plan.name, roles: plan.roles }, {
          countRoles: false,
          tsCreated: o.tsCreated,
          profile: {
            profilename: plan.name,
            ...plan.profile,
            profilePicIds: publicIds,
            profilePicIdsPrivate: picIds.slice(publicIds.length),
          },
        });
        for (const role of account.roles) roleCounts.set(role, (roleCounts.get(role) ?? 0) + 1);
        const nsfwId = plan.nsfwPic ? publicIds.at(-1) : undefined;
        (plan.pictures ?? []).forEach((paletteIndex, i) => {
          picturesOp(op, account.defaultProfileId, picIds[i], o.palette, paletteIndex, picIds[i] === nsfwId, o);
          pics++;
        });
        written.push({
          plan,
          email: account.email,
          accountId: account.id,
          profileId: account.defaultProfileId,
          pics: publicIds,
        });
      }
      for (const [role, n] of roleCounts) roleCountOp(op, role, n);
      if ((await op.commit()).ok) {
        members.push(...written);
        pictures += pics;
        break;
      }
      // An email was taken meanwhile: read again.
      if (attempt > 8) throw new Error("seeding kept conflicting");
    }
    if (Math.floor((start + per) / 1000) !== Math.floor(start / 1000)) {
      log(`  ${members.length}/${plans.length} members`);
    }
  }
  const items: ImportItem[] = members.flatMap((m) =>
    m.plan.position ? [{ profileId: m.profileId, ...m.plan.position, use: "OVERRIDE" as const }] : []
  );
  const positions = items.length ? await importPositions(items) : 0;
  for (const m of members) {
    if (m.plan.signIn) m.cookie = `sid=${(await createSession(m.accountId, true, o.sessionAs ?? "seed")).token}`;
  }
  return { members: members.map(({ plan: _p, ...m }) => m), skipped, pictures, positions };
}

/** Adds to `op` one member's picture: its record and its blobs, sharing the palette's bytes. */
function picturesOp(
  op: Deno.AtomicOperation,
  profileId: string,
  id: string,
  palette: PalettePicture[] | undefined,
  paletteIndex: number,
  nsfw: boolean,
  o: WriteOptions,
): void {
  const from = palette?.[paletteIndex % palette.length];
  if (!from) throw new Error("a member with pictures needs a palette");
  const t = now();
  const pic: ProfilePic = {
    id,
    profileId,
    nsfw,
    gen: newId(),
    width: from.width,
    height: from.height,
    sourceWidth: from.width,
    sourceHeight: from.height,
    crop: null,
    tsCreated: t,
    tsUpdated: t,
  };
  shareBlobOp(op, sourceBlobId(id), from.master, { type: from.master.manifest.type, stage: "master" });
  if (o.variants ?? true) {
    for (const kind of generationKinds(pic)) {
      const shared = from.variants.get(variantKey(kind));
      if (!shared) throw new Error("the palette was made without its served sizes: makePalette(n, { variants: true })");
      const { width, height, type } = shared.manifest;
      shareBlobOp(op, variantBlobId(id, pic.gen, kind), shared, { type, width, height });
    }
  } else {
    // As after an upload: the job renders the served sizes (and clears `processing`).
    pic.processing = true;
    enqueueJob(op, { type: "picture-variants", picId: id, gen: pic.gen });
  }
  op.set(keys.pic(id), pic);
}
