/** Contact form (spec §2, §5, §8): full name, message with a counter, Submit. */

import { phrase } from "../domain/phrases.ts";
import { type FormEvent, useState } from "react";
import { api, ApiFailure } from "./queries/api.ts";
import { MAX_TEXT, TEXTS } from "../domain/texts.ts";
import { apiPath } from "../domain/apiPath.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";

type State = "form" | "sending" | "sent" | "failed";

export default function ContactForm({ name: initialName }: { name: string }) {
  const [name, setName] = useState(initialName);
  const [message, setMessage] = useState("");
  const [error, setError] = useState("");
  const [state, setState] = useState<State>("form");

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError("");
    if (!name.trim()) return setError(TEXTS.contactNameRequired);
    if (!message.trim()) return setError(phrase("Please write a message."));
    setState("sending");
    try {
      await api(apiPath("POST /api/contactus-messages", {}), { method: "POST", json: { name: name.trim(), message } });
      setState("sent");
      setMessage("");
    } catch (err) {
      if (err instanceof ApiFailure && err.status === 429) setError(err.message);
      setState("failed");
    }
  }

  return (
    <form className="stack narrow" onSubmit={submit} noValidate>
      <label>
        {UI_TEXTS.fullName}
        <input value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" required />
      </label>
      <label>
        {UI_TEXTS.message}
        <textarea
          rows={8}
          maxLength={MAX_TEXT}
          value={message}
          onChange={(e) => setMessage(e.target.value.slice(0, MAX_TEXT))}
        />
        <span className="counter">{message.length}/{MAX_TEXT}</span>
      </label>
      {error && <p className="error" role="alert">{error}</p>}
      {state === "sending" && <p className="warning" role="status">{TEXTS.sending}</p>}
      {state === "sent" && <p className="success" role="status">{TEXTS.contactSent}</p>}
      {state === "failed" && <p className="error" role="alert">{TEXTS.contactFailed}</p>}
      <button type="submit" className="primary" disabled={state === "sending"}>{UI_TEXTS.submit}</button>
    </form>
  );
}
