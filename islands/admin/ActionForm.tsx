/**
 * An admin's action on a member: a warning, a suspension of 1, 7 or 30 days, or a ban, with the
 * reason the member will read (`POST /api/admin/members/{profileId}/actions`). Given a report, the
 * same click confirms it.
 */

import { useId, useState } from "react";
import { api, ApiFailure } from "../queries/api.ts";
import { MAX_REASON, MODERATION_TEXTS, SUSPENSION_DAYS } from "../../domain/moderation.ts";
import { apiPath } from "../../domain/apiPath.ts";
import { UI_TEXTS } from "../../domain/uiTexts.ts";
import { ACTION_KINDS, type ActionKind, type ModAction } from "../../domain/shapes/moderation.ts";
import { phrase } from "../../domain/phrases.ts";

export interface ActionFormProps {
  profileId: string;
  reportId?: string;
  onDone: (a: ModAction) => void;
}

export function ActionForm({ profileId, reportId, onDone }: ActionFormProps) {
  const id = useId();
  const [kind, setKind] = useState<ActionKind>("WARNING");
  const [days, setDays] = useState<number>(7);
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError("");
    try {
      const a = await api<ModAction>(apiPath("POST /api/admin/members/:profileId/actions", { profileId }), {
        method: "POST",
        json: { kind, reason, ...(kind === "SUSPENSION" ? { days } : {}), ...(reportId ? { reportId } : {}) },
      });
      setReason("");
      onDone(a);
    } catch (err) {
      setError(
        err instanceof ApiFailure && err.status < 500 ? err.message : phrase("Could not save, please try again."),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="action-form" onSubmit={submit}>
      <label htmlFor={`${id}-kind`}>{UI_TEXTS.action}</label>
      <select id={`${id}-kind`} value={kind} onChange={(e) => setKind(e.target.value as ActionKind)}>
        {ACTION_KINDS.map((k) => <option key={k} value={k}>{MODERATION_TEXTS.kinds[k]}</option>)}
      </select>
      {kind === "SUSPENSION" && (
        <>
          <label htmlFor={`${id}-days`}>{UI_TEXTS.days}</label>
          <select id={`${id}-days`} value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {SUSPENSION_DAYS.map((d) => <option key={d} value={d}>{d === 1 ? "1 day" : `${d} days`}</option>)}
          </select>
        </>
      )}
      <label htmlFor={`${id}-reason`}>{UI_TEXTS.reasonMemberReads}</label>
      <input
        id={`${id}-reason`}
        value={reason}
        maxLength={MAX_REASON}
        required
        onChange={(e) => setReason(e.target.value)}
      />
      {error && <p className="error" role="alert">{error}</p>}
      <button type="submit" className="primary" disabled={busy || !reason.trim()}>
        {reportId ? phrase("Confirm report and act") : phrase("Take action")}
      </button>
    </form>
  );
}
