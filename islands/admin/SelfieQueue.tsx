/**
 * The admins' queue of 3 2 1 Identify selfies (`PUT /api/admin/games/identify/{attemptId}`):
 * those sent to the admins first (the judges disagreed, or agreeing judges share an address or a
 * device), then those still with the judges, which an admin may decide too (a new community has
 * no eligible judges yet). An admin's answer decides alone and goes to the audit log. Shown in
 * the moderation queue and on the game's page.
 */

import { useState } from "react";
import { ApiFailure, call } from "../queries/api.ts";
import { type IdAnswer, IDENTIFY_TEXTS } from "../../domain/identify.ts";
import type { IdAdminItem } from "../../domain/shapes/identify.ts";
import { AnswerButtons, Evidence } from "../../components/SelfieEvidence.tsx";

/** Why a selfie waits: the judges disagreed, they share a place, or it is still with them. */
function waitingWhy(it: IdAdminItem): string {
  if (it.escalation === "SHARED_PLACE") return IDENTIFY_TEXTS.adminSharedPlace;
  if (it.escalation === "DISAGREED") return IDENTIFY_TEXTS.adminDisagreed;
  return IDENTIFY_TEXTS.adminWaiting;
}

export function SelfieQueue({ initial }: { initial: IdAdminItem[] }) {
  const [items, setItems] = useState(initial);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function decide(it: IdAdminItem, answer: IdAnswer) {
    setBusy(true);
    try {
      await call("PUT /api/admin/games/identify/:attemptId", { attemptId: it.attemptId }, { json: { answer } });
      setItems((list) => list.filter((x) => x.attemptId !== it.attemptId));
      setNote(IDENTIFY_TEXTS.decided);
    } catch (e) {
      setNote(e instanceof ApiFailure ? e.message : IDENTIFY_TEXTS.failed);
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="id-admin" aria-labelledby="id-admin-title">
      <h2 id="id-admin-title">{IDENTIFY_TEXTS.adminQueue}</h2>
      {items.length === 0 ? <p className="game-empty">{IDENTIFY_TEXTS.adminEmpty}</p> : (
        <ul className="id-admin-list">
          {items.map((it) => (
            <li key={it.attemptId} className="game-card" data-attempt={it.attemptId} data-status={it.status}>
              <p className="id-admin-why">{waitingWhy(it)}</p>
              <p>{IDENTIFY_TEXTS.adminAnswers(it.same, it.notSame, it.wrongPose)}</p>
              <Evidence item={it} />
              <AnswerButtons
                onAnswer={(a) =>
                  decide(it, a)}
                busy={busy}
              />
            </li>
          ))}
        </ul>
      )}
      {note && <p className="id-message" role="status">{note}</p>}
    </section>
  );
}
