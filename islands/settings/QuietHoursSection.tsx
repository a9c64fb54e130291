/**
 * "Do not disturb" in Account settings: hours, in the member's time zone (this browser's when
 * they save), during which no push notification reaches any of their devices (workers/push.ts);
 * the notifications wait in the app. Saved at once on each change.
 */

import { useState } from "react";
import { call } from "../queries/api.ts";
import { TEXTS } from "../../domain/texts.ts";
import { phrase } from "../../domain/phrases.ts";
import type { QuietHours } from "../../domain/quietHours.ts";

/** The hours offered when the member turns quiet hours on. */
const DEFAULT_HOURS = { from: "22:00", to: "07:00" };

/** This browser's time zone (an IANA name), or UTC when it does not say. */
function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

export function QuietHoursSection({ initial }: { initial: QuietHours | null }) {
  const [hours, setHours] = useState<QuietHours | null>(initial);
  const [error, setError] = useState("");
  const [saved, setSaved] = useState(false);

  async function save(next: QuietHours | null) {
    const before = hours;
    setHours(next);
    setError("");
    setSaved(false);
    try {
      const answer = await call("PUT /api/settings/quiet-hours", {}, { json: { quietHours: next } });
      setHours(answer.quietHours);
      setSaved(true);
    } catch {
      setHours(before);
      setError(phrase("Could not save, please try again."));
    }
  }
  const change = (part: Partial<QuietHours>) => hours && void save({ ...hours, ...part, timeZone: browserTimeZone() });

  return (
    <section className="narrow stack" aria-labelledby="quiet-title">
      <h2 id="quiet-title">{TEXTS.doNotDisturb}</h2>
      <p className="muted">{TEXTS.doNotDisturbHelp}</p>
      <label className="row">
        <input
          type="checkbox"
          checked={hours !== null}
          onChange={(e) => void save(e.target.checked ? { ...DEFAULT_HOURS, timeZone: browserTimeZone() } : null)}
        />
        {TEXTS.doNotDisturbOn}
      </label>
      {hours && (
        <div className="row">
          <label>
            {TEXTS.quietFrom}{" "}
            <input
              type="time"
              value={hours.from}
              required
              onChange={(e) => e.target.value && change({ from: e.target.value })}
            />
          </label>
          <label>
            {TEXTS.quietTo}{" "}
            <input
              type="time"
              value={hours.to}
              required
              onChange={(e) => e.target.value && change({ to: e.target.value })}
            />
          </label>
          <small>
            {TEXTS.timeZone}: {hours.timeZone}
          </small>
        </div>
      )}
      {error && <p className="error" role="alert">{error}</p>}
      {saved && !error && <p className="success" role="status">{TEXTS.saved}</p>}
    </section>
  );
}
