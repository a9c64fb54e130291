/**
 * Live updates: one server-sent-events stream per page (`/api/events`) that carries the member's
 * events (kv/events.ts) as they happen: what changed, with its ids. Polling stays as the fallback
 * (spec: 15 s). The server may ask the page to reconnect (an instance shutting down): EventSource
 * does so by itself.
 */

import { useEffect } from "react";
import type { MemberEvent } from "../../kv/events.ts";

export type { MemberEvent };

type Listener = (e: MemberEvent) => void;
const listeners = new Set<Listener>();
let source: EventSource | undefined;

/** Calls `onEvent` with each of the member's events while the component is mounted. */
export function useMemberEvents(onEvent: Listener): void {
  useEffect(() => {
    listeners.add(onEvent);
    if (!source && typeof EventSource !== "undefined") {
      source = new EventSource("/api/events");
      source.addEventListener("member", (m) => {
        let e: MemberEvent;
        try {
          e = JSON.parse((m as MessageEvent<string>).data);
        } catch {
          return;
        }
        listeners.forEach((l) => l(e));
      });
    }
    return () => {
      listeners.delete(onEvent);
      if (listeners.size === 0) {
        source?.close();
        source = undefined;
      }
    };
  }, [onEvent]);
}
