/**
 * What moderation tells a member on every page until it is done with: a warning with its reason
 * (acknowledged once with a plain form, no JavaScript needed), or that their profile is under
 * review. Never who reported.
 */

import { MODERATION_TEXTS } from "../domain/moderation.ts";
import type { AccountNotice } from "../domain/shapes/moderation.ts";

export function ModerationNotice({ notice, back }: { notice: AccountNotice; back: string }) {
  if (notice.kind === "REVIEW") {
    return (
      <aside className="moderation-notice review" role="status" aria-labelledby="moderation-notice-title">
        <h2 id="moderation-notice-title">{MODERATION_TEXTS.reviewTitle}</h2>
        <p>{MODERATION_TEXTS.review}</p>
      </aside>
    );
  }
  return (
    <aside className="moderation-notice warning" role="alertdialog" aria-labelledby="moderation-notice-title">
      <h2 id="moderation-notice-title">{MODERATION_TEXTS.warningTitle}</h2>
      <p className="moderation-reason">{notice.reason}</p>
      <form method="post" action="/moderation/notice">
        <input type="hidden" name="back" value={back} />
        <button type="submit" className="primary">{MODERATION_TEXTS.warningOk}</button>
      </form>
    </aside>
  );
}
