/**
 * 3 2 1 Identify's evidence as a judge or an admin sees it: the selfie, the pose it should show
 * and the member's public pictures, all through the attempt's opaque id (never who it is), and
 * the three answers.
 */

import { apiPath } from "../domain/apiPath.ts";
import { type IdAnswer, IDENTIFY_TEXTS, isPoseId, type PoseId, POSES } from "../domain/identify.ts";
import type { JudgeItem } from "../domain/shapes/identify.ts";

/** A pose: its drawing (where it helps) and its instruction. */
export function PoseCard({ poseId }: { poseId: string }) {
  if (!isPoseId(poseId)) return null;
  const pose = POSES.find((p) => p.id === poseId);
  return (
    <p className="id-pose" data-pose={poseId}>
      {pose?.drawing && <span className="id-pose-drawing" aria-hidden="true">{pose.drawing}</span>}
      <span className="id-pose-text">{IDENTIFY_TEXTS.poses[poseId as PoseId]}</span>
    </p>
  );
}

/** The selfie, the pose and the pictures of one attempt (a judge's or an admin's view). */
export function Evidence({ item }: { item: JudgeItem }) {
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

/** Same person, not the same, wrong pose: a judge's (or an admin's) answer. */
export function AnswerButtons({ onAnswer, busy }: { onAnswer: (a: IdAnswer) => void; busy: boolean }) {
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
