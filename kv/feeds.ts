/**
 * The live feeds open on every instance (routes/memberFeed.ts), so that a member's and an
 * address's caps hold across instances, not per process. Each open feed holds a lease row under
 * its member and one under its address's hash (the address itself is never stored), renewed while
 * it is open (`renewFeedLeases`, every `FEED_RENEW_MS`) and valid `FEED_LEASE_MS` after the last
 * renewal: an instance that dies leaves its feeds counted that long at most.
 *
 * The count is read when a feed opens, never on the feed's own path: a bounded list of the
 * member's rows and of the address's rows. A member past the cap loses their oldest feeds, on
 * whichever instance holds them (the `feeds-ended` event on the change log ends them there); an
 * address at its cap is refused.
 */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { newId, sha256Hex } from "./ids.ts";
import { now } from "./clock.ts";
import { addEvent, eventBus } from "./events.ts";

/** How long a feed's lease holds after its last renewal (an instance that died: its feeds count this long). */
export const FEED_LEASE_MS = 75_000;
/** How often an instance renews the leases of its open feeds. */
export const FEED_RENEW_MS = 25_000;

/** The change log's recipient of replaced feeds: no member id, so no page ever receives it. */
const FEEDS_CHANNEL = "#feeds";

/** A feed's lease: which member, which address (hashed), since when, valid until when. */
export interface FeedLease {
  id: string;
  profileId: string;
  addressHash: string;
  opened: number;
  until: number;
}

/** A new feed's lease, and the member's older feeds it replaced (now ended on their instances). */
export interface FeedReservation {
  lease: FeedLease;
  replaced: string[];
}

/** The hash an address's rows are kept under. */
function addressHash(address: string): Promise<string> {
  return sha256Hex(`feed-address\0${address}`).then((h) => h.slice(0, 32));
}

/** The leases under `prefix` that still hold, at most `limit` rows read; rows that ran out are removed. */
async function liveLeases(prefix: Deno.KvKey, limit: number): Promise<FeedLease[]> {
  const t = now();
  const live: FeedLease[] = [];
  const stale: Deno.KvKey[] = [];
  for await (const e of kv().list<FeedLease>({ prefix }, { limit })) {
    if (e.value.until > t) live.push(e.value);
    else stale.push(e.key);
  }
  if (stale.length) {
    const op = kv().atomic();
    for (const k of stale.slice(0, 500)) op.delete(k);
    await op.commit().catch(() => {});
  }
  return live;
}

function setLease(op: Deno.AtomicOperation, lease: FeedLease): void {
  const expireIn = lease.until - now() + 1_000;
  op.set(keys.feedOfMember(lease.profileId, lease.id), lease, { expireIn })
    .set(keys.feedAtAddress(lease.addressHash, lease.id), lease, { expireIn });
}

function deleteLease(op: Deno.AtomicOperation, lease: FeedLease): void {
  op.delete(keys.feedOfMember(lease.profileId, lease.id)).delete(keys.feedAtAddress(lease.addressHash, lease.id));
}

/**
 * Reserves a new feed for `profileId` at `address`, counting every instance's: null when the
 * address holds `perAddress` feeds already (refused). When the member holds `perMember`, their
 * oldest feeds are replaced: their rows go, and the `feeds-ended` event ends them where they are.
 */
export async function reserveFeed(
  profileId: string,
  address: string,
  caps: { perMember: number; perAddress: number },
): Promise<FeedReservation | null> {
  const hash = await addressHash(address);
  const [atAddress, ofMember] = await Promise.all([
    liveLeases(keys.feedsAtAddress(hash), caps.perAddress * 2),
    liveLeases(keys.feedsOfMember(profileId), caps.perMember * 4),
  ]);
  if (atAddress.length >= caps.perAddress) return null;
  ofMember.sort((a, b) => a.opened - b.opened || (a.id < b.id ? -1 : 1));
  const replaced = ofMember.slice(0, Math.max(0, ofMember.length - (caps.perMember - 1)));
  const t = now();
  // Ids sort by time (kv/ids.ts), so a member's feeds opened in one millisecond keep their order.
  const lease: FeedLease = { id: newId(), profileId, addressHash: hash, opened: t, until: t + FEED_LEASE_MS };
  const op = kv().atomic();
  setLease(op, lease);
  for (const old of replaced) deleteLease(op, old);
  if (replaced.length) addEvent(op, [FEEDS_CHANNEL], { type: "feeds-ended", ids: replaced.map((r) => r.id) });
  const res = await op.commit();
  if (!res.ok) throw new Error("feed reservation failed");
  return { lease, replaced: replaced.map((r) => r.id) };
}

/** Renews the leases of this instance's open feeds (in commits of 200). */
export async function renewFeedLeases(leases: readonly FeedLease[]): Promise<void> {
  const until = now() + FEED_LEASE_MS;
  for (let i = 0; i < leases.length; i += 200) {
    const op = kv().atomic();
    for (const l of leases.slice(i, i + 200)) {
      l.until = until;
      setLease(op, l);
    }
    await op.commit();
  }
}

/** Removes a closed feed's lease. */
export async function releaseFeed(lease: FeedLease): Promise<void> {
  const op = kv().atomic();
  deleteLease(op, lease);
  await op.commit();
}

/** Calls `fn` with the ids of feeds a member's newer ones replaced, on any instance. Returns the unsubscribe. */
export function onFeedsEnded(fn: (ids: readonly string[]) => void): () => void {
  return eventBus().subscribe(FEEDS_CHANNEL, (e) => {
    if (e.type === "feeds-ended") fn(e.ids);
  });
}

/** The feeds that hold a lease now: the member's and the address's (tests, operators). */
export async function liveFeedCounts(profileId: string, address: string): Promise<{ member: number; address: number }> {
  const [member, atAddress] = await Promise.all([
    liveLeases(keys.feedsOfMember(profileId), 1000),
    liveLeases(keys.feedsAtAddress(await addressHash(address)), 1000),
  ]);
  return { member: member.length, address: atAddress.length };
}
