/**
 * An admin's page of one member: who they are, whether they are hidden and why, their pictures,
 * the reports about them (with the jury's tally) and by them, every action taken (lift one), notes
 * for other moderators, and the audit lines about them.
 */

import { useState } from "react";
import { api, ApiFailure } from "./queries/api.ts";
import { ActionForm } from "./admin/ActionForm.tsx";
import { Time } from "../components/Time.tsx";
import { profilePicUrl } from "../domain/format.ts";
import { formatUntil, MODERATION_TEXTS } from "../domain/moderation.ts";
import { apiPath } from "../domain/apiPath.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import type { MemberFile as File, ModAction, ModNote } from "../domain/shapes/moderation.ts";
import { phrase } from "../domain/phrases.ts";

export interface MemberFileProps {
  file: File;
  reasons: Record<string, string>;
}

export default function MemberFile({ file: initial, reasons }: MemberFileProps) {
  const [file, setFile] = useState(initial);
  const [note, setNote] = useState("");
  const [error, setError] = useState("");
  const id = file.profile.id;
  const reload = async () => setFile(await api<File>(apiPath("GET /api/admin/members/:profileId", { profileId: id })));
  const run = async (f: () => Promise<unknown>) => {
    setError("");
    try {
      await f();
      await reload();
    } catch (err) {
      setError(
        err instanceof ApiFailure && err.status < 500 ? err.message : phrase("Could not save, please try again."),
      );
    }
  };
  const pics = file.profile.profilePicIds;
  const privateCount = file.profile.profilePicIdsPrivate.length;
  const w = file.withdrawal;
  return (
    <div className="stack member-file">
      <section aria-labelledby="member-who">
        <h2 id="member-who">{file.profile.profilename}</h2>
        <dl className="facts">
          <dt>{UI_TEXTS.email}</dt>
          <dd>{file.account?.email ?? "(no account)"}</dd>
          <dt>{UI_TEXTS.roles}</dt>
          <dd>{file.account?.roles.join(", ")}</dd>
          <dt>{UI_TEXTS.memberSince}</dt>
          <dd>{file.account && <Time ts={file.account.tsCreated} />}</dd>
          <dt>{UI_TEXTS.profileId}</dt>
          <dd>
            <code>{id}</code>
          </dd>
          <dt>{UI_TEXTS.status}</dt>
          <dd>
            {!w && !file.sendingPaused && phrase("Visible")}
            {w?.kind === "REVIEW" && UI_TEXTS.hiddenForReview}
            {w?.kind === "SUSPENSION" && `Suspended until ${formatUntil(w.until!)}`}
            {w?.kind === "BAN" && "Banned"}
            {file.sendingPaused && ` · Sending paused: ${file.sendingPaused.why}`}
          </dd>
          <dt>{UI_TEXTS.heldAsSpam}</dt>
          <dd>{file.spamHeld}</dd>
        </dl>
        {error && <p className="error" role="alert">{error}</p>}
        <div className="row">
          {w?.kind === "REVIEW" && (
            <button
              type="button"
              onClick={() =>
                run(() =>
                  api(apiPath("DELETE /api/admin/members/:profileId/review", { profileId: id }), { method: "DELETE" })
                )}
            >
              {UI_TEXTS.endReview}
            </button>
          )}
          {file.sendingPaused && (
            <button
              type="button"
              onClick={() =>
                run(() =>
                  api(apiPath("DELETE /api/admin/members/:profileId/sending-pause", { profileId: id }), {
                    method: "DELETE",
                  })
                )}
            >
              {UI_TEXTS.letThemSend}
            </button>
          )}
        </div>
      </section>

      <section aria-labelledby="member-act">
        <h2 id="member-act">{UI_TEXTS.takeAction}</h2>
        <ActionForm profileId={id} onDone={() => void reload()} />
      </section>

      <section aria-labelledby="member-actions">
        <h2 id="member-actions">{UI_TEXTS.actions}</h2>
        {file.actions.length === 0 ? <p className="empty">{UI_TEXTS.none}</p> : (
          <ul className="list">
            {file.actions.map((a: ModAction) => (
              <li key={a.id} data-action-id={a.id}>
                <strong>{MODERATION_TEXTS.kinds[a.kind]}</strong>
                {a.days ? ` · ${a.days} days` : ""} · <Time ts={a.tsCreated} /> · by {a.byName} · “{a.reason}”
                {a.tsLifted ? <span className="badge">{UI_TEXTS.lifted}</span> : (
                  <button
                    type="button"
                    onClick={() =>
                      run(() =>
                        api(
                          apiPath("DELETE /api/admin/members/:profileId/actions/:actionId", {
                            profileId: id,
                            actionId: a.id,
                          }),
                          {
                            method: "DELETE",
                          },
                        )
                      )}
                  >
                    {UI_TEXTS.lift}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="member-reports">
        <h2 id="member-reports">{UI_TEXTS.reportsAbout}</h2>
        {file.reportsAbout.length === 0 ? <p className="empty">{UI_TEXTS.none}</p> : (
          <ul className="list">
            {file.reportsAbout.map((r) => (
              <li key={r.id}>
                <strong>{reasons[r.reason] ?? r.reason}</strong> · <Time ts={r.tsCreated} /> · {r.case.status} · jury
                {" "}
                {r.case.violation} / {r.case.noViolation} · by {r.reporterName ?? "(gone)"}
                {r.text && <p className="report-text">{r.text}</p>}
              </li>
            ))}
          </ul>
        )}
        <h3>{UI_TEXTS.reportsMade}</h3>
        {file.reportsMade.length === 0 ? <p className="empty">{UI_TEXTS.none}</p> : (
          <ul className="list">
            {file.reportsMade.map((r) => (
              <li key={r.id}>
                {reasons[r.reason] ?? r.reason} about {r.reportedName ?? "(gone)"} · <Time ts={r.tsCreated} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="member-pics">
        <h2 id="member-pics">{UI_TEXTS.pictures}</h2>
        {privateCount > 0 && <p className="muted">And {privateCount} private.</p>}
        {pics.length === 0 ? <p className="empty">{UI_TEXTS.none}</p> : (
          <ul className="admin-pics">
            {pics.map((p) => (
              <li key={p}>
                <img src={profilePicUrl(p, 256)} alt={UI_TEXTS.membersPicture} loading="lazy" />
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="member-notes">
        <h2 id="member-notes">{UI_TEXTS.moderatorsNotes}</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void run(() =>
              api(apiPath("POST /api/admin/members/:profileId/notes", { profileId: id }), {
                method: "POST",
                json: { text: note },
              })
            ).then(() => setNote(""));
          }}
        >
          <label htmlFor="mod-note">{phrase("A note for other moderators")}</label>
          <textarea id="mod-note" value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
          <button type="submit" disabled={!note.trim()}>{UI_TEXTS.addNote}</button>
        </form>
        <ul className="list">
          {file.notes.map((n: ModNote) => (
            <li key={n.id}>
              <Time ts={n.ts} /> · {n.byName}: {n.text}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="member-audit">
        <h2 id="member-audit">{UI_TEXTS.auditLog}</h2>
        <ul className="list audit">
          {file.audit.map((e) => (
            <li key={e.id}>
              <Time ts={e.ts} /> · {e.byName} · {e.action}
              {e.detail && ` · ${e.detail}`}
              {e.reason && ` · “${e.reason}”`}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
