/**
 * Live updates: one connection per page to `/api/events` that carries the member's events
 * (kv/events.ts) as they happen: what changed, with its ids. A WebSocket first (it costs the
 * server a third of a streamed answer); where one cannot open (a proxy that does not pass
 * WebSockets), server-sent events, which the browser reconnects by itself. Polling stays as the
 * fallback (spec: 15 s). The server may ask the page to reconnect (an instance shutting down).
 */

import { useEffect } from "react";
import type { MemberEvent } from "../../domain/shapes/events.ts";

export type { MemberEvent };

type Listener = (e: MemberEvent) => void;
const listeners = new Set<Listener>();
let connection: { close(): void } | undefined;
/** A WebSocket never opened here: use server-sent events from now on. */
let socketsFail = false;

const dispatch = (e: MemberEvent) => listeners.forEach((l) => l(e));

function connectSocket(): { close(): void } {
  let closed = false, retry: ReturnType<typeof setTimeout> | undefined, attempts = 0;
  let ws: WebSocket;
  const open = () => {
    let opened = false;
    // The live listener's port when the server has one (routes/live.ts), else this page's.
    const live = document.querySelector<HTMLMetaElement>('meta[name="live-port"]')?.content;
    const host = live ? `${location.hostname}:${live}` : location.host;
    ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${host}/api/events`);
    ws.onopen = () => {
      opened = true;
      attempts = 0;
    };
    ws.onmessage = (m) => {
      try {
        const msg = JSON.parse(String(m.data)) as { event: string; data?: MemberEvent };
        if (msg.event === "member" && msg.data) dispatch(msg.data);
      } catch { /* not ours */ }
    };
    ws.onclose = (ev) => {
      if (closed) return;
      if (!opened && attempts === 0) {
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
  open();
  return {
    close() {
      closed = true;
      clearTimeout(retry);
      ws.close();
    },
  };
}

function connectEventSource(): { close(): void } {
  const source = new EventSource("/api/events");
  source.addEventListener("member", (m) => {
    try {
      dispatch(JSON.parse((m as MessageEvent<string>).data));
    } catch { /* not ours */ }
  });
  return source;
}

/** Calls `onEvent` with each of the member's events while the component is mounted. */
export function useMemberEvents(onEvent: Listener): void {
  useEffect(() => {
    listeners.add(onEvent);
    if (!connection) {
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
