/**
 * A time shown in the reader's own time zone. The server does not know it, so the first render
 * (server and hydration) prints UTC and the browser switches to local time after mounting.
 */

import { useEffect, useState } from "react";

/** `2026-11-21 23:54 UTC` */
export function utcText(ts: number): string {
  return new Date(ts).toISOString().slice(0, 16).replace("T", " ") + " UTC";
}

/** A <time> element showing `ts` in local time once hydrated. */
export function Time({ ts }: { ts: number }) {
  const [text, setText] = useState(() => utcText(ts));
  useEffect(() => setText(new Date(ts).toLocaleString([], { dateStyle: "medium", timeStyle: "short" })), [ts]);
  return <time dateTime={new Date(ts).toISOString()}>{text}</time>;
}
