/**
 * The actions panel of a profile (spec §2, §4): collapsed or expanded, with Block / Ignore and
 * Report Violation. Blocking asks to confirm first, then sets the `blocked` flag of the viewer's like of the profile, shows
 * 'Blocked and Redirecting...' for 3 seconds, then goes home (a tap goes at once). A report names a reason from a
 * fixed list and may carry up to 4000 characters of text. "Lock my private pictures" ends what
 * the member was shown of the viewer's pictures in chat that are not public.
 */

import { type FormEvent, useState } from "react";
import { QueryProvider } from "./queries/client.tsx";
import { type ProfileLike, useProfileLikeMutation, useProfileLikeQuery } from "./queries/likes.ts";
import { useReportMutation } from "./queries/reports.ts";
import { useLockPicturesMutation } from "./queries/pictures.ts";
import { ApiFailure } from "./queries/api.ts";
import { MAX_TEXT, REPORT_REASONS, type ReportReason, reportReasonLabel, TEXTS } from "../domain/texts.ts";
import { useOpenedByHash } from "./useOpenedByHash.ts";
import { SCREEN_TEXTS } from "../domain/screenTexts.ts";
import { FEEL_TEXTS } from "../domain/feelTexts.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";

/** How long 'Blocked and Redirecting...' shows before going home (spec §9). */
export const BLOCK_REDIRECT_MS = 3000;

export interface ActionsPanelProps {
  /** The viewer's like of the profile shown (its `likedProfileId` is that profile). */
  like: ProfileLike;
  profileName: string;
}

function ReportForm({ profileId, onDone }: { profileId: string; onDone: () => void }) {
  const report = useReportMutation();
  const [reason, setReason] = useState<ReportReason | "">("");
  const [text, setText] = useState("");
  const [error, setError] = useState("");

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!reason) return setError(TEXTS.chooseReason);
    setError("");
    report.mutate({ reportedProfileId: profileId, reason, text: text.trim() }, {
      onError: (err) => setError(err instanceof ApiFailure && err.status === 429 ? err.message : TEXTS.reportFailed),
    });
  }

  if (report.isSuccess) {
    return (
      <div className="stack">
        <p className="success" role="status">{TEXTS.reportSent}</p>
        <button type="button" onClick={onDone}>{TEXTS.close}</button>
      </div>
    );
  }
  return (
    <form className="stack report-form" onSubmit={submit} noValidate>
      <label>
        {TEXTS.reason}
        <select value={reason} onChange={(e) => setReason(e.target.value as ReportReason)} required>
          <option value="" disabled>{TEXTS.chooseAReason}</option>
          {REPORT_REASONS.map((r) => <option key={r.id} value={r.id}>{reportReasonLabel(r.id)}</option>)}
        </select>
      </label>
      <label>
        {TEXTS.whatHappened}
        <textarea
          rows={4}
          maxLength={MAX_TEXT}
          value={text}
          onChange={(e) => setText(e.target.value.slice(0, MAX_TEXT))}
        />
      </label>
      <span className="counter" aria-live="polite">{text.length}/{MAX_TEXT}</span>
      {error && <p className="error" role="alert">{error}</p>}
      <div className="row">
        <button type="submit" className="primary" disabled={report.isPending}>{TEXTS.sendReport}</button>
        <button type="button" onClick={onDone}>{TEXTS.cancel}</button>
      </div>
    </form>
  );
}

/** Leaves a blocked profile for home, once (the timer and a tap may both ask). */
let leaving = false;
function goHome() {
  if (leaving) return;
  leaving = true;
  location.assign("/");
}

function Panel({ like: initial, profileName }: ActionsPanelProps) {
  const { likerProfileId, likedProfileId } = initial;
  const { data } = useProfileLikeQuery(likerProfileId, likedProfileId, initial);
  const block = useProfileLikeMutation();
  const lock = useLockPicturesMutation();
  const [expanded, setExpanded] = useState(false);
  const [reporting, setReporting] = useState(false);
  const [redirecting, setRedirecting] = useState(false);
  // Blocking asks first: it hides both members from each other everywhere.
  const [confirming, setConfirming] = useState(false);
  // The profile's action bar links here (#actions).
  useOpenedByHash("actions", () => setExpanded(true));

  function blockNow() {
    block.mutate({ likerProfileId, likedProfileId, likeType: data?.likeType ?? "UNDETERMINED", blocked: true }, {
      onSuccess: () => {
        setRedirecting(true);
        // The blocked member's pictures, chat and buttons leave the screen at once (static/css/profile-browse.css).
        document.body.classList.add("blocked-clear");
        setTimeout(goHome, BLOCK_REDIRECT_MS);
      },
    });
  }

  if (redirecting) {
    // The whole screen says it; a tap (or Enter, Space, Esc) goes home at once instead of waiting.
    return (
      <section
        className="panel actions-panel blocked-screen"
        tabIndex={-1}
        ref={(el) => el?.focus()}
        onClick={goHome}
        onKeyDown={(e) => ["Enter", " ", "Escape"].includes(e.key) && goHome()}
      >
        <p className="blocked-message" role="status">{TEXTS.blockedRedirecting}</p>
      </section>
    );
  }
  return (
    <section
      id="actions"
      className={expanded ? "panel actions-panel expanded" : "panel actions-panel"}
      aria-label={TEXTS.actions}
    >
      <button
        type="button"
        className="panel-toggle"
        aria-expanded={expanded}
        onClick={() => setExpanded(!expanded)}
      >
        <span aria-hidden="true">⋯</span> {SCREEN_TEXTS.actions}
      </button>
      {expanded && (
        <div className="stack">
          {confirming && !reporting && (
            <div className="confirm" role="alertdialog" aria-labelledby="confirm-block">
              <p id="confirm-block">{FEEL_TEXTS.confirmBlock(profileName)}</p>
              <div className="row">
                <button type="button" className="danger" onClick={blockNow} disabled={block.isPending} autoFocus>
                  {FEEL_TEXTS.yesBlock}
                </button>
                <button type="button" onClick={() => setConfirming(false)}>{UI_TEXTS.cancel}</button>
              </div>
            </div>
          )}
          {!reporting && !confirming && (
            <div className="row">
              <button type="button" className="danger" onClick={() => setConfirming(true)}>
                {TEXTS.blockIgnore}
              </button>
              <button
                type="button"
                onClick={() => setReporting(true)}
              >
                {TEXTS.reportViolation}
              </button>
            </div>
          )}
          {!reporting && <p className="muted">{FEEL_TEXTS.blockingHides(profileName)}</p>}
          {!reporting && (
            <div className="row">
              <button
                type="button"
                onClick={() => lock.mutate(likedProfileId)}
                disabled={lock.isPending}
              >
                {TEXTS.lockPictures}
              </button>
              {lock.isSuccess && <span className="success" role="status">{TEXTS.picturesLocked}</span>}
            </div>
          )}
          {block.isError && <p className="error" role="alert">{TEXTS.blockFailed}</p>}
          {lock.isError && <p className="error" role="alert">{TEXTS.lockPicturesFailed}</p>}
          {reporting && (
            <ReportForm
              profileId={likedProfileId}
              onDone={() => setReporting(false)}
            />
          )}
        </div>
      )}
    </section>
  );
}

export default function ActionsPanel(props: ActionsPanelProps) {
  return (
    <QueryProvider>
      <Panel {...props} />
    </QueryProvider>
  );
}
