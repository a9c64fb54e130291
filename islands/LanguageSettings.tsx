/**
 * The member's language (Account settings): one of the app's languages, or the browser's. Saved
 * on the account (PUT /api/settings/language); the page then loads again in it.
 */

import { useId, useState } from "react";
import { api } from "./queries/api.ts";
import { apiPath } from "../domain/apiPath.ts";
import { type Locale, LOCALE_NAMES, LOCALES } from "../domain/i18n.ts";
import { TEXTS } from "../domain/texts.ts";

export interface LanguageSettingsProps {
  /** The member's choice, or null to follow the browser. */
  current: Locale | null;
}

export default function LanguageSettings({ current }: LanguageSettingsProps) {
  const id = useId();
  const [value, setValue] = useState<string>(current ?? "");
  const [busy, setBusy] = useState(false);
  const change = async (next: string) => {
    setValue(next);
    setBusy(true);
    try {
      await api(apiPath("PUT /api/settings/language", {}), { method: "PUT", json: { language: next || null } });
      location.reload();
    } catch {
      setBusy(false);
    }
  };
  return (
    <section className="settings-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{TEXTS.language}</h2>
      <label htmlFor={`${id}-select`} className="visually-hidden">{TEXTS.language}</label>
      <select id={`${id}-select`} value={value} disabled={busy} onChange={(e) => void change(e.target.value)}>
        <option value="">{TEXTS.followBrowser}</option>
        {LOCALES.map((l) => <option key={l} value={l} lang={l}>{LOCALE_NAMES[l]}</option>)}
      </select>
    </section>
  );
}
