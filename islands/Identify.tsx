/**
 * 3 2 1 Identify: verify yourself (a random pose, a countdown, a selfie taken with the camera in
 * the page: no picture from the gallery), judge others' selfies, and for admins the selfies the
 * judges disagreed on. A judge sees the selfie, the pose and the member's public pictures only
 * through the attempt's opaque id: never who it is.
 */

import { useEffect, useRef, useState } from "react";
import { api, ApiFailure, call } from "./queries/api.ts";
import { apiPath } from "../domain/apiPath.ts";
import { formatDay } from "../domain/volunteer.ts";
import { IDENTIFY_TEXTS, isPoseId, type PoseId, POSES } from "../domain/identify.ts";
import { GAME_TEXTS } from "../domain/games.ts";
import { VerifiedBadge } from "../components/VerifiedBadge.tsx";
import type { IdAdminItem, IdentifyStatus, JudgeItem } from "../domain/shapes/identify.ts";

export interface IdentifyProps {
  status: IdentifyStatus;
  item: JudgeItem | null;
  credits: number;
  /** Admins only. */
  queue?: IdAdminItem[];
}

type Answer = "SAME" | "NOT_SAME" | "WRONG_POSE";

const message = (e: unknown) => e instanceof ApiFailure ? e.message : IDENTIFY_TEXTS.failed;

/** A pose: its drawing (where it helps) and its instruction. */
function PoseCard({ poseId }: { poseId: string }) {
  if (!isPoseId(poseId)) return null;
  const pose = POSES.find((p) => p.id === poseId);
  return (
    <p className="id-pose" data-pose={poseId}>
      {pose?.drawing && <span className="id-pose-drawing" aria-hidden="true">{pose.drawing}</span>}
      <span className="id-pose-text">{IDENTIFY_TEXTS.poses[poseId as PoseId]}</span>
    </p>
  );
}

function StatusLine({ s }: { s: IdentifyStatus }) {
  if (s.verified) {
    return (
      <p className="id-status is-verified">
        <VerifiedBadge size={20} /> {IDENTIFY_TEXTS.statusVerified(formatDay(s.tsVerified ?? 0))}
      </p>
    );
  }
  if (s.pending) return <p className="id-status">{IDENTIFY_TEXTS.statusPending}</p>;
  if (s.lapsed) return <p className="id-status">{IDENTIFY_TEXTS.statusLapsed}</p>;
  if (s.lastRejected) return <p className="id-status">{IDENTIFY_TEXTS.statusRejected(formatDay(s.lastRejected))}</p>;
  return <p className="id-status">{IDENTIFY_TEXTS.statusNone}</p>;
}

type Challenge = { id: string; poseId: string; expires: number };

/** Asking: a pose, the camera, a countdown, the selfie, send or take again. */
function Verify({ initial }: { initial: IdentifyStatus }) {
  const [status, setStatus] = useState(initial);
  const [challenge, setChallenge] = useState<Challenge | null>(null);
  const [count, setCount] = useState<number | null>(null);
  const [shot, setShot] = useState<{ blob: Blob; url: string } | null>(null);
  const [left, setLeft] = useState(0);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);

  const stopCamera = () => {
    stream.current?.getTracks().forEach((t) => t.stop());
    stream.current = null;
  };
  useEffect(() => stopCamera, []);
  useEffect(() => {
    if (!challenge) return;
    const tick = () => setLeft(Math.max(0, Math.round((challenge.expires - Date.now()) / 1000)));
    tick();
    const t = setInterval(tick, 1000);
    return () => clearInterval(t);
  }, [challenge]);

  async function ask(noHands: boolean) {
    setBusy(true);
    setNote(null);
    try {
      const r = await call("POST /api/games/identify/challenge", {}, { json: { noHands } });
      setChallenge(r.challenge);
      setShot(null);
      if (!stream.current) {
        stream.current = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "user" }, audio: false });
      }
      if (video.current) {
        video.current.srcObject = stream.current;
        await video.current.play().catch(() => {});
      }
    } catch (e) {
      setNote(e instanceof ApiFailure ? e.message : IDENTIFY_TEXTS.cameraFailed);
    } finally {
      setBusy(false);
    }
  }

  function countdown() {
    setCount(3);
    let n = 3;
    const t = setInterval(() => {
      n--;
      if (n > 0) return setCount(n);
      clearInterval(t);
      setCount(null);
      capture();
    }, 1000);
  }

  function capture() {
    const v = video.current;
    if (!v || !v.videoWidth) return setNote(IDENTIFY_TEXTS.cameraFailed);
    const canvas = document.createElement("canvas");
    canvas.width = v.videoWidth;
    canvas.height = v.videoHeight;
    canvas.getContext("2d")!.drawImage(v, 0, 0);
    canvas.toBlob((blob) => blob && setShot({ blob, url: URL.createObjectURL(blob) }), "image/jpeg", 0.9);
  }

  async function send() {
    if (!challenge || !shot) return;
    setBusy(true);
    try {
      const form = new FormData();
      form.set("challenge", challenge.id);
      form.set("selfie", shot.blob, "selfie.jpg");
      const r = await api<{ attemptId: string }>(apiPath("POST /api/games/identify/selfie", {}), {
        method: "POST",
        form,
      });
      stopCamera();
      setChallenge(null);
      setShot(null);
      setStatus({ ...status, pending: r.attemptId, attemptsLeft: status.attemptsLeft - 1 });
      setNote(IDENTIFY_TEXTS.sent);
    } catch (e) {
      setNote(message(e));
      if (e instanceof ApiFailure && e.status === 410) setChallenge(null);
    } finally {
      setBusy(false);
    }
  }

  async function withdraw() {
    setBusy(true);
    try {
      await call("DELETE /api/games/identify/attempt", {});
      setStatus({ ...status, pending: null });
      setNote(IDENTIFY_TEXTS.withdrawn);
    } catch (e) {
      setNote(message(e));
    } finally {
      setBusy(false);
    }
  }

  const expired = challenge !== null && left <= 0;
  return (
    <section className="id-verify" aria-labelledby="id-verify-title">
      <h2 id="id-verify-title">{IDENTIFY_TEXTS.verifyTitle}</h2>
      <StatusLine s={status} />
      {status.pending
        ? (
          <button type="button" onClick={withdraw} disabled={busy}>
            {IDENTIFY_TEXTS.withdraw}
          </button>
        )
        : !status.hasPicture
        ? <p>{IDENTIFY_TEXTS.needPicture}</p>
        : !status.verified && (
          <>
            <p className="id-attempts">{IDENTIFY_TEXTS.attemptsLeft(status.attemptsLeft)}</p>
            {!challenge && (
              <button
                type="button"
                className="primary"
                onClick={() => ask(false)}
                disabled={busy || !status.attemptsLeft}
              >
                {IDENTIFY_TEXTS.start}
              </button>
            )}
          </>
        )}
      {challenge && (
        <div className="id-camera">
          <h3>{IDENTIFY_TEXTS.yourPose}</h3>
          <PoseCard poseId={challenge.poseId} />
          <p className="id-expires" aria-live="off">
            {expired ? IDENTIFY_TEXTS.expired : IDENTIFY_TEXTS.expiresIn(left)}
          </p>
          <div className="id-frame">
            <video ref={video} muted playsInline hidden={!!shot} aria-label={IDENTIFY_TEXTS.yourPose} />
            {shot && <img src={shot.url} alt={IDENTIFY_TEXTS.theSelfie} />}
            {count !== null && (
              <span className="id-count" role="timer" aria-label={IDENTIFY_TEXTS.countdownLabel}>{count}</span>
            )}
          </div>
          <p className="id-note">{IDENTIFY_TEXTS.cameraNote}</p>
          <div className="row">
            {!shot
              ? (
                <button
                  type="button"
                  className="primary"
                  onClick={countdown}
                  disabled={busy || expired || count !== null}
                >
                  {IDENTIFY_TEXTS.takeSelfie}
                </button>
              )
              : (
                <>
                  <button type="button" className="primary" onClick={send} disabled={busy || expired}>
                    {IDENTIFY_TEXTS.send}
                  </button>
                  <button type="button" onClick={() => setShot(null)} disabled={busy}>{IDENTIFY_TEXTS.retake}</button>
                </>
              )}
            <button type="button" onClick={() => ask(true)} disabled={busy}>{IDENTIFY_TEXTS.noHands}</button>
          </div>
        </div>
      )}
      {note && <p className="id-message" role="status">{note}</p>}
    </section>
  );
}

/** The selfie, the pose and the pictures of one attempt (a judge's or an admin's view). */
function Evidence({ item }: { item: JudgeItem }) {
  const pics = Array.from({ length: item.pictures }, (_, n) => n);
  return (
    <div className="id-evidence">
      <figure>
        <img
          className="id-selfie"
          src={apiPath("GET /api/games/identify/attempts/:attemptId/selfie", { attemptId: item.attemptId })}
          alt={IDENTIFY_TEXTS.theSelfie}
        />
        <figcaption>{IDENTIFY_TEXTS.theSelfie}</figcaption>
      </figure>
      <div>
        <h3>{IDENTIFY_TEXTS.thePose}</h3>
        <PoseCard poseId={item.poseId} />
        <h3>{IDENTIFY_TEXTS.thePictures}</h3>
        <ul className="id-pictures">
          {pics.map((n) => (
            <li key={n}>
              <img
                src={apiPath("GET /api/games/identify/attempts/:attemptId/pictures/:n", {
                  attemptId: item.attemptId,
                  n: String(n),
                })}
                alt={`${IDENTIFY_TEXTS.thePictures} ${n + 1}`}
              />
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

function AnswerButtons({ onAnswer, busy }: { onAnswer: (a: Answer) => void; busy: boolean }) {
  return (
    <div className="row id-answers">
      <button type="button" className="primary" onClick={() => onAnswer("SAME")} disabled={busy}>
        {IDENTIFY_TEXTS.same}
      </button>
      <button type="button" onClick={() => onAnswer("NOT_SAME")} disabled={busy}>{IDENTIFY_TEXTS.notSame}</button>
      <button type="button" onClick={() => onAnswer("WRONG_POSE")} disabled={busy}>{IDENTIFY_TEXTS.wrongPose}</button>
    </div>
  );
}

/** Judging: one selfie at a time, then the next. */
function Judge({ initial, credits: initialCredits }: { initial: JudgeItem | null; credits: number }) {
  const [item, setItem] = useState(initial);
  const [credits, setCredits] = useState(initialCredits);
  const [done, setDone] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function answer(a: Answer) {
    if (!item) return;
    setBusy(true);
    try {
      const r = await call("PUT /api/games/identify/attempts/:attemptId", { attemptId: item.attemptId }, {
        json: { answer: a },
      });
      setCredits(r.credits);
      setDone(true);
      setNote(IDENTIFY_TEXTS.thanks);
    } catch (e) {
      setNote(message(e));
    } finally {
      setBusy(false);
    }
  }

  async function next() {
    setBusy(true);
    try {
      const r = await call("GET /api/games/identify/next", {});
      setItem(r.item);
      setCredits(r.credits);
      setDone(false);
      setNote(null);
    } catch (e) {
      setNote(message(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="id-judge" aria-labelledby="id-judge-title">
      <h2 id="id-judge-title">{IDENTIFY_TEXTS.judgeTitle}</h2>
      <p className="game-credits" aria-live="polite">{GAME_TEXTS.credits(credits)}</p>
      {!item
        ? <p className="game-empty">{IDENTIFY_TEXTS.judgeEmpty}</p>
        : (
          <article className="game-card" data-attempt={item.attemptId}>
            <p>{IDENTIFY_TEXTS.judgeIntro}</p>
            {!done && <Evidence item={item} />}
            {!done
              ? <AnswerButtons onAnswer={answer} busy={busy} />
              : <button type="button" onClick={next} disabled={busy}>{IDENTIFY_TEXTS.next}</button>}
          </article>
        )}
      {note && <p className="id-message" role="status">{note}</p>}
    </section>
  );
}

/** Admins: the selfies the judges disagreed on first; an answer decides alone. */
function AdminQueue({ initial }: { initial: IdAdminItem[] }) {
  const [items, setItems] = useState(initial);
  const [note, setNote] = useState<string | null>(null);
  async function decide(it: IdAdminItem, answer: Answer) {
    try {
      await call("PUT /api/admin/games/identify/:attemptId", { attemptId: it.attemptId }, { json: { answer } });
      setItems(items.filter((x) => x.attemptId !== it.attemptId));
      setNote(IDENTIFY_TEXTS.decided);
    } catch (e) {
      setNote(message(e));
    }
  }
  return (
    <section className="id-admin" aria-labelledby="id-admin-title">
      <h2 id="id-admin-title">{IDENTIFY_TEXTS.adminQueue}</h2>
      {items.length === 0 ? <p className="game-empty">{IDENTIFY_TEXTS.adminEmpty}</p> : (
        <ul className="id-admin-list">
          {items.map((it) => (
            <li key={it.attemptId} className="game-card" data-attempt={it.attemptId}>
              <p>{IDENTIFY_TEXTS.adminAnswers(it.same, it.notSame, it.wrongPose)}</p>
              <Evidence item={it} />
              <AnswerButtons onAnswer={(a) => decide(it, a)} busy={false} />
            </li>
          ))}
        </ul>
      )}
      {note && <p className="id-message" role="status">{note}</p>}
    </section>
  );
}

export default function Identify(props: IdentifyProps) {
  return (
    <div className="game identify">
      <Verify initial={props.status} />
      <Judge initial={props.item} credits={props.credits} />
      {props.queue && <AdminQueue initial={props.queue} />}
    </div>
  );
}
