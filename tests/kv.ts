/** Unit-test kit for kv/ modules: a test on a fresh `:memory:` KV, closed and the clock reset after. */

import { closeKv, kv, openKv } from "../kv/db.ts";
import { keys } from "../kv/keys.ts";
import { LIKE_TYPES, type LikeType } from "../domain/shapes/likes.ts";
import { resetClock } from "../kv/clock.ts";
import { testKvLocation } from "./remoteKv.ts";

/** `Deno.test` with its own `:memory:` KV (with `TEST_KV=remote`, its own remote one: tests/remoteKv.ts). */
export function kvTest(name: string, fn: () => Promise<void>): void {
  Deno.test(name, async () => {
    await openKv(await testKvLocation());
    try {
      await fn();
    } finally {
      resetClock();
      closeKv();
    }
  });
}

/** Runs `fn` on a KV file path in a new directory; closes the app's handle and removes the directory after. */
export async function inNewKvDir(fn: (path: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await fn(`${dir}/app.kv`);
  } finally {
    closeKv();
    await Deno.remove(dir, { recursive: true });
  }
}

/** How many likes of each type a profile received, counted in its received index (what its lists read). */
export async function receivedLikeCounts(profileId: string): Promise<Record<LikeType, number>> {
  const out = {} as Record<LikeType, number>;
  for (const type of LIKE_TYPES) {
    out[type] = 0;
    for await (const _ of kv().list({ prefix: keys.profileLikesByLiked(profileId, type) })) out[type]++;
  }
  return out;
}

/** How many likes of each type a picture has, counted in the stored picture likes. */
export async function picLikeTally(picId: string): Promise<Record<LikeType, number>> {
  const out = { LIKE: 0, DISLIKE: 0, UNDETERMINED: 0 } as Record<LikeType, number>;
  for await (const e of kv().list<{ profilePicId: string; likeType: LikeType }>({ prefix: ["pic_likes"] })) {
    if (e.value.profilePicId === picId) out[e.value.likeType]++;
  }
  return out;
}

/** What `countingCommits` counts. */
export interface CommitCounts {
  /** Atomics committed, and those that failed a check. */
  all: number;
  failed: number;
  /** Over every commit: the checks, the sets, the deletes, and the bytes of the values set as bytes. */
  checks: number;
  sets: number;
  deletes: number;
  byteValues: number;
}

/**
 * `db` with its commits counted, and what they held (`CommitCounts`); every other call goes to
 * `db` as it is.
 */
export function countingCommits(db: Deno.Kv): { db: Deno.Kv; commits: CommitCounts } {
  const commits: CommitCounts = { all: 0, failed: 0, checks: 0, sets: 0, deletes: 0, byteValues: 0 };
  const proxy = new Proxy(db, {
    get(target, name) {
      if (name === "atomic") {
        return () => {
          const op = target.atomic();
          const commit = op.commit.bind(op), check = op.check.bind(op), set = op.set.bind(op);
          const del = op.delete.bind(op);
          op.check = (...checks) => {
            commits.checks += checks.length;
            return check(...checks);
          };
          op.set = (key, value, options) => {
            commits.sets++;
            if (value instanceof Uint8Array) commits.byteValues += value.length;
            return set(key, value, options);
          };
          op.delete = (key) => {
            commits.deletes++;
            return del(key);
          };
          op.commit = async () => {
            const r = await commit();
            commits.all++;
            if (!r.ok) commits.failed++;
            return r;
          };
          return op;
        };
      }
      const v = Reflect.get(target, name);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return { db: proxy, commits };
}

/** Counts the atomics committed on the app's handle (`kv()`) while `fn` runs. */
export async function commitsWhile<T>(fn: () => Promise<T>): Promise<{ result: T; commits: number }> {
  const counter = countCommits();
  try {
    return { result: await fn(), commits: counter.count() };
  } finally {
    counter.stop();
  }
}

/** Counts the commits made through the open handle from now on: `count()` at any moment, `stop()` to end. */
export function countCommits(): { count(): number; stop(): void } {
  const db = kv();
  const atomic = db.atomic.bind(db);
  let commits = 0;
  db.atomic = () => {
    const op = atomic();
    const commit = op.commit.bind(op);
    op.commit = () => (commits++, commit());
    return op;
  };
  return { count: () => commits, stop: () => void (db.atomic = atomic) };
}
