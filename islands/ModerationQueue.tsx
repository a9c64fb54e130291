/**
 * The moderation queue (admins): members with open reports, most reported and newest first, with
 * the jury's tally of each report; members under review and members whose sending is paused. An
 * admin dismisses a report, or confirms it with an action. Above it, member search by email, name
 * or id.
 */

import { phrase } from "../domain/phrases.ts";
import { useState } from "react";
import { api, ApiFailure } from "./queries/api.ts";
import { ActionForm } from "./admin/ActionForm.tsx";
import { Time } from "../components/Time.tsx";
import { apiPath } from "../domain/apiPath.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import type { MemberHit, QueueItem } from "../domain/shapes/moderation.ts";
import type { IdAdminItem } from "../domain/shapes/identify.ts";
import { SelfieQueue } from "./admin/SelfieQueue.tsx";
import { DUNGEON_TEXTS } from "../domain/dungeon.ts";

export interface ModerationQueueProps {
  items: QueueItem[];
  reasons: Record<string, string>;
  /** The selfies waiting for an admin's decision (3 2 1 Identify). */
  selfies: IdAdminItem[];
}

const memberHref = (id: string) => `/admin/members/${encodeURIComponent(id)}`;

function MemberSearch() {
  const [q, setQ] = useState("");
  const [hits, setHits] = useState<MemberHit[] | null>(null);
  const [error, setError] = useState("");
  const search = async (e: React.FormEvent) => {
    e.preventDefault();
    setError("");
    try {
      setHits((await api<{ items: MemberHit[] }>(apiPath("GET /api/admin/members", {}, { q }))).items);
    } catch (err) {
      setError(err instanceof ApiFailure ? err.message : phrase("Could not search."));
    }
  };
  return (
    <section aria-labelledby="member-search-title" className="member-search">
      <h2 id="member-search-title">{UI_TEXTS.findMember}</h2>
      <form role="search" onSubmit={search} className="row">
        <label htmlFor="member-q" className="visually-hidden">{UI_TEXTS.emailNameOrId}</label>
        <input
          id="member-q"
          type="search"
          placeholder={UI_TEXTS.emailNameOrId}
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
        <button type="submit">{UI_TEXTS.search}</button>
      </form>
      {error && <p className="error" role="alert">{error}</p>}
      {hits && (hits.length === 0 ? <p role="status">{UI_TEXTS.noMemberFound}</p> : (
        <ul className="list member-hits">
          {hits.map((h) => (
            <li key={h.profileId}>
              <a href={memberHref(h.profileId)}>{h.name}</a> <span className="muted">{h.email}</span>
              {h.withdrawal && <span className="badge">{h.withdrawal.kind}</span>}
            </li>
          ))}
        </ul>
      ))}
    </section>
  );
}

export default function ModerationQueue({ items: initial, reasons, selfies }: ModerationQueueProps) {
  const [items, setItems] = useState(initial);
  const [error, setError] = useState("");
  const [acting, setActing] = useState<string | null>(null);
  const dropReport = (profileId: string, reportId: string) =>
    setItems((list) =>
      list.map((it) =>
        it.profileId === profileId ? { ...it, openReports: it.openReports.filter((r) => r.id !== reportId) } : it
      ).filter((it) => it.openReports.length > 0 || it.withdrawal || it.sendingPaused)
    );
  const dismiss = async (profileId: string, reportId: string) => {
    setError("");
    try {
      await api(apiPath("PUT /api/admin/reports/:reportId", { reportId }), {
        method: "PUT",
        json: { decision: "DISMISS" },
      });
      dropReport(profileId, reportId);
    } catch (err) {
      setError(
        err instanceof ApiFailure && err.status < 500 ? err.message : phrase("Could not save, please try again."),
      );
    }
  };
  return (
    <div className="stack moderation">
      <MemberSearch />
      <section aria-labelledby="queue-title">
        <h2 id="queue-title">{UI_TEXTS.waitingForModerator}</h2>
        {error && <p className="error" role="alert">{error}</p>}
        {items.length === 0 ? <p className="empty">{UI_TEXTS.nothingWaiting}</p> : (
          <ul className="list queue">
            {items.map((it) => (
              <li key={it.profileId} className="queue-item" data-profile-id={it.profileId}>
                <p className="queue-head">
                  <a href={memberHref(it.profileId)}>{it.name ?? "(gone)"}</a>
                  <span className="badge">
                    {it.openReports.length} open report{it.openReports.length === 1 ? "" : "s"}
                  </span>
                  {it.withdrawal?.kind === "REVIEW" && <span className="badge warn">{UI_TEXTS.hiddenForReview}</span>}
                  {it.sendingPaused && <span className="badge warn">{UI_TEXTS.sendingPaused}</span>}
                  {it.spamHeld > 0 && <span className="badge">{it.spamHeld} held as spam</span>}
                </p>
                <ul className="reports">
                  {it.openReports.map((r) => (
                    <li key={r.id} data-report-id={r.id}>
                      <p>
                        <strong>{reasons[r.reason] ?? r.reason}</strong> · <Time ts={r.tsCreated} /> · jury{" "}
                        {r.case.violation} violation / {r.case.noViolation} no violation
                        {r.case.tsEscalated && <span className="badge warn">{DUNGEON_TEXTS.adminOverdue}</span>}
                      </p>
                      {r.text && <p className="report-text">{r.text}</p>}
                      <div className="row">
                        <button type="button" onClick={() => dismiss(it.profileId, r.id)}>{UI_TEXTS.dismiss}</button>
                        <button
                          type="button"
                          aria-expanded={acting === r.id}
                          onClick={() => setActing(acting === r.id ? null : r.id)}
                        >
                          {UI_TEXTS.confirmEllipsis}
                        </button>
                      </div>
                      {acting === r.id && (
                        <ActionForm
                          profileId={it.profileId}
                          reportId={r.id}
                          onDone={() => {
                            setActing(null);
                            dropReport(it.profileId, r.id);
                          }}
                        />
                      )}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </section>
      <p>
        <a href="/games/dungeon">{DUNGEON_TEXTS.adminLink}</a>
      </p>
      <SelfieQueue initial={selfies} />
    </div>
  );
}
