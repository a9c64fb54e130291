/**
 * Register / Recover Login (spec §2, §4, §5): an email and three acknowledgements; the server
 * mails a single-use login link. After sending, the button is hidden.
 */

import { type FormEvent, useState } from "react";
import { api, ApiFailure } from "./queries/api.ts";
import { ACKNOWLEDGEMENTS, TEXTS } from "../domain/texts.ts";
import { apiPath } from "../domain/apiPath.ts";

type State = "form" | "requesting" | "sent";

export default function RegisterForm() {
  const [email, setEmail] = useState("");
  const [acks, setAcks] = useState<Record<string, boolean>>({});
  const [error, setError] = useState("");
  const [state, setState] = useState<State>("form");

  function tick(id: string, on: boolean) {
    setAcks((a) => ({ ...a, [id]: on }));
    setError("");
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const address = email.trim().toLowerCase();
    if (!address.includes("@")) return setError(TEXTS.invalidEmail);
    if (!ACKNOWLEDGEMENTS.every((a) => acks[a.id])) return setError(TEXTS.acknowledgementsRequired);
    setState("requesting");
    try {
      await api(apiPath("POST /api/auth/register", {}), {
        method: "POST",
        json: { email: address, acknowledgements: ACKNOWLEDGEMENTS.map((a) => a.text) },
      });
      setState("sent");
    } catch (err) {
      // Spec §8: a failed request is not reported, except input the member can fix or a rate limit.
      if (err instanceof ApiFailure && (err.status === 400 || err.status === 429)) {
        setError(err.message);
        setState("form");
      } else setState("sent");
    }
  }

  return (
    <form className="stack narrow" onSubmit={submit} noValidate>
      <label>
        {TEXTS.email}
        <input type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
      </label>
      <fieldset className="stack">
        <legend>{TEXTS.acknowledgements}</legend>
        {ACKNOWLEDGEMENTS.map((a) => (
          <label key={a.id} className="check">
            <input type="checkbox" checked={!!acks[a.id]} onChange={(e) => tick(a.id, e.target.checked)} />{" "}
            {TEXTS.acks[a.id]}
          </label>
        ))}
      </fieldset>
      {error && <p className="error" role="alert">{error}</p>}
      {state === "requesting" && <p className="warning" role="status">{TEXTS.requesting}</p>}
      {state === "sent" && <p className="success" role="status">{TEXTS.checkEmail}</p>}
      {state === "form" && <button type="submit" className="primary">{TEXTS.sendLoginLink}</button>}
      <p className="links">
        <a href="/login">{TEXTS.backToLogin}</a>
      </p>
    </form>
  );
}
