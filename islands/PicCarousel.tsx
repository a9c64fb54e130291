/**
 * The picture carousel (/profilePicCarousel?profileId=&id=&ids=, spec §2): one picture with
 * Prev and Next, disabled at the ends, and 'View Profile'. Arrow keys and a sideways swipe
 * move too. The address follows the picture shown, so a reload or a shared link shows it again.
 */

import { useEffect, useRef, useState } from "react";
import { useShowsNsfw } from "./useShowsNsfw.ts";
import { picImgProps } from "../domain/pictures.ts";
import LikeButton, { type CarouselLikes } from "./LikeButton.tsx";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import { dir } from "../domain/i18n.ts";
import type { PicInfo } from "../domain/shapes/pictures.ts";
import { profileUrl } from "../domain/format.ts";

export interface PicCarouselProps {
  profileId: string;
  profileName: string;
  /** The pictures in order (only those the viewer may see). */
  pictures: PicInfo[];
  /** Index of the first picture shown. */
  start: number;
  /** The viewer's likes of these pictures, for Like / Remove Like on each (absent on one's own). */
  likes?: CarouselLikes;
}

/** A swipe shorter than this (px) is a tap. */
const SWIPE_PX = 40;

export default function PicCarousel({ profileId, profileName, pictures, start, likes }: PicCarouselProps) {
  const showNsfw = useShowsNsfw();
  const [at, setAt] = useState(start);
  const touch = useRef<{ x: number; id: number } | null>(null);
  const pic = pictures[at];
  const first = at === 0;
  const last = at === pictures.length - 1;

  useEffect(() => {
    const url = new URL(location.href);
    url.searchParams.set("id", pic.id);
    history.replaceState(null, "", url);
  }, [pic.id]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // The previous picture is the reading direction's back: the left arrow, the right one in Arabic.
      const back = dir() === "rtl" ? "ArrowRight" : "ArrowLeft";
      const on = dir() === "rtl" ? "ArrowLeft" : "ArrowRight";
      if (e.key === back) setAt((i) => Math.max(0, i - 1));
      if (e.key === on) setAt((i) => Math.min(pictures.length - 1, i + 1));
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, [pictures.length]);

  return (
    <div className="carousel">
      <figure
        className="carousel-figure"
        onPointerDown={(e) => (touch.current = { x: e.clientX, id: e.pointerId })}
        onPointerUp={(e) => {
          const t = touch.current;
          touch.current = null;
          if (!t || t.id !== e.pointerId) return;
          const dx = e.clientX - t.x;
          if (dx > SWIPE_PX && !first) setAt(at - 1);
          if (dx < -SWIPE_PX && !last) setAt(at + 1);
        }}
      >
        <img
          key={pic.id}
          {...picImgProps(pic, 1024, showNsfw)}
          alt={`${profileName}, picture ${at + 1}`}
          draggable={false}
        />
        <figcaption className="muted">
          {profileName} · {at + 1} / {pictures.length}
          {pic.nsfw && !showNsfw && " · NSFW, blurred: choose Showing NSFW on the home page to see it."}
        </figcaption>
      </figure>
      <div className="row center carousel-buttons">
        <button type="button" onClick={() => setAt(at - 1)} disabled={first}>{UI_TEXTS.prev}</button>
        <a className="button primary" href={profileUrl(profileId)}>{UI_TEXTS.viewProfile}</a>
        <button type="button" onClick={() => setAt(at + 1)} disabled={last}>{UI_TEXTS.next}</button>
      </div>
      {likes && (
        <div className="row center">
          <LikeButton
            key={pic.id}
            kind="pic"
            likerProfileId={likes.likerProfileId}
            profilePicProfileId={profileId}
            profilePicId={pic.id}
            likeType={likes.byPic[pic.id] ?? "UNDETERMINED"}
          />
        </div>
      )}
    </div>
  );
}
