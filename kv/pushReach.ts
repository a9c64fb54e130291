/**
 * Whether a member has a device to push to, as one key per profile (`keys.pushReachable`, true
 * while the account has a push subscription), written in the atomic of every subscription that
 * comes or goes (kv/push.ts). A like that may tell its member reads it as a single key, in the
 * store call of its other reads, instead of listing the member's devices in a call of its own
 * after their profile came back (decision 0202).
 *
 * A store from before the marker has subscriptions without it: `markPushReachable` marks every
 * account with a device when the store opens, then sets `keys.pushReachableMarked` (a store with
 * no device is left unwritten); until that has run on the open handle, `pushMarked` says no and
 * readers list the devices as before.
 * This module takes the handle from its caller (kv/db.ts marks the store as it opens it).
 */

import { keys } from "./keys.ts";
import { now } from "./clock.ts";

/** The handle whose store has every device's marker (the flag was found or written on it). */
let markedOn: Deno.Kv | undefined;

/** Markers set per commit while marking a store. */
const MARK_BATCH = 100;

/**
 * Marks every account with a push device, once per store: when the flag is absent, each account
 * under `push_subscriptions` gets its profile's marker, and then the flag (none when no account has
 * a device: nothing to mark, and opening a new store writes nothing). A device removed while
 * this runs may leave a marker set with no device: a push job is then queued that finds none,
 * as when a kept answer was a few seconds old before. Returns how many profiles it marked.
 */
export async function markPushReachable(db: Deno.Kv): Promise<number> {
  const flag = await db.get<number>(keys.pushReachableMarked());
  let marked = 0;
  if (flag.versionstamp === null) {
    const accounts = new Set<string>();
    for await (const e of db.list({ prefix: keys.all("push_subscriptions") }, { batchSize: 500 })) {
      accounts.add(e.key[1] as string);
    }
    let op = db.atomic(), inOp = 0;
    for (const accountId of accounts) {
      const account = (await db.get<{ defaultProfileId: string }>(keys.account(accountId))).value;
      if (!account) continue;
      op.set(keys.pushReachable(account.defaultProfileId), true);
      marked++;
      if (++inOp === MARK_BATCH) {
        await op.commit();
        op = db.atomic();
        inOp = 0;
      }
    }
    if (inOp > 0) await op.commit();
    // Another process marking the same store at once writes the same markers; either flag stands.
    // A store without devices is left as it is (its next open lists none again, one call).
    if (accounts.size > 0) await db.atomic().check(flag).set(keys.pushReachableMarked(), now()).commit();
  }
  markedOn = db;
  return marked;
}

/** Does every device of the store behind `db` have its marker (`markPushReachable` ran on this handle)? */
export function pushMarked(db: Deno.Kv): boolean {
  return markedOn === db;
}
