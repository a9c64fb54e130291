/**
 * Live updates: one connection per page to `/api/events` that carries the member's events
 * (kv/events.ts) as they happen: what changed, with its ids. A WebSocket first (it costs the
 * server a third of a streamed answer); where one cannot open (a proxy that does not pass
 * WebSockets), server-sent events, which the browser reconnects by itself. Polling stays as the
 * fallback (spec: 15 s).
 *
 * Every event comes with its cursor; a connection that opens again names the last one seen (the
 * first names the one the server put in the page, taken before the page's reads), and the server
 * first sends what the page missed (routes/memberFeed.ts), or says "reset" when that is too old:
 * then every query is read again. When the device's connection comes back, the socket is
 * opened again at once (an old one may be dead without knowing it). The server may ask the page to
 * reconnect (an instance shutting down), or end the feed for good: its session ended (then the
 * page wipes what this device keeps of the member and goes to /login, as on a 401), or the member
 * opened too many pages (this one was the oldest).
 */

import { useEffect } from "react";
import type { MemberEvent } from "../../domain/shapes/events.ts";
import { queryClient } from "./client.tsx";
import { sessionEnded } from "./api.ts";

export type { MemberEvent };

type Listener = (e: MemberEvent) => void;
const listeners = new Set<Listener>();
let connection: { close(): void } | undefined;
/** A WebSocket never opened here: use server-sent events from now on. */
let socketsFail = false;
/** The cursor of the last event this page was given. */
let lastAt = "";

/**
 * Where the feed starts: after the last event given, else after the cursor the server rendered
 * in the page (taken before its reads: what was written while the page loaded comes first).
 */
const resumeAt = () => lastAt || document.querySelector<HTMLMetaElement>('meta[name="events-after"]')?.content || "";
/** The server ended the feed for good (session over, or replaced by a newer page). */
let endedForGood = false;

/** Close codes that mean: do not connect again (routes/api/events.ts). */
const FINAL_CLOSES = new Set([1008, 4001]);
/** The close code (and the server-sent end's data) of a feed ended because its session ended. */
const SESSION_CLOSE = 1008;
const SESSION_END = "session";

/**
 * The session ended (logged out elsewhere, "log out everywhere else", a new password, a ban): the
 * page forgets what it shows and everything kept of the member on this device at once, as a 401
 * would (api.ts `sessionEnded`).
 */
function endedSession(): void {
  endedForGood = true;
  queryClient().clear();
  sessionEnded("the live feed says the session ended");
}

const dispatch = (e: MemberEvent) => listeners.forEach((l) => l(e));
/** What the page missed is too old to send: every query reads its data again. */
const resetAll = () => void queryClient().invalidateQueries();

function connectSocket(): { close(): void } {
  let closed = false, retry: ReturnType<typeof setTimeout> | undefined, attempts = 0;
  let ws: WebSocket;
  const open = () => {
    let opened = false;
    // The live listener's port when the server has one (routes/live.ts), else this page's.
    const live = document.querySelector<HTMLMetaElement>('meta[name="live-port"]')?.content;
    const host = live ? `${location.hostname}:${live}` : location.host;
    const from = resumeAt();
    const after = from ? `?after=${from}` : "";
    ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${host}/api/events${after}`);
    ws.onopen = () => {
      opened = true;
      attempts = 0;
    };
    ws.onmessage = (m) => {
      try {
        const msg = JSON.parse(String(m.data)) as { event: string; data?: MemberEvent; at?: string };
        if (msg.event === "member" && msg.data) {
          if (msg.at) lastAt = msg.at;
          dispatch(msg.data);
        } else if (msg.event === "reset") resetAll();
      } catch { /* not ours */ }
    };
    ws.onclose = (ev) => {
      if (closed) return;
      if (FINAL_CLOSES.has(ev.code)) {
        endedForGood = true;
        if (ev.code === SESSION_CLOSE) endedSession();
        return;
      }
      if (!opened && attempts === 0 && !lastAt) {
        // The first socket never opened: this network does not pass WebSockets.
        socketsFail = true;
        connection = connectEventSource();
        return;
      }
      // Asked to reconnect (1012): at once, elsewhere; otherwise back off up to 15 s.
      const wait = ev.code === 1012 ? 300 : Math.min(15_000, 1000 * 2 ** attempts++);
      retry = setTimeout(open, wait);
    };
  };
  // The device is back online: a socket from before may be dead without knowing it.
  const again = () => {
    if (closed) return;
    clearTimeout(retry);
    attempts = 0;
    const old = ws;
    old.onclose = null;
    old.onmessage = null;
    old.close();
    open();
  };
  addEventListener("online", again);
  open();
  return {
    close() {
      closed = true;
      clearTimeout(retry);
      removeEventListener("online", again);
      ws.close();
    },
  };
}

function connectEventSource(): { close(): void } {
  // The browser reconnects by itself, naming the last event's id (Last-Event-ID).
  const from = resumeAt();
  const source = new EventSource(from ? `/api/events?after=${from}` : "/api/events");
  source.addEventListener("member", (m) => {
    try {
      const e = m as MessageEvent<string>;
      if (e.lastEventId) lastAt = e.lastEventId;
      dispatch(JSON.parse(e.data));
    } catch { /* not ours */ }
  });
  source.addEventListener("reset", resetAll);
  source.addEventListener("end", (m) => {
    endedForGood = true;
    source.close();
    if ((m as MessageEvent<string>).data === SESSION_END) endedSession();
  });
  return source;
}

/** Calls `onEvent` with each of the member's events while the component is mounted. */
export function useMemberEvents(onEvent: Listener): void {
  useEffect(() => {
    listeners.add(onEvent);
    if (!connection && !endedForGood) {
      if (typeof WebSocket !== "undefined" && !socketsFail) connection = connectSocket();
      else if (typeof EventSource !== "undefined") connection = connectEventSource();
    }
    return () => {
      listeners.delete(onEvent);
      if (listeners.size === 0) {
        connection?.close();
        connection = undefined;
      }
    };
  }, [onEvent]);
}
