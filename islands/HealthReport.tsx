/**
 * Health Incident Report: the member picks what they were diagnosed with and how far back to go,
 * sees the members they exchanged messages with in that period (all ticked), and sends. Once sent,
 * the list is gone from the page: nothing names whom they told, here or anywhere.
 */

import { useEffect, useState } from "react";
import { api, ApiFailure } from "./queries/api.ts";
import { apiPath } from "../domain/apiPath.ts";
import type { ApiAnswer } from "../domain/contract.ts";
import { GAME_TEXTS } from "../domain/games.ts";
import {
  HEALTH_CONDITIONS,
  HEALTH_PERIOD_CHOICES,
  HEALTH_WINDOW_DAYS,
  type HealthCondition,
} from "../domain/health.ts";
import { BackToGames } from "../components/BackToGames.tsx";

export interface HealthReportProps {
  remaining: number;
  tooNew: boolean;
}

type Contacts = ApiAnswer<"GET /api/games/healthreport/contacts">["items"];

export default function HealthReport(props: HealthReportProps) {
  const T = GAME_TEXTS.health;
  const [condition, setCondition] = useState<HealthCondition | "">("");
  const [days, setDays] = useState<number>(90);
  const [contacts, setContacts] = useState<Contacts | null>(null);
  const [ticked, setTicked] = useState<Set<string>>(new Set());
  const [remaining, setRemaining] = useState(props.remaining);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!condition || props.tooNew) return;
    let live = true;
    setContacts(null);
    api<ApiAnswer<"GET /api/games/healthreport/contacts">>(
      apiPath("GET /api/games/healthreport/contacts", {}, { days }),
    ).then((r) => {
      if (!live) return;
      setContacts(r.items);
      setTicked(new Set(r.items.map((c) => c.profileId)));
      setRemaining(r.remaining);
    }, () => live && setError(GAME_TEXTS.loadFailed));
    return () => {
      live = false;
    };
  }, [condition, days]);

  const pick = (c: HealthCondition | "") => {
    setCondition(c);
    setSent(null);
    setError(null);
    if (c) setDays(HEALTH_WINDOW_DAYS[c]);
  };

  const toggle = (id: string) => {
    const next = new Set(ticked);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setTicked(next);
  };

  const send = async () => {
    if (!condition || ticked.size === 0) return;
    setBusy(true);
    setError(null);
    try {
      const r = await api<ApiAnswer<"POST /api/games/healthreport">>(apiPath("POST /api/games/healthreport", {}), {
        method: "POST",
        json: { condition, days, profileIds: [...ticked] },
      });
      // Nothing of the choice stays on the page.
      setContacts(null);
      setTicked(new Set());
      setCondition("");
      setSent(r.queued);
      setRemaining((n) => Math.max(0, n - 1));
    } catch (e) {
      setError(e instanceof ApiFailure && e.status < 500 && e.status > 0 ? e.message : T.sendFailed);
    } finally {
      setBusy(false);
    }
  };

  if (props.tooNew) return <p className="game-empty health-too-new">{T.tooNew}</p>;

  return (
    <div className="game health-report">
      <p className="health-privacy">{T.privacyNote}</p>
      <p className="health-remaining" aria-live="polite">
        {remaining > 0 ? T.remaining(remaining) : T.limitReached}
      </p>
      {sent !== null && <p className="health-sent" role="status">{T.sent(sent)}</p>}
      {remaining > 0 && (
        <form
          className="health-form"
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <label>
            {T.conditionLabel}{" "}
            <select
              name="condition"
              value={condition}
              onChange={(e) => pick(e.currentTarget.value as HealthCondition | "")}
            >
              <option value="">{T.chooseCondition}</option>
              {HEALTH_CONDITIONS.map((c) => <option key={c} value={c}>{T.conditions[c]}</option>)}
            </select>
          </label>
          {condition && (
            <>
              <label>
                {T.periodLabel}{" "}
                <select name="days" value={days} onChange={(e) => setDays(Number(e.currentTarget.value))}>
                  {HEALTH_PERIOD_CHOICES.map((d) => <option key={d} value={d}>{T.periodOption(d)}</option>)}
                </select>
              </label>
              <p className="muted">{T.usualPeriod(HEALTH_WINDOW_DAYS[condition])}</p>
              <fieldset className="health-contacts">
                <legend>{T.contactsTitle}</legend>
                <p className="muted">{T.contactsHelp}</p>
                {contacts === null
                  ? <p aria-busy="true">…</p>
                  : contacts.length === 0
                  ? <p className="game-empty">{T.noContacts}</p>
                  : (
                    <ul>
                      {contacts.map((c) => (
                        <li key={c.profileId}>
                          <label>
                            <input
                              type="checkbox"
                              checked={ticked.has(c.profileId)}
                              onChange={() => toggle(c.profileId)}
                            />{" "}
                            {c.profileName}
                          </label>
                        </li>
                      ))}
                    </ul>
                  )}
              </fieldset>
              <div className="game-buttons">
                <button type="submit" className="primary" disabled={busy || ticked.size === 0}>
                  {busy ? T.sending : T.send}
                </button>
              </div>
            </>
          )}
        </form>
      )}
      {error && <p className="error" role="alert">{error}</p>}
      <BackToGames />
    </div>
  );
}
