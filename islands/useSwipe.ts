/**
 * The swipe gesture of the swipe screens (profiles, picture rating): a card that follows a
 * finger or the mouse (pointer events with capture, so touch works with `touch-action: none`)
 * and the arrow keys. Right, left and down swipe; up never does (spec §2: swiping up is disabled).
 * "right" is the reading direction's forward (Nice): in a right-to-left language a drag or arrow
 * to the left is "right", and the card flies off to the left.
 */

import { type CSSProperties, type PointerEvent, useEffect, useRef, useState } from "react";
import type { SwipeDirection } from "../domain/discovery.ts";
import { dir } from "../domain/i18n.ts";

/** The arrow keys that swipe. ArrowUp is not one of them. */
export const SWIPE_KEYS: Readonly<Record<string, SwipeDirection>> = {
  ArrowLeft: "left",
  ArrowRight: "right",
  ArrowDown: "down",
};

/** 1 when the page reads left to right, -1 when right to left (a physical x times this is forward). */
function forward(): 1 | -1 {
  return dir() === "rtl" ? -1 : 1;
}

/** The swipe an arrow key makes (mirrored in a right-to-left language), or undefined. */
export function swipeOfKey(key: string): SwipeDirection | undefined {
  const direction = SWIPE_KEYS[key];
  if (forward() === 1 || direction === "down" || !direction) return direction;
  return direction === "right" ? "left" : "right";
}

/** A drag past this many pixels (or a quarter of the card) is a swipe. */
export const SWIPE_PX = 110;
/** How long a card takes to fly off (the CSS transition of the leaving card). */
export const LEAVE_MS = 220;

/** Which swipe a drag of (dx, dy) makes on a card `width` wide; null snaps back. Up never swipes. */
export function swipeOfDrag(dx: number, dy: number, width: number): SwipeDirection | null {
  dx *= forward();
  const t = Math.min(SWIPE_PX, width / 4);
  if (Math.abs(dx) >= t && Math.abs(dx) >= dy) return dx > 0 ? "right" : "left";
  if (dy >= t) return "down";
  return null;
}

/** A drag in progress: the offset from where the pointer went down, and the card's width. */
export interface Drag {
  dx: number;
  dy: number;
  width: number;
}

/** How a card looks: its transform, and the stamp (where it is heading) with its opacity. */
export interface CardLook {
  style: CSSProperties;
  stamp: SwipeDirection | null;
  stampOpacity: number;
}

/** The look of a card being dragged: it follows, tilts, and an upward drag gives only a little. */
function dragLook(drag: Drag): CardLook {
  const dy = drag.dy < 0 ? Math.max(drag.dy * 0.2, -24) : drag.dy;
  let stamp: SwipeDirection | null = null;
  if (Math.abs(drag.dx) >= Math.max(dy, 0) && drag.dx !== 0) stamp = drag.dx * forward() > 0 ? "right" : "left";
  else if (dy > 0) stamp = "down";
  const t = Math.min(SWIPE_PX, drag.width / 4);
  return {
    style: { transform: `translate(${drag.dx}px, ${dy}px) rotate(${drag.dx / 18}deg)`, transition: "none" },
    stamp,
    stampOpacity: Math.min(1, Math.max(Math.abs(drag.dx), dy) / t),
  };
}

/** The look of a card flying off after a swipe. */
function leaveLook(direction: SwipeDirection, drag: Drag | null): CardLook {
  const side = (direction === "right" ? 1 : -1) * forward();
  return {
    style: {
      transform: direction === "down"
        ? "translate(0, 120vh)"
        : `translate(${side * 150}%, ${Math.max(drag?.dy ?? 0, 0)}px) rotate(${side * 24}deg)`,
      transition: `transform ${LEAVE_MS}ms ease-in`,
    },
    stamp: direction,
    stampOpacity: 1,
  };
}

function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));
}

/** The pointer handlers a swipeable card spreads on itself. */
export interface SwipeHandlers {
  onPointerDown: (e: PointerEvent<HTMLElement>) => void;
  onPointerMove: (e: PointerEvent<HTMLElement>) => void;
  onPointerUp: (e: PointerEvent<HTMLElement>) => void;
  onPointerCancel: () => void;
}

/**
 * Calls `onSwipe` for a drag past the threshold or an arrow key (not while typing in a field),
 * while `enabled`. Returns the drag in progress (null when none), the card's handlers, and
 * `clear` to forget the drag once the swiped card has gone.
 */
export function useSwipe(onSwipe: (direction: SwipeDirection) => void, enabled: boolean) {
  const [drag, setDrag] = useState<(Drag & { id: number; x0: number; y0: number }) | null>(null);
  const latest = useRef({ onSwipe, enabled });
  latest.current = { onSwipe, enabled };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const direction = swipeOfKey(e.key);
      if (!direction || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || typingIn(e.target)) return;
      e.preventDefault();
      if (latest.current.enabled) latest.current.onSwipe(direction);
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);

  const handlers: SwipeHandlers = {
    onPointerDown: (e) => {
      if (!enabled || (e.pointerType === "mouse" && e.button !== 0)) return;
      e.currentTarget.setPointerCapture(e.pointerId);
      const width = e.currentTarget.getBoundingClientRect().width;
      setDrag({ id: e.pointerId, x0: e.clientX, y0: e.clientY, dx: 0, dy: 0, width });
    },
    onPointerMove: (e) => {
      if (drag?.id === e.pointerId) setDrag({ ...drag, dx: e.clientX - drag.x0, dy: e.clientY - drag.y0 });
    },
    onPointerUp: (e) => {
      if (drag?.id !== e.pointerId) return;
      const direction = swipeOfDrag(e.clientX - drag.x0, e.clientY - drag.y0, drag.width);
      if (direction && enabled) onSwipe(direction);
      else setDrag(null);
    },
    onPointerCancel: () => setDrag(null),
  };
  return { drag: drag as Drag | null, handlers, clear: () => setDrag(null) };
}

/**
 * The top card of a deck: swiping it (drag, key or button) calls `onSwipe` — which returns false
 * to refuse — flies the card off and, after LEAVE_MS, calls `onGone` to take it out of the deck.
 * Returns `swipe` for the buttons, the card's handlers and look, and whether a card is leaving.
 */
export function useCardSwipe(
  topId: string | undefined,
  onSwipe: (direction: SwipeDirection, id: string) => boolean,
  onGone: (id: string) => void,
) {
  const [leaving, setLeaving] = useState<{ id: string; direction: SwipeDirection } | null>(null);
  const swipe = (direction: SwipeDirection) => {
    if (!topId || leaving || !onSwipe(direction, topId)) return;
    const id = topId;
    setLeaving({ id, direction });
    setTimeout(() => {
      onGone(id);
      setLeaving(null);
      gesture.current();
    }, LEAVE_MS);
  };
  const { drag, handlers, clear } = useSwipe(swipe, !!topId && !leaving);
  const gesture = useRef(clear);
  gesture.current = clear;
  const look: CardLook | null = leaving && leaving.id === topId
    ? leaveLook(leaving.direction, drag)
    : drag
    ? dragLook(drag)
    : null;
  return { swipe, handlers, look, leaving: !!leaving };
}
