/**
 * Live updates: one server-sent-events stream per page (`/api/events`) that says when the
 * member's notifications or inbox changed. Polling stays as the fallback (spec: 15 s).
 */

import { useEffect } from "react";

type Listener = () => void;
const listeners = new Set<Listener>();
let source: EventSource | undefined;

/** Calls `onChange` whenever the member's live version changes, while the component is mounted. */
export function useMemberEvents(onChange: Listener): void {
  useEffect(() => {
    listeners.add(onChange);
    if (!source && typeof EventSource !== "undefined") {
      source = new EventSource("/api/events");
      source.addEventListener("version", () => listeners.forEach((l) => l()));
    }
    return () => {
      listeners.delete(onChange);
      if (listeners.size === 0) {
        source?.close();
        source = undefined;
      }
    };
  }, [onChange]);
}
