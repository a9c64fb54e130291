/** The buttons under a swipe card: Meh (left), Skip (down), Nice (right), spec §2 Swipe cards. */

import type { KeyboardEvent } from "react";
import { ArrowDown, Heart, type LucideIcon, X } from "./icons.ts";
import { DISCOVERY_TEXTS, keyOfSwipe } from "../domain/discovery.ts";
import type { SwipeDirection } from "../domain/discovery.ts";

const BUTTONS: { direction: SwipeDirection; className: string; icon: LucideIcon; label: string; key: string }[] = [
  {
    direction: "left",
    className: "swipe-meh",
    icon: X,
    get label() {
      return DISCOVERY_TEXTS.meh;
    },
    key: "ArrowLeft",
  },
  {
    direction: "down",
    className: "swipe-skip",
    icon: ArrowDown,
    get label() {
      return DISCOVERY_TEXTS.skip;
    },
    key: "ArrowDown",
  },
  {
    direction: "right",
    className: "swipe-nice",
    icon: Heart,
    get label() {
      return DISCOVERY_TEXTS.nice;
    },
    key: "ArrowRight",
  },
];

// The arrow keys swipe (the island listens on the window); on a focused button they must not
// also scroll the page or move focus.
const keepArrows = (e: KeyboardEvent) => {
  if (e.key.startsWith("Arrow")) e.preventDefault();
};

/** Meh, Skip and Nice, each swiping its way. */
export function SwipeButtons(
  { onSwipe, disabled = false }: { onSwipe: (direction: SwipeDirection) => void; disabled?: boolean },
) {
  return (
    <div className="swipe-buttons" onKeyDown={keepArrows}>
      {BUTTONS.map((b) => (
        <button
          key={b.direction}
          type="button"
          className={b.className}
          onClick={() => onSwipe(b.direction)}
          disabled={disabled}
          aria-keyshortcuts={keyOfSwipe(b.key)}
        >
          <b.icon className="icon" aria-hidden="true" /> {b.label}
        </button>
      ))}
    </div>
  );
}
