/**
 * A member's live feed, whatever carries it (server-sent events or a WebSocket, on the main port
 * or the live listener): the instance's event bus hands it the member's events, each with its
 * cursor (the log entry's versionstamp).
 *
 * - A page that lost its connection gives the last cursor it saw: the feed first sends what the
 *   member missed from the change log, then the live events after it, none twice (an event whose
 *   entry was already sent is dropped). A cursor that has left the log (10 minutes) gets a reset:
 *   the page reads its data again.
 * - A feed ends with its session: logout, "log out everywhere else", a new password, a deletion
 *   (kv/sessions.ts), a suspension or ban (the member's `session-ended` event), on every instance.
 * - A member has at most `MAX_FEEDS_PER_MEMBER` open (the oldest ends: "replaced"), an address at
 *   most `MAX_FEEDS_PER_ADDRESS` (the next one is refused), counted over every instance: each feed
 *   holds a lease in KV while it is open (kv/feeds.ts), read when a feed opens.
 * - An open feed marks its member as seen ("online now").
 */

import { config } from "../config/config.ts";
import { eventBus } from "../kv/events.ts";
import { onSessionsEnded } from "../kv/sessions.ts";
import { markSeen } from "../kv/presence.ts";
import {
  FEED_LEASE_MS,
  FEED_RENEW_MS,
  type FeedLease,
  type FeedReservation,
  onFeedsEnded,
  releaseFeed,
  renewFeedLeases,
  reserveFeed as reserveFeedLease,
} from "../kv/feeds.ts";
import type { MemberEvent } from "../domain/shapes/events.ts";

/** Feeds one member may hold open at once; the oldest goes when one more opens. */
export const MAX_FEEDS_PER_MEMBER = 10;
/** Feeds one client address may hold open at once (many members may share an address). */
export const MAX_FEEDS_PER_ADDRESS = config.maxFeedsPerAddress;
/** How often an open feed marks its member as seen. */
const SEEN_EVERY_MS = 50_000;

/** Why a feed ended. */
export type FeedEnd = "session" | "replaced" | "shutdown";

/** What a feed's transport does with what the feed says. */
export interface FeedOut {
  /** One of the member's events, with its cursor. */
  event(e: MemberEvent, at: string): void;
  /** The cursor the page gave has left the log: the page reads its data again. */
  reset(): void;
  /** The feed ended: the transport closes (and says why). */
  end(why: FeedEnd): void;
}

interface Feed {
  profileId: string;
  sessionId: string;
  lease: FeedLease;
  out: FeedOut;
  close(): void;
}

const feeds = new Set<Feed>();
/** This instance's feeds by their lease's id (a replacement names them). */
const byId = new Map<string, Feed>();
/**
 * Feeds reserved here whose transport has not opened yet (a socket still upgrading), by id: when
 * they were reserved, and whether a newer feed replaced them meanwhile (then they end as they open).
 * One whose transport never opens is forgotten after its lease's time.
 */
const pending = new Map<string, { at: number; replaced: boolean }>();
let stopWatchingSessions: (() => void) | undefined;
let stopWatchingReplaced: (() => void) | undefined;
let renewing: ReturnType<typeof setInterval> | undefined;

/** Events a page never needs again once they are past: left out of what is caught up. */
const PASSING = new Set<MemberEvent["type"]>(["typing", "session-ended", "feeds-ended"]);

/**
 * Reserves a feed for `caller` at `address` before its transport opens, counting the feeds of
 * every instance: null when the address holds as many as it may (refuse it). The member's
 * oldest feeds past their cap end now ("replaced"), here or on the instance that holds them.
 */
export async function reserveFeed(caller: { profileId: string }, address: string): Promise<FeedLease | null> {
  stopWatchingReplaced ??= onFeedsEnded(endReplaced);
  const r: FeedReservation | null = await reserveFeedLease(caller.profileId, address, {
    perMember: MAX_FEEDS_PER_MEMBER,
    perAddress: MAX_FEEDS_PER_ADDRESS,
  });
  if (!r) return null;
  endReplaced(r.replaced);
  const t = Date.now();
  for (const [id, p] of pending) {
    if (t - p.at < FEED_LEASE_MS) break;
    pending.delete(id);
  }
  pending.set(r.lease.id, { at: t, replaced: false });
  return r.lease;
}

/** Ends this instance's feeds among `ids` ("replaced"); those reserved here but not open yet end as they open. */
function endReplaced(ids: readonly string[]) {
  for (const id of ids) {
    const f = byId.get(id);
    if (f) end(f, "replaced");
    const p = pending.get(id);
    if (p) p.replaced = true;
  }
}

/** Open feeds on this instance. */
export function openFeeds(): number {
  return feeds.size;
}

/**
 * Opens a member's feed; `after` is the last cursor their page saw (a resumed connection), if
 * any. Returns the close the transport calls when it closes (idempotent).
 */
export function openFeed(
  caller: { profileId: string; sessionId: string },
  lease: FeedLease,
  after: string | undefined,
  out: FeedOut,
): () => void {
  stopWatchingSessions ??= onSessionsEnded((ids) => {
    for (const f of feeds) if (ids.includes(f.sessionId)) end(f, "session");
  });
  // Until what was missed is sent, live events wait; after it, those already sent are dropped.
  let held: { e: MemberEvent; at: string }[] | null = after ? [] : null;
  let sentUpTo = "";
  const unsubscribe = eventBus().subscribe(caller.profileId, (e, at) => {
    if (e.type === "session-ended") return end(feed, "session");
    if (held) held.push({ e, at });
    else if (at > sentUpTo) out.event(e, at);
  });
  const seen = setInterval(() => void markSeen(caller.profileId).catch(() => {}), SEEN_EVERY_MS);
  void markSeen(caller.profileId).catch(() => {});
  let closed = false;
  const feed: Feed = {
    profileId: caller.profileId,
    sessionId: caller.sessionId,
    lease,
    out,
    close() {
      if (closed) return;
      closed = true;
      unsubscribe();
      clearInterval(seen);
      feeds.delete(feed);
      byId.delete(lease.id);
      if (feeds.size === 0) {
        clearInterval(renewing);
        renewing = undefined;
      }
      void releaseFeed(lease).catch(() => {});
    },
  };
  feeds.add(feed);
  byId.set(lease.id, feed);
  // One renewal for all of this instance's feeds, while any is open.
  renewing ??= setInterval(() => void renewFeedLeases([...feeds].map((f) => f.lease)).catch(() => {}), FEED_RENEW_MS);
  const early = pending.get(lease.id);
  pending.delete(lease.id);
  if (early?.replaced) {
    end(feed, "replaced");
    return feed.close;
  }

  if (after) {
    void (async () => {
      const missed = await eventBus().missed(caller.profileId, after).catch(() => null);
      if (closed) return;
      if (!missed) out.reset();
      else {
        for (const m of missed.events) if (!PASSING.has(m.event.type)) out.event(m.event, m.at);
        sentUpTo = missed.last;
      }
      const waiting = held ?? [];
      held = null;
      for (const h of waiting) if (h.at > sentUpTo) out.event(h.e, h.at);
    })();
  }
  return feed.close;
}

function end(feed: Feed, why: FeedEnd) {
  feed.close();
  feed.out.end(why);
}

/** Ends every open feed (the instance shuts down: pages reconnect elsewhere). */
export function endAllFeeds(): void {
  for (const f of [...feeds]) end(f, "shutdown");
}
