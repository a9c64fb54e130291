/**
 * The admin's end of Community Arbitration: every report with the jurors' tally and its status;
 * an open one is confirmed or dismissed, which closes it (`PUT /api/admin/reports/{id}`).
 */

import { useState } from "react";
import { api, ApiFailure } from "./queries/api.ts";
import { profileUrl, shortName } from "../domain/format.ts";
import { GAME_TEXTS } from "../domain/games.ts";
import { apiPath } from "../domain/apiPath.ts";
import type { ReportCase } from "../domain/shapes/moderation.ts";
import type { ArbDecision } from "../domain/shapes/games.ts";

export type AdminReportItem = ReportCase;

export interface AdminReportsProps {
  items: AdminReportItem[];
  reasons: Record<string, string>;
}

const STATUS: Record<AdminReportItem["case"]["status"], string> = {
  OPEN: "Open",
  CONFIRMED: "Confirmed",
  DISMISSED: "Dismissed",
};

function ProfileLink({ id, name }: { id: string; name: string | null }) {
  return name ? <a href={profileUrl(id)}>{shortName(name)}</a> : <span>(gone)</span>;
}

export default function AdminReports({ items: initial, reasons }: AdminReportsProps) {
  const [items, setItems] = useState(initial);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState("");

  const decide = async (id: string, decision: ArbDecision) => {
    setBusy(id);
    setError("");
    try {
      const r = await api<{ case: AdminReportItem["case"] }>(
        apiPath("PUT /api/admin/reports/:reportId", { reportId: id }),
        {
          method: "PUT",
          json: { decision },
        },
      );
      setItems((list) => list.map((x) => x.id === id ? { ...x, case: r.case } : x));
    } catch (e) {
      setError(e instanceof ApiFailure && e.status < 500 ? e.message : GAME_TEXTS.saveFailed);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="admin-reports" aria-labelledby="admin-reports-title">
      <h2 id="admin-reports-title">{GAME_TEXTS.adminReports}</h2>
      {error && <p className="error" role="alert">{error}</p>}
      {items.length === 0 ? <p className="game-empty">{GAME_TEXTS.adminNoReports}</p> : (
        <ul>
          {items.map((r) => (
            <li key={r.id} data-report-id={r.id} className={`report-${r.case.status.toLowerCase()}`}>
              <p className="admin-report-head">
                <strong>{reasons[r.reason] ?? r.reason}</strong>
                <span className={`report-status status-${r.case.status.toLowerCase()}`}>{STATUS[r.case.status]}</span>
              </p>
              <p className="admin-report-who">
                <ProfileLink id={r.reportedProfileId} name={r.reportedName} /> reported by{" "}
                <ProfileLink id={r.reporterProfileId} name={r.reporterName} />
              </p>
              {r.text && <p className="game-text">{r.text}</p>}
              <p className="tally-legend">
                <span>{GAME_TEXTS.violation}: {r.case.violation}</span>
                <span>{GAME_TEXTS.noViolation}: {r.case.noViolation}</span>
              </p>
              {r.case.status === "OPEN" && (
                <div className="game-buttons">
                  <button
                    type="button"
                    className="vote-no"
                    disabled={busy === r.id}
                    onClick={() => decide(r.id, "CONFIRM")}
                  >
                    {GAME_TEXTS.adminConfirm}
                  </button>
                  <button type="button" disabled={busy === r.id} onClick={() => decide(r.id, "DISMISS")}>
                    {GAME_TEXTS.adminDismiss}
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
