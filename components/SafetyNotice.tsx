/**
 * The one-time safety notice for a member where being gay is a crime (domain/safety.ts): what the
 * app does to protect them, advice, and a plain form that acknowledges it (no JavaScript needed).
 */

import { TEXTS } from "../domain/texts.ts";

export function SafetyNotice({ back }: { back: string }) {
  return (
    <aside className="safety-notice" role="alertdialog" aria-labelledby="safety-notice-title">
      <h2 id="safety-notice-title">{TEXTS.safetyNoticeTitle}</h2>
      <p>{TEXTS.safetyNotice}</p>
      <form method="post" action="/safety/notice">
        <input type="hidden" name="back" value={back} />
        <button type="submit" className="primary">{TEXTS.safetyNoticeOk}</button>
      </form>
    </aside>
  );
}
