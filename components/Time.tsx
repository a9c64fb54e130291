/**
 * A time shown in the reader's own time zone. The server does not know it, so the first render
 * (server and hydration) prints UTC and the browser switches to local time after mounting.
 */

import { useEffect, useState } from "react";
import { dateTimeFormat, intlLocale, locale, numberFormat, relativeTimeFormat } from "../domain/i18n.ts";
import { chatTimeText } from "../domain/screenTexts.ts";
import { seenStep } from "../domain/presence.ts";

/** `2026-11-21 23:54 UTC` */
function utcText(ts: number): string {
  return new Date(ts).toISOString().slice(0, 16).replace("T", " ") + " UTC";
}

/** A <time> element showing `ts` in local time once hydrated. */
export function Time({ ts }: { ts: number }) {
  const [text, setText] = useState(() => utcText(ts));
  useEffect(() => setText(dateTimeFormat(intlLocale(), { dateStyle: "medium", timeStyle: "short" }).format(ts)), [ts]);
  return <time dateTime={new Date(ts).toISOString()}>{text}</time>;
}

/** An amount of a unit of time, as short as the language writes it ("5m", "5 min"). */
function narrow(n: number, unit: "minute" | "hour" | "day"): string {
  return numberFormat(intlLocale(), { style: "unit", unit, unitDisplay: "narrow" }).format(n);
}

/**
 * A short age in the language in use (Intl): "now", "5m", "3h", "2d", then the date (`Nov 21`,
 * with the year when not this year).
 */
export function agoText(ts: number, at: number = Date.now()): string {
  const s = Math.max(0, Math.round((at - ts) / 1000));
  if (s < 60) return relativeTimeFormat(intlLocale(), { numeric: "auto" }).format(0, "second");
  if (s < 3600) return narrow(Math.floor(s / 60), "minute");
  if (s < 86_400) return narrow(Math.floor(s / 3600), "hour");
  if (s < 7 * 86_400) return narrow(Math.floor(s / 86_400), "day");
  const d = new Date(ts);
  const sameYear = d.getFullYear() === new Date(at).getFullYear();
  return dateTimeFormat(
    intlLocale(),
    sameYear ? { month: "short", day: "numeric" } : {
      month: "short",
      day: "numeric",
      year: "numeric",
    },
  ).format(d);
}

/**
 * How long ago a member was last seen, in words of the language in use (Intl): "5 minutes ago",
 * "3 hours ago", "yesterday", "12 days ago". The server tells last seen to five minutes, an hour
 * or a day by its age (domain/presence.ts), and this says it in the same steps: the words change
 * at most every five minutes (the chat header reads them out when they change).
 */
export function seenAgoText(ts: number, at: number = Date.now()): string {
  const age = at - ts, { step, unit, unitMs } = seenStep(age);
  return relativeTimeFormat(intlLocale(), { numeric: "auto" }).format(-Math.max(step, age - age % step) / unitMs, unit);
}

/**
 * A <time> saying how long ago a member was last seen. Presence is asked for after hydration
 * (islands/queries/presence.ts), so this is drawn in the browser only, and again with each answer.
 */
export function SeenAgo({ ts }: { ts: number }) {
  return <time dateTime={new Date(ts).toISOString()}>{seenAgoText(ts)}</time>;
}

/** A <time> showing how long ago `ts` was, once hydrated (the server prints the UTC date). */
export function Ago({ ts }: { ts: number }) {
  const [text, setText] = useState(() => utcText(ts).slice(0, 10));
  useEffect(() => setText(agoText(ts)), [ts]);
  return <time dateTime={new Date(ts).toISOString()} title={utcText(ts)}>{text}</time>;
}

/** When a chat's latest message was sent, as chat lists say it ("2 min", "Yesterday"); the UTC date until hydrated. */
export function ChatTime({ ts }: { ts: number }) {
  const [text, setText] = useState(() => utcText(ts).slice(0, 10));
  useEffect(() => {
    const tick = () => setText(chatTimeText(ts, Date.now(), locale()));
    tick();
    const every = setInterval(tick, 30_000);
    return () => clearInterval(every);
  }, [ts]);
  return <time dateTime={new Date(ts).toISOString()} title={utcText(ts)}>{text}</time>;
}
