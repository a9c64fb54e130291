/**
 * The rate-swipe screen (spec §2 Picture screens, §4): one member's pictures one at a time, from
 * the given picture. Swipe right or Nice rates LIKE, left or Meh DISLIKE, down or Skip
 * UNDETERMINED; up does nothing. A rating sets the local cache at once (replacing any earlier
 * like of that picture), then is sent, and the next picture shows.
 */

import { type PointerEvent, useEffect, useRef, useState } from "react";
import { QueryProvider } from "./queries/client.tsx";
import { type LikeType, swipeLikeType, usePicLikeMutation, usePicLikeQuery } from "./queries/likes.ts";
import { useShowsNsfw } from "./useShowsNsfw.ts";
import { swipeOfDrag } from "./SwipeDeck.tsx";
import { swipeOfKey } from "./useSwipe.ts";
import { BriefPicture } from "../components/BriefPicture.tsx";
import { SwipeButtons } from "../components/SwipeButtons.tsx";
import { profileUrl, shortName } from "../domain/format.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";

export interface RateSwipeProps {
  likerProfileId: string;
  owner: { profileId: string; profileName: string };
  /** The owner's pictures the viewer may see, in order. */
  picIds: string[];
  /** Index of the first picture shown. */
  start: number;
  /** The viewer's current rating of each picture that has one. */
  likes: Record<string, LikeType>;
}

const RATED: Record<LikeType, () => string> = {
  LIKE: () => UI_TEXTS.ratedNice,
  DISLIKE: () => UI_TEXTS.ratedMeh,
  UNDETERMINED: () => "",
};
/** The viewer's current rating of a picture, from the shared cache (so a new rating shows at once). */
function RatedBadge(
  { liker, owner, picId, initial }: { liker: string; owner: string; picId: string; initial: LikeType },
) {
  const { data } = usePicLikeQuery(liker, owner, picId, initial);
  const text = RATED[data ?? "UNDETERMINED"]();
  return text ? <span className="rated-badge">{text}</span> : null;
}

function Rater({ likerProfileId, owner, picIds, start, likes }: RateSwipeProps) {
  const [index, setIndex] = useState(Math.min(start, picIds.length));
  const [drag, setDrag] = useState<{ id: number; x0: number; y0: number; dx: number; dy: number } | null>(null);
  const nsfw = useShowsNsfw();
  const picId = picIds[index] as string | undefined;
  const rate = usePicLikeMutation();

  const rateRef = useRef<(direction: string) => void>(() => {});
  rateRef.current = (direction: string) => {
    const likeType = swipeLikeType(direction);
    if (!picId || likeType === "ERROR") return; // an unknown swipe is never sent
    rate.mutate({ likerProfileId, profilePicId: picId, profilePicProfileId: owner.profileId, likeType });
    setIndex((i) => i + 1);
    setDrag(null);
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const tag = (e.target as HTMLElement | null)?.tagName ?? "";
      const direction = swipeOfKey(e.key);
      if (!direction || e.altKey || e.ctrlKey || e.metaKey || ["INPUT", "TEXTAREA", "SELECT"].includes(tag)) return;
      e.preventDefault();
      rateRef.current(direction);
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    setDrag({ id: e.pointerId, x0: e.clientX, y0: e.clientY, dx: 0, dy: 0 });
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (drag?.id === e.pointerId) setDrag({ ...drag, dx: e.clientX - drag.x0, dy: e.clientY - drag.y0 });
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    if (drag?.id !== e.pointerId) return;
    const width = e.currentTarget.getBoundingClientRect().width;
    const direction = swipeOfDrag(e.clientX - drag.x0, e.clientY - drag.y0, width);
    if (direction) rateRef.current(direction);
    else setDrag(null);
  };

  const profileLink = <a className="button" href={profileUrl(owner.profileId)}>{UI_TEXTS.viewProfile}</a>;
  if (picIds.length === 0) {
    return (
      <div className="swipe rate-swipe">
        <p className="likes-empty">{UI_TEXTS.noPicturesOf(shortName(owner.profileName))}</p>
        <div className="row center">{profileLink}</div>
      </div>
    );
  }
  if (!picId) {
    return (
      <div className="swipe rate-swipe">
        <p className="likes-empty">{UI_TEXTS.ratedEveryPictureOf(shortName(owner.profileName))}</p>
        <div className="row center">
          <button type="button" onClick={() => setIndex(0)}>{UI_TEXTS.startOver}</button>
          {profileLink}
        </div>
      </div>
    );
  }
  // Up is disabled: an upward drag gives a little, then stops.
  const style = drag
    ? {
      transform: `translate(${drag.dx}px, ${Math.max(drag.dy, -24)}px) rotate(${drag.dx / 18}deg)`,
      transition: "none",
    }
    : undefined;
  return (
    <div className="swipe rate-swipe">
      <p className="rate-count" aria-live="polite">
        {shortName(owner.profileName)} · {index + 1} / {picIds.length}
      </p>
      <div className="deck">
        <div
          key={picId}
          className="swipe-card"
          style={style}
          data-pic-id={picId}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={() => setDrag(null)}
        >
          <BriefPicture picId={picId} name={owner.profileName} scale={1024} nsfw={nsfw} eager />
          <RatedBadge
            liker={likerProfileId}
            owner={owner.profileId}
            picId={picId}
            initial={likes[picId] ?? "UNDETERMINED"}
          />
        </div>
      </div>
      <SwipeButtons onSwipe={(direction) => rateRef.current(direction)} />
      <div className="row center">
        <button type="button" onClick={() => setIndex((i) => Math.max(0, i - 1))} disabled={index === 0}>
          {UI_TEXTS.prev}
        </button>
        {profileLink}
      </div>
      {rate.isError && <p className="error" role="alert">{UI_TEXTS.ratingNotSaved}</p>}
    </div>
  );
}

export default function RateSwipe(props: RateSwipeProps) {
  return (
    <QueryProvider>
      <Rater {...props} />
    </QueryProvider>
  );
}
