/**
 * GET /api/events: a server-sent-events stream (or, asked with `Upgrade: websocket`, a WebSocket)
 * that tells a member's pages at once when their notifications or inbox change. The instance's one
 * event bus (kv/events.ts) hands each member's events to their streams; at shutdown every open
 * stream is told to reconnect (to another instance, behind a load balancer).
 */

import { Hono } from "hono";
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { eventStreams } from "../telemetry.ts";
import type { AppEnv, Caller } from "../env.ts";
import { forbidden } from "../errors.ts";
import { isOwnOrigin, requireCaller } from "../middleware.ts";
import { eventBus } from "../../kv/events.ts";
import type { MemberEvent } from "../../domain/shapes/events.ts";
import { markSeen } from "../../kv/presence.ts";

/** An event stream lives this long; the browser reconnects by itself. */
export const EVENT_STREAM_MS = 55_000;

/** At shutdown, how long a stream waits for its client to take the reconnect hint before it ends. */
export const RECONNECT_HINT_MS = 1000;

/** The open event streams of this instance: each entry tells its stream to end (shutdown). */
const openStreams = new Set<() => void>();

/**
 * Tells every open event stream to reconnect (to another instance, behind a load balancer) and
 * ends it: `event: reconnect` with a short `retry`, which EventSource honours.
 */
export function closeEventStreams(): void {
  for (const close of openStreams) close();
}

export const events = new Hono<AppEnv>()
  .get("/events", (c) => {
    const caller = requireCaller(c);
    if (c.req.header("upgrade")?.toLowerCase() === "websocket") return eventSocket(c, caller);
    c.header("cache-control", "no-store");
    return streamSSE(c, async (stream) => {
      eventStreams.inc();
      // An open page is "online now" (kv/presence.ts): the stream reconnects at least every minute.
      void markSeen(caller.profileId).catch(() => {});
      // The instance's one event bus hands this member's events to the stream: no KV watch per stream.
      const queue: MemberEvent[] = [];
      let wake: (() => void) | undefined;
      let ended = false;
      let endedNow!: () => void;
      const endedSignal = new Promise<void>((r) => endedNow = r);
      const end = () => {
        ended = true;
        wake?.();
        endedNow();
      };
      // A write waits until the server takes it; one to a client that vanished unnoticed would wait
      // for ever (and hold the instance's shutdown): it gives up when the stream ends (55 s at most).
      let stuck = false;
      const send = async (m: { event: string; data: string; retry?: number }, until = endedSignal) => {
        stuck = true;
        await Promise.race([stream.writeSSE(m).then(() => stuck = false), until]);
      };
      const unsubscribe = eventBus().subscribe(caller.profileId, (e) => {
        if (e.type === "session-ended") return end();
        queue.push(e);
        wake?.();
      });
      const timer = setTimeout(end, EVENT_STREAM_MS);
      stream.onAbort(end);
      let closing = false;
      const close = () => {
        closing = true;
        end();
      };
      openStreams.add(close);
      try {
        await send({ event: "ready", data: "" });
        while (!ended && !stream.aborted) {
          if (queue.length === 0) await new Promise<void>((r) => wake = r);
          wake = undefined;
          for (const e of queue.splice(0)) {
            if (ended) break;
            await send({ event: "member", data: JSON.stringify(e) });
          }
        }
        if (closing && !stuck) {
          let timer: ReturnType<typeof setTimeout> | undefined;
          await send(
            { event: "reconnect", data: "shutdown", retry: 500 },
            new Promise((r) => timer = setTimeout(r, RECONNECT_HINT_MS)),
          );
          clearTimeout(timer);
        }
      } catch {
        /* the client went away */
      } finally {
        // A write still waiting: end the answer at once rather than wait for a taker.
        if (stuck) stream.abort();
        unsubscribe();
        openStreams.delete(close);
        eventStreams.dec();
        clearTimeout(timer);
      }
    });
  });

/** How often an open socket marks its member as seen (the SSE stream does so at each reconnect). */
const SEEN_EVERY_MS = 50_000;

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
function eventSocket(c: Context<AppEnv>, caller: Caller): Response {
  const origin = c.req.header("origin");
  if (origin !== undefined && !isOwnOrigin(c, origin)) throw forbidden("Cross-site requests are refused.");
  const handoff = liveHandoffs.get(c.req.raw);
  if (handoff) {
    handoff((port) => memberSocket(caller, port));
    return c.body(null, 200);
  }
  const { socket, response } = Deno.upgradeWebSocket(c.req.raw, { idleTimeout: 60 });
  const wiring = memberSocket(caller, {
    send: (text) => socket.send(text),
    close: (code, reason) => socket.close(code, reason),
    isOpen: () => socket.readyState === WebSocket.OPEN,
  });
  socket.onopen = wiring.opened;
  socket.onclose = wiring.closed;
  socket.onerror = () => {};
  return response;
}

/** A member's open socket: the bus's events out, seen marks, and a reconnect on shutdown. */
function memberSocket(caller: Caller, socket: EventSocketPort): EventSocketWiring {
  let unsubscribe = () => {};
  let seen: ReturnType<typeof setInterval> | undefined;
  const close = () => {
    if (socket.isOpen()) {
      socket.send(JSON.stringify({ event: "reconnect" }));
      socket.close(1012, "shutdown");
    }
  };
  return {
    opened() {
      eventStreams.inc();
      openStreams.add(close);
      void markSeen(caller.profileId).catch(() => {});
      seen = setInterval(() => void markSeen(caller.profileId).catch(() => {}), SEEN_EVERY_MS);
      unsubscribe = eventBus().subscribe(caller.profileId, (e) => {
        if (e.type === "session-ended") return socket.close(1008, "session ended");
        if (socket.isOpen()) socket.send(JSON.stringify({ event: "member", data: e }));
      });
      socket.send(JSON.stringify({ event: "ready" }));
    },
    closed() {
      if (seen === undefined) return;
      unsubscribe();
      clearInterval(seen);
      seen = undefined;
      openStreams.delete(close);
      eventStreams.dec();
    },
  };
}
