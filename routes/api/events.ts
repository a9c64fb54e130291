/**
 * GET /api/events: a server-sent-events stream (or, asked with `Upgrade: websocket`, a WebSocket)
 * that tells a member's pages at once when their notifications or inbox change: the member's feed
 * (routes/memberFeed.ts). A page that reconnects names the last event it saw (`Last-Event-ID`, or
 * `?after=` on a socket) and first gets what it missed. At shutdown every open stream is told to
 * reconnect (to another instance, behind a load balancer); a stream whose session ends closes.
 */

import { Hono } from "hono";
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import * as z from "zod";
import { eventStreams } from "../telemetry.ts";
import type { AppEnv, Caller } from "../env.ts";
import { forbidden, tooMany } from "../errors.ts";
import { parseWith, queryOf } from "../validate.ts";
import { clientAddress, isOwnOrigin, requireCaller } from "../middleware.ts";
import { endAllFeeds, type FeedEnd, openFeed, reserveFeed } from "../memberFeed.ts";
import type { FeedLease } from "../../kv/feeds.ts";
import type { MemberEvent } from "../../domain/shapes/events.ts";

/** An event stream lives this long; the browser reconnects by itself (naming the last event it saw). */
export const EVENT_STREAM_MS = 55_000;

/** At shutdown, how long a stream waits for its client to take the reconnect hint before it ends. */
export const RECONNECT_HINT_MS = 1000;

/** A cursor a page gives back: an event log entry's versionstamp. */
const cursor = z.string().regex(/^[0-9a-f]{20}$/, "Not an event cursor.").optional();

/**
 * Tells every open event stream to reconnect (to another instance, behind a load balancer) and
 * ends it: `event: reconnect` with a short `retry`, which EventSource honours.
 */
export function closeEventStreams(): void {
  endAllFeeds();
}

/**
 * The feed's opening checks: the cursor a reconnecting page names, and the caps (over every
 * instance): the address's, else 429; the member's oldest feeds past theirs are replaced.
 */
async function feedRequest(c: Context<AppEnv>, caller: Caller, after: string | undefined) {
  const cursorAfter = parseWith(cursor, after);
  const lease = await reserveFeed(caller, clientAddress(c));
  if (!lease) throw tooMany();
  return { lease, after: cursorAfter };
}

export const events = new Hono<AppEnv>()
  .get("/events", async (c) => {
    const caller = requireCaller(c);
    if (c.req.header("upgrade")?.toLowerCase() === "websocket") return await eventSocket(c, caller);
    const { lease, after } = await feedRequest(
      c,
      caller,
      c.req.header("last-event-id") || queryOf(c, "GET /api/events").after,
    );
    c.header("cache-control", "no-store");
    return streamSSE(c, async (stream) => {
      eventStreams.inc();
      // What the feed says, written in order; a write waits until the server takes it.
      const queue: { event: string; data: string; id?: string }[] = [];
      let wake: (() => void) | undefined;
      let ended = false;
      let endedWhy = "timeout" as FeedEnd | "timeout";
      let endedNow!: () => void;
      const endedSignal = new Promise<void>((r) => endedNow = r);
      const end = (why: FeedEnd | "timeout") => {
        if (!ended) endedWhy = why;
        ended = true;
        wake?.();
        endedNow();
      };
      // One write to a client that vanished unnoticed would wait for ever (and hold the instance's
      // shutdown): it gives up when the stream ends (55 s at most).
      let stuck = false;
      const send = async (m: { event: string; data: string; id?: string; retry?: number }, until = endedSignal) => {
        stuck = true;
        await Promise.race([stream.writeSSE(m).then(() => stuck = false), until]);
      };
      const push = (m: { event: string; data: string; id?: string }) => {
        queue.push(m);
        wake?.();
      };
      const closeFeed = openFeed(caller, lease, after, {
        event: (e, at) => push({ event: "member", data: eventText(e, at, "stream"), id: at }),
        reset: () => push({ event: "reset", data: "" }),
        end,
      });
      const timer = setTimeout(() => end("timeout"), EVENT_STREAM_MS);
      stream.onAbort(() => end("timeout"));
      try {
        await send({ event: "ready", data: "" });
        while (!stream.aborted) {
          if (queue.length === 0 && !ended) await new Promise<void>((r) => wake = r);
          wake = undefined;
          // What the feed said before it ended still goes out (a reset, the last events).
          for (const m of queue.splice(0)) await send(m);
          if (ended) break;
        }
        if (!stuck && endedWhy === "shutdown") {
          let timer: ReturnType<typeof setTimeout> | undefined;
          await send(
            { event: "reconnect", data: "shutdown", retry: 500 },
            new Promise((r) => timer = setTimeout(r, RECONNECT_HINT_MS)),
          );
          clearTimeout(timer);
        } else if (!stuck && (endedWhy === "session" || endedWhy === "replaced")) {
          await send({ event: "end", data: endedWhy });
        }
      } catch {
        /* the client went away */
      } finally {
        // A write still waiting: end the answer at once rather than wait for a taker.
        if (stuck) stream.abort();
        closeFeed();
        eventStreams.dec();
        clearTimeout(timer);
      }
    });
  });

/** What the event socket needs of a WebSocket, whichever server holds it (Deno's or routes/live.ts). */
export interface EventSocketPort {
  send(text: string): void;
  close(code: number, reason: string): void;
  isOpen(): boolean;
}

/** The two ends of a member's event socket: call `opened` once it is open, `closed` when it closes. */
export interface EventSocketWiring {
  opened(): void;
  closed(): void;
}

/**
 * Requests that reached the app through the live listener (routes/live.ts): the route hands it the
 * socket's wiring instead of upgrading through Deno's server.
 */
const liveHandoffs = new WeakMap<Request, (wiring: (port: EventSocketPort) => EventSocketWiring) => void>();

/** The live listener marks a request it will upgrade itself; `take` receives the socket's wiring. */
export function markLiveUpgrade(
  request: Request,
  take: (wiring: (port: EventSocketPort) => EventSocketWiring) => void,
): void {
  liveHandoffs.set(request, take);
}

/**
 * The same events over a WebSocket: about 23 KB of server memory per open socket on Deno's server
 * (10 KB on the live listener) where a streamed SSE answer holds about 60 KB (bench/live.ts).
 * A browser sends a WebSocket's page origin and the member's cookie from any site, so a socket
 * from another site's page is refused (cross-site WebSocket hijacking). Messages are
 * `{"event":"ready"}`, `{"event":"member","data":<MemberEvent>}` and `{"event":"reconnect"}`
 * (then the server closes with 1012: the page connects again, to another instance).
 */
async function eventSocket(c: Context<AppEnv>, caller: Caller): Promise<Response> {
  const origin = c.req.header("origin");
  if (origin !== undefined && !isOwnOrigin(c, origin)) throw forbidden("Cross-site requests are refused.");
  const request = await feedRequest(c, caller, queryOf(c, "GET /api/events").after);
  const handoff = liveHandoffs.get(c.req.raw);
  if (handoff) {
    handoff((port) => memberSocket(caller, request, port));
    return c.body(null, 200);
  }
  const { socket, response } = Deno.upgradeWebSocket(c.req.raw, { idleTimeout: 60 });
  const wiring = memberSocket(caller, request, {
    send: (text) => socket.send(text),
    close: (code, reason) => socket.close(code, reason),
    isOpen: () => socket.readyState === WebSocket.OPEN,
  });
  socket.onopen = wiring.opened;
  socket.onclose = wiring.closed;
  socket.onerror = () => {};
  return response;
}

/** An event's text on a stream (its JSON) and on a socket (the whole message), by the event. */
const eventTexts = new WeakMap<MemberEvent, { at: string; stream?: string; socket?: string }>();

/**
 * A member event as a stream or a socket sends it, encoded once for every stream and socket it
 * goes to: the bus hands each of them the same event (the sender's and the recipient's pages, each
 * of their tabs).
 */
function eventText(e: MemberEvent, at: string, on: "stream" | "socket"): string {
  let texts = eventTexts.get(e);
  if (texts?.at !== at) eventTexts.set(e, texts = { at });
  return texts[on] ??= on === "stream" ? JSON.stringify(e) : JSON.stringify({ event: "member", data: e, at });
}

/** How a socket closes when its feed ends: code and reason. */
const SOCKET_ENDS: Record<FeedEnd, [number, string]> = {
  session: [1008, "session ended"],
  replaced: [4001, "replaced"],
  shutdown: [1012, "shutdown"],
};

/** A member's open socket: the feed's events out, and its end. */
function memberSocket(
  caller: Caller,
  request: { lease: FeedLease; after: string | undefined },
  socket: EventSocketPort,
): EventSocketWiring {
  let closeFeed: (() => void) | undefined;
  const say = (m: unknown) => socket.isOpen() && socket.send(JSON.stringify(m));
  return {
    opened() {
      eventStreams.inc();
      say({ event: "ready" });
      closeFeed = openFeed(caller, request.lease, request.after, {
        event: (e, at) => socket.isOpen() && socket.send(eventText(e, at, "socket")),
        reset: () => say({ event: "reset" }),
        end: (why) => {
          if (!socket.isOpen()) return;
          if (why === "shutdown") say({ event: "reconnect" });
          socket.close(...SOCKET_ENDS[why]);
        },
      });
    },
    closed() {
      if (!closeFeed) return;
      closeFeed();
      closeFeed = undefined;
      eventStreams.dec();
    },
  };
}
