/**
 * Bad Boy Dungeon: for a member in a time-out, the reform card (the reported lines with other names
 * removed, the rule, what is restricted and until when), the rules quiz that shortens the stay once
 * by a third, and the one appeal to the admins. For everyone else nothing of anyone: the page
 * around it says how the dungeon works and how many serve. Admins see the stays in force and the
 * appeals waiting, and answer them or end a stay. The quiz and the appeal go through the device's
 * outbox like a like (with its idempotency key, so a retry lands once): offline, they wait on the
 * device, shown as pending, and are sent when the connection returns; their answer then shows.
 */

import { useEffect, useState } from "react";
import { Hourglass } from "../components/icons.ts";
import { api, ApiFailure } from "./queries/api.ts";
import { type QueuedRoute, useQueuedWrite, whenWriteDelivered, writeThroughOutbox } from "./queries/outbox.ts";
import { QueuedFailure } from "./queries/QueuedFailure.tsx";
import { apiPath } from "../domain/apiPath.ts";
import { DUNGEON_TEXTS, itemsOf, type RestrictedAction } from "../domain/dungeon.ts";
import { formatUntil } from "../domain/moderation.ts";
import type { DungeonAdminItem, ReformCard } from "../domain/shapes/dungeon.ts";

export interface DungeonProps {
  card: ReformCard | null;
  /** Admins only: the stays in force and the appeals waiting. */
  admin?: DungeonAdminItem[];
}

type Rule = keyof typeof DUNGEON_TEXTS.rules;

/** Why a write did not go, as the member reads it. */
function failure(e: unknown): string {
  if (e instanceof ApiFailure && e.status === 0) return DUNGEON_TEXTS.offline;
  if (e instanceof ApiFailure && e.status >= 400 && e.status < 500) return e.message;
  // The outbox hands back the server's refusal as a plain error with its message.
  if (!(e instanceof ApiFailure) && e instanceof Error && e.message) return e.message;
  return DUNGEON_TEXTS.sendFailed;
}

const QUIZ: QueuedRoute = "POST /api/games/dungeon/quiz";
const APPEAL: QueuedRoute = "POST /api/games/dungeon/appeal";

/** A quiz or appeal waiting on this device for a connection (as a like shows), or refused later, with a retry. */
function QueuedState({ route, text }: { route: typeof QUIZ | typeof APPEAL; text: string }) {
  const queued = useQueuedWrite(route, {});
  if (!queued) return null;
  if (queued.failed) return <QueuedFailure queued={queued} className="dungeon-failed" />;
  return (
    <p className="dungeon-queued" role="status">
      <Hourglass className="icon" aria-hidden="true" /> {text}
    </p>
  );
}

function Quiz({ onPassed }: { onPassed: (card: ReformCard) => void }) {
  const T = DUNGEON_TEXTS;
  const [answers, setAnswers] = useState<(number | null)[]>(itemsOf(T.questions).map(() => null));
  const [wrong, setWrong] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const waiting = useQueuedWrite(QUIZ, {});
  // The server's answer, whether the quiz went at once or later from the outbox.
  useEffect(() =>
    whenWriteDelivered("POST /api/games/dungeon/quiz", (r) => {
      if (r.passed) onPassed(r.card);
      else setWrong(r.wrong);
    }), []);
  const send = async (e: React.FormEvent) => {
    e.preventDefault();
    setError("");
    setWrong([]);
    setBusy(true);
    try {
      // Null: kept on the device until the connection returns (shown by QueuedState).
      await writeThroughOutbox("POST /api/games/dungeon/quiz", { answers: answers.map((a) => a ?? 9) });
    } catch (err) {
      setError(failure(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="game-card dungeon-quiz" onSubmit={send} aria-labelledby="dungeon-quiz-title">
      <h2 id="dungeon-quiz-title">{T.quizTitle}</h2>
      <p className="muted">{T.quizLead}</p>
      {itemsOf(T.questions).map((q, i) => (
        <fieldset
          key={i}
          className={wrong.includes(i) ? "dungeon-q wrong" : "dungeon-q"}
          aria-invalid={wrong.includes(i)}
        >
          <legend>{q.q}</legend>
          {itemsOf(q.options).map((o, j) => (
            <label key={j} className="check dungeon-option">
              <input
                type="radio"
                name={`q${i}`}
                value={j}
                required
                checked={answers[i] === j}
                onChange={() => setAnswers((a) => a.map((x, k) => k === i ? j : x))}
              />{" "}
              {o}
            </label>
          ))}
        </fieldset>
      ))}
      {wrong.length > 0 && <p className="error" role="alert">{T.quizWrong(wrong.length)}</p>}
      {error && <p className="error" role="alert">{error}</p>}
      <QueuedState route={QUIZ} text={T.quizQueued} />
      <button type="submit" className="primary" disabled={busy || !!waiting}>{T.quizSend}</button>
    </form>
  );
}

function AppealForm({ onSent }: { onSent: (card: ReformCard) => void }) {
  const T = DUNGEON_TEXTS;
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const waiting = useQueuedWrite(APPEAL, {});
  useEffect(() => whenWriteDelivered("POST /api/games/dungeon/appeal", (r) => onSent(r.card)), []);
  const send = async (e: React.FormEvent) => {
    e.preventDefault();
    setError("");
    setBusy(true);
    try {
      // Null: kept on the device until the connection returns (shown by QueuedState).
      await writeThroughOutbox("POST /api/games/dungeon/appeal", { text });
    } catch (err) {
      setError(failure(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="game-card dungeon-appeal" onSubmit={send} aria-labelledby="dungeon-appeal-title">
      <h2 id="dungeon-appeal-title">{T.appealTitle}</h2>
      <p className="muted">{T.appealLead}</p>
      <label htmlFor="dungeon-appeal-text">{T.appealLabel}</label>
      <textarea
        id="dungeon-appeal-text"
        rows={4}
        maxLength={2000}
        required
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      {error && <p className="error" role="alert">{error}</p>}
      <QueuedState route={APPEAL} text={T.appealQueued} />
      <button type="submit" disabled={busy || !!waiting || !text.trim()}>{T.appealSend}</button>
    </form>
  );
}

function Card({ card, setCard }: { card: ReformCard; setCard: (c: ReformCard) => void }) {
  const T = DUNGEON_TEXTS;
  const [passed, setPassed] = useState(false);
  const rule = T.rules[(card.reason in T.rules ? card.reason : "other") as Rule];
  const upheld = card.appeal?.status === "UPHELD";
  return (
    <>
      <article className="game-card reform-card" aria-labelledby="reform-title" data-active={card.active}>
        <h2 id="reform-title">{T.cardTitle}</h2>
        {!card.active
          ? <p role="status" className="dungeon-ended">{upheld ? T.appealUpheld : T.ended}</p>
          : <p>{T.cardLead}</p>}
        <p className="dungeon-step">{T.stepOf(card.step)}</p>
        <h3>{T.linesTitle}</h3>
        {card.lines.length
          ? (
            <blockquote className="game-text reform-lines">
              {card.lines.map((l, i) => <p key={i} dir="auto">{l}</p>)}
            </blockquote>
          )
          : <p className="muted">{T.noLines}</p>}
        <h3>{T.ruleTitle}</h3>
        <p className="reform-rule">{rule}</p>
        {card.active && (
          <>
            <h3>{T.restrictedTitle}</h3>
            <ul className="reform-restricted">
              {card.restricts.map((r: RestrictedAction) => <li key={r}>{T.restricted[r]}</li>)}
            </ul>
            <p className="reform-until">
              <strong>{T.untilTitle}:</strong>{" "}
              <time dateTime={new Date(card.until).toISOString()}>{formatUntil(card.until)}</time>
            </p>
            <p className="muted">{T.stillYouCan}</p>
          </>
        )}
      </article>
      {passed && <p role="status" className="dungeon-passed">{T.quizPassed}</p>}
      {card.active && card.quizAt === null && (
        <Quiz
          onPassed={(c) => {
            setPassed(true);
            setCard(c);
          }}
        />
      )}
      {card.active && card.quizAt !== null && !passed && <p className="muted">{T.quizUsed}</p>}
      {card.active && !card.appeal && <AppealForm onSent={setCard} />}
      {card.active && card.appeal?.status === "PENDING" && (
        <p role="status" className="dungeon-appeal-state">{T.appealPending}</p>
      )}
      {card.appeal?.status === "REJECTED" && <p className="dungeon-appeal-state">{T.appealRejected}</p>}
    </>
  );
}

function AdminList({ initial }: { initial: DungeonAdminItem[] }) {
  const T = DUNGEON_TEXTS;
  const [items, setItems] = useState(initial);
  const [error, setError] = useState("");
  const act = async (it: DungeonAdminItem, what: "END" | "UPHOLD" | "REJECT") => {
    setError("");
    try {
      if (what === "END") {
        await api(apiPath("DELETE /api/admin/dungeon/stays/:profileId", { profileId: it.profileId }), {
          method: "DELETE",
        });
      } else {
        await api(apiPath("PUT /api/admin/dungeon/appeals/:stayId", { stayId: it.stayId }), {
          method: "PUT",
          json: { decision: what },
        });
      }
      setItems((xs) =>
        what === "REJECT"
          ? xs.map((x) =>
            x.stayId === it.stayId ? { ...x, appeal: x.appeal && { ...x.appeal, status: "REJECTED" } } : x
          )
          : xs.filter((x) => x.stayId !== it.stayId)
      );
    } catch (err) {
      setError(failure(err));
    }
  };
  return (
    <section className="dungeon-admin" aria-labelledby="dungeon-admin-title">
      <h2 id="dungeon-admin-title">{T.adminTitle}</h2>
      {error && <p className="error" role="alert">{error}</p>}
      {items.length === 0 ? <p className="game-empty">{T.adminNone}</p> : (
        <ul className="list">
          {items.map((it) => (
            <li key={it.stayId} data-stay-id={it.stayId} className="game-card">
              <p>
                <a href={`/admin/members/${encodeURIComponent(it.profileId)}`}>{it.name ?? "(gone)"}</a> ·{" "}
                {T.rules[(it.reason in T.rules ? it.reason : "other") as Rule]} · {T.untilTitle} {formatUntil(it.until)}
                {it.step === 3 && <span className="badge warn">{T.adminThird}</span>}
              </p>
              {it.appeal && (
                <p className="game-text">
                  <strong>{T.adminAppeal}:</strong> {it.appeal.text}
                </p>
              )}
              <div className="row">
                {it.active && <button type="button" onClick={() => act(it, "END")}>{T.adminEnd}</button>}
                {it.appeal?.status === "PENDING" && (
                  <>
                    <button type="button" onClick={() => act(it, "UPHOLD")}>{T.adminUphold}</button>
                    <button type="button" onClick={() => act(it, "REJECT")}>{T.adminReject}</button>
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function Dungeon(props: DungeonProps) {
  const [card, setCard] = useState(props.card);
  return (
    <div className="game dungeon">
      {card && <Card card={card} setCard={setCard} />}
      {props.admin && <AdminList initial={props.admin} />}
    </div>
  );
}
