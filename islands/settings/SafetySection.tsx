/**
 * Safety in Account settings: "show me to everyone" where being gay is a crime (off by default
 * there: only the members one liked see one), and discreet mode for this device (neutral titles
 * and icon, a quick exit). Each box saves at once; discreet mode reloads the page so its title
 * and icon change.
 */

import { phrase } from "../../domain/phrases.ts";
import { useState } from "react";
import { api, call } from "../queries/api.ts";
import { VERIFIED_TEXTS } from "../../domain/verified.ts";
import { TEXTS } from "../../domain/texts.ts";
import { FEEL_TEXTS } from "../../domain/feelTexts.ts";
import { apiPath } from "../../domain/apiPath.ts";

/** What the settings page knows of the member's safety. */
export interface SafetyState {
  atRisk: boolean;
  showToEveryone: boolean;
  discreet: boolean;
  hidePresence: boolean;
  /** "Only verified members can message me" (3 2 1 Identify). */
  onlyVerified: boolean;
}

export function SafetySection({ initial }: { initial: SafetyState }) {
  const [state, setState] = useState(initial);
  const [error, setError] = useState("");
  /** Shows the change at once, saves it, and puts the box back if the save fails. */
  async function save(change: Partial<Pick<SafetyState, "showToEveryone" | "discreet">>) {
    const before = state;
    setError("");
    setState({ ...state, ...change });
    try {
      const saved = await api<Omit<SafetyState, "hidePresence">>(apiPath("PUT /api/safety", {}), {
        method: "PUT",
        json: change,
      });
      setState((s) => ({ ...s, ...saved }));
      if (change.discreet !== undefined) location.reload();
    } catch {
      setState(before);
      setError(phrase("Could not save, please try again."));
    }
  }
  async function savePresence(hidden: boolean) {
    setError("");
    setState({ ...state, hidePresence: hidden });
    try {
      await api(apiPath("PUT /api/presence", {}), { method: "PUT", json: { hidden } });
    } catch {
      setState({ ...state, hidePresence: !hidden });
      setError(phrase("Could not save, please try again."));
    }
  }
  async function saveOnlyVerified(on: boolean) {
    setError("");
    setState({ ...state, onlyVerified: on });
    try {
      await call("PUT /api/settings/verified-only", {}, { json: { on } });
    } catch {
      setState({ ...state, onlyVerified: !on });
      setError(phrase("Could not save, please try again."));
    }
  }
  return (
    <section className="narrow stack safety" aria-labelledby="safety-title">
      <h2 id="safety-title">{TEXTS.safetyAndPrivacy}</h2>
      {state.atRisk && <p className="notice">{TEXTS.safetyNoticeTitle}: {TEXTS.safetyNotice}</p>}
      <label className="check">
        <input
          type="checkbox"
          checked={state.showToEveryone}
          onChange={(e) => save({ showToEveryone: e.target.checked })}
        />{" "}
        {state.discreet ? FEEL_TEXTS.showToEveryoneDiscreet : TEXTS.showToEveryone}
      </label>
      <label className="check">
        <input type="checkbox" checked={state.discreet} onChange={(e) => save({ discreet: e.target.checked })} />{" "}
        {TEXTS.discreetMode}
      </label>
      <label className="check">
        <input type="checkbox" checked={state.hidePresence} onChange={(e) => savePresence(e.target.checked)} />{" "}
        {TEXTS.hidePresence}
      </label>
      <label className="check">
        <input type="checkbox" checked={state.onlyVerified} onChange={(e) => saveOnlyVerified(e.target.checked)} />{" "}
        {VERIFIED_TEXTS.onlyVerifiedMessage}
      </label>
      <p className="muted">{VERIFIED_TEXTS.onlyVerifiedMessageHelp}</p>
      {error && <p className="error" role="alert">{error}</p>}
    </section>
  );
}
