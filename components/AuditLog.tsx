/** The moderation audit log as admins read it: who did what to whom, when and why. Read only. */

import { UI_TEXTS } from "../domain/uiTexts.ts";
import type { AuditEntry } from "../domain/shapes/moderation.ts";

export function AuditLog({ entries }: { entries: AuditEntry[] }) {
  return (
    <section className="audit-log" aria-labelledby="audit-log-title">
      <h2 id="audit-log-title">{UI_TEXTS.auditLog}</h2>
      {entries.length === 0 ? <p className="empty">{UI_TEXTS.noModerationYet}</p> : (
        <table>
          <thead>
            <tr>
              <th scope="col">{UI_TEXTS.whenUtc}</th>
              <th scope="col">{UI_TEXTS.who}</th>
              <th scope="col">{UI_TEXTS.what}</th>
              <th scope="col">{UI_TEXTS.member}</th>
              <th scope="col">{UI_TEXTS.why}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td>
                  <time dateTime={new Date(e.ts).toISOString()}>
                    {new Date(e.ts).toISOString().slice(0, 16).replace("T", " ")}
                  </time>
                </td>
                <td>{e.byName}</td>
                <td>
                  {e.action}
                  {e.detail && <span className="muted">{e.detail}</span>}
                </td>
                <td>{e.target ? <a href={`/admin/members/${encodeURIComponent(e.target)}`}>{e.target}</a> : "—"}</td>
                <td>{e.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
