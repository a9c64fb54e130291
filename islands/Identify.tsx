/**
 * 3 2 1 Identify: verify yourself (a random pose, a countdown, a selfie taken with the camera in
 * the page: no picture from the gallery), judge others' selfies, and for admins the selfies the
 * judges did not decide. A judge sees the selfie, the pose and the member's public pictures only
 * through the attempt's opaque id: never who it is.
 */

import { useEffect, useRef, useState } from "react";
import { api, ApiFailure, call } from "./queries/api.ts";
import { apiPath } from "../domain/apiPath.ts";
import { formatDay } from "../domain/volunteer.ts";
import { type IdAnswer, IDENTIFY_TEXTS } from "../domain/identify.ts";
import { GAME_TEXTS } from "../domain/games.ts";
import { VerifiedBadge } from "../components/VerifiedBadge.tsx";
import type { IdAdminItem, IdentifyStatus, JudgeDeal } from "../domain/shapes/identify.ts";
import { AnswerButtons, Evidence, PoseCard } from "../components/SelfieEvidence.tsx";
import { SelfieQueue } from "./admin/SelfieQueue.tsx";

export interface IdentifyProps {
  status: IdentifyStatus;
  /** The selfie dealt to the member to judge, or none and why. */
  deal: JudgeDeal;
  credits: number;
  /** Admins only. */
  queue?: IdAdminItem[];
}

const message = (e: unknown) => e instanceof ApiFailure ? e.message : IDENTIFY_TEXTS.failed;

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

/** Why the member is dealt nothing: they may not judge (and why), or nothing waits for them. */
function NothingToJudge({ deal }: { deal: JudgeDeal }) {
  const text = deal.why === "NEW_ACCOUNT"
    ? IDENTIFY_TEXTS.judgeNewAccount(formatDay(deal.judgeFrom ?? 0))
    : deal.why === "NO_PICTURE"
    ? IDENTIFY_TEXTS.judgeNoPicture
    : deal.why === "PAUSED"
    ? IDENTIFY_TEXTS.judgePaused
    : IDENTIFY_TEXTS.judgeEmpty;
  return <p className="game-empty" data-why={deal.why ?? "none"}>{text}</p>;
}

/** Judging: one selfie at a time, then the next. */
function Judge({ initial, credits: initialCredits }: { initial: JudgeDeal; credits: number }) {
  const [deal, setDeal] = useState(initial);
  const item = deal.item;
  const [credits, setCredits] = useState(initialCredits);
  const [done, setDone] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function answer(a: IdAnswer) {
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
      setDeal({ item: r.item, why: r.why, judgeFrom: r.judgeFrom });
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
      {!item ? <NothingToJudge deal={deal} /> : (
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

export default function Identify(props: IdentifyProps) {
  return (
    <div className="game identify">
      <Verify initial={props.status} />
      <Judge initial={props.deal} credits={props.credits} />
      {props.queue && <SelfieQueue initial={props.queue} />}
    </div>
  );
}
