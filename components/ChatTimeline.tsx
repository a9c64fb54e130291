/**
 * The chat's timeline marks: a divider at each new day ("Today", "Yesterday", else the date) and
 * the time at the start of each run of messages after a pause. The server does not know the
 * reader's time zone: the first render (server and hydration) uses UTC, then local time.
 */

import { dateTimeFormat, intlLocale } from "../domain/i18n.ts";
import { FEEL_TEXTS } from "../domain/feelTexts.ts";

/** A pause longer than this starts a new run, with its time shown. */
export const RUN_GAP_MS = 15 * 60_000;
/** Messages of one sender closer than this are one group of bubbles. */
export const GROUP_GAP_MS = 2 * 60_000;

/** The day of `ts` (local time, or UTC before hydration), as a key. */
export function dayKey(ts: number, local: boolean): string {
  const d = new Date(ts);
  return local ? `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}` : d.toISOString().slice(0, 10);
}

/** Where the timeline marks go: before message i, a new day, a new run's time, or bubbles grouped with the one before. */
export function timelineOf(
  messages: readonly { tsCreated: number; senderProfileId: string }[],
  local: boolean,
): { newDay: boolean; runTime: boolean; grouped: boolean }[] {
  return messages.map((m, i) => {
    const prev = messages[i - 1];
    const newDay = !prev || dayKey(prev.tsCreated, local) !== dayKey(m.tsCreated, local);
    const runTime = newDay || m.tsCreated - prev.tsCreated > RUN_GAP_MS;
    const grouped = !runTime && prev.senderProfileId === m.senderProfileId &&
      m.tsCreated - prev.tsCreated < GROUP_GAP_MS;
    return { newDay, runTime, grouped };
  });
}

/** The divider of a day: "Today", "Yesterday", or its date. */
export function DayDivider({ ts, local }: { ts: number; local: boolean }) {
  let text = new Date(ts).toISOString().slice(0, 10);
  if (local) {
    const now = Date.now();
    text = dayKey(ts, true) === dayKey(now, true)
      ? FEEL_TEXTS.today
      : dayKey(ts, true) === dayKey(now - 86_400_000, true)
      ? FEEL_TEXTS.yesterday
      : dateTimeFormat(intlLocale(), { weekday: "long", day: "numeric", month: "long" }).format(ts);
  }
  return (
    <p className="day-divider" role="separator">
      <time dateTime={new Date(ts).toISOString()}>{text}</time>
    </p>
  );
}

/** The time a run of messages started. */
export function RunTime({ ts, local }: { ts: number; local: boolean }) {
  const text = local
    ? dateTimeFormat(intlLocale(), { hour: "numeric", minute: "2-digit" }).format(ts)
    : new Date(ts).toISOString().slice(11, 16);
  return (
    <p className="run-time">
      <time dateTime={new Date(ts).toISOString()}>{text}</time>
    </p>
  );
}
