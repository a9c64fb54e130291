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
 *   most `MAX_FEEDS_PER_ADDRESS` (the next one is refused).
 * - An open feed marks its member as seen ("online now").
 */

import { config } from "../config/config.ts";
import { eventBus } from "../kv/events.ts";
import { onSessionsEnded } from "../kv/sessions.ts";
import { markSeen } from "../kv/presence.ts";
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
  address: string;
  out: FeedOut;
  close(): void;
}

const feeds = new Set<Feed>();
const byMember = new Map<string, Feed[]>();
const byAddress = new Map<string, number>();
let stopWatchingSessions: (() => void) | undefined;

/** Events a page never needs again once they are past: left out of what is caught up. */
const PASSING = new Set<MemberEvent["type"]>(["typing", "session-ended"]);

/** Does this address hold as many feeds as it may? (Asked before a transport opens.) */
export function feedsFull(address: string): boolean {
  return (byAddress.get(address) ?? 0) >= MAX_FEEDS_PER_ADDRESS;
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
  address: string,
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
    ...caller,
    address,
    out,
    close() {
      if (closed) return;
      closed = true;
      unsubscribe();
      clearInterval(seen);
      feeds.delete(feed);
      const mine = byMember.get(caller.profileId)?.filter((f) => f !== feed) ?? [];
      if (mine.length) byMember.set(caller.profileId, mine);
      else byMember.delete(caller.profileId);
      const n = (byAddress.get(address) ?? 1) - 1;
      if (n > 0) byAddress.set(address, n);
      else byAddress.delete(address);
    },
  };
  feeds.add(feed);
  byAddress.set(address, (byAddress.get(address) ?? 0) + 1);
  const mine = [...(byMember.get(caller.profileId) ?? []), feed];
  byMember.set(caller.profileId, mine);
  if (mine.length > MAX_FEEDS_PER_MEMBER) end(mine[0], "replaced");

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
