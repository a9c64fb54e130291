/**
 * Swipe cards (spec §2 Swipe cards, §4 like states): nearby members one card at a time, with the
 * filter. Right or Nice saves LIKE, left or Meh saves DISLIKE, down or Skip saves UNDETERMINED;
 * up does nothing. The card follows a finger or the mouse (pointer events) and the arrow keys
 * swipe too. 'View Profile / Chat' opens the member on top. At the end: 'You've reached the end!'.
 */

import {
  type CSSProperties,
  type KeyboardEvent as ReactKeyboardEvent,
  type PointerEvent,
  useEffect,
  useRef,
  useState,
} from "react";
import { QueryProvider } from "./queries/client.tsx";
import {
  briefsOf,
  type DiscoveryProps,
  type ProfileBrief,
  SWIPE_PAGE_SIZE,
  SWIPE_REFETCH_MS,
  type SwipeDirection,
  useBriefFilter,
  useNearestBriefs,
  useReportedLocation,
  useSaveSwipe,
} from "./queries/briefs.ts";
import { useShowsNsfw } from "./useShowsNsfw.ts";
import { FilterPanel } from "../components/FilterPanel.tsx";
import { BriefPicture } from "../components/BriefPicture.tsx";
import { BriefFacts } from "../components/BriefFacts.tsx";
import { DiscoveryStatus } from "../components/DiscoveryStatus.tsx";
import { shortName } from "../components/format.ts";
import { DISCOVERY_TEXTS } from "../components/discovery.ts";

/** Fetch the next page when this few cards are left. */
const REFILL_AT = 5;
/** How long a card takes to fly off (matches the CSS transition). */
const LEAVE_MS = 220;
/** A drag past this many pixels (or a quarter of the card) is a swipe. */
const SWIPE_PX = 110;

const KEYS: Record<string, SwipeDirection> = { ArrowLeft: "left", ArrowRight: "right", ArrowDown: "down" };

const STAMPS: Record<SwipeDirection, string> = {
  right: DISCOVERY_TEXTS.nice,
  left: DISCOVERY_TEXTS.meh,
  down: DISCOVERY_TEXTS.skip,
};

const ANNOUNCE: Record<SwipeDirection, string> = { right: "Nice:", left: "Meh:", down: "Skipped" };

interface Drag {
  id: number;
  x0: number;
  y0: number;
  dx: number;
  dy: number;
  width: number;
}

/** Which swipe a drag of (dx, dy) makes on a card `width` wide; null snaps back. Up never swipes. */
export function swipeOfDrag(dx: number, dy: number, width: number): SwipeDirection | null {
  const t = Math.min(SWIPE_PX, width / 4);
  if (Math.abs(dx) >= t && Math.abs(dx) >= dy) return dx > 0 ? "right" : "left";
  if (dy >= t) return "down";
  return null;
}

function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));
}

function Card(
  { brief, nsfw, behind = false, style, stamp, stampOpacity, ...handlers }: {
    brief: ProfileBrief;
    nsfw: boolean;
    behind?: boolean;
    style?: CSSProperties;
    stamp?: SwipeDirection | null;
    stampOpacity?: number;
    onPointerDown?: (e: PointerEvent<HTMLDivElement>) => void;
    onPointerMove?: (e: PointerEvent<HTMLDivElement>) => void;
    onPointerUp?: (e: PointerEvent<HTMLDivElement>) => void;
    onPointerCancel?: (e: PointerEvent<HTMLDivElement>) => void;
  },
) {
  return (
    <div
      className={behind ? "swipe-card behind" : "swipe-card"}
      style={style}
      data-profile-id={brief.profileId}
      aria-hidden={behind}
      {...handlers}
    >
      <BriefPicture picId={brief.profilePicIds[0]} name={brief.profileName} scale={512} nsfw={nsfw} eager />
      {stamp && (
        <span className={`stamp stamp-${stamp}`} style={{ opacity: stampOpacity }} aria-hidden="true">
          {STAMPS[stamp]}
        </span>
      )}
      <div className="swipe-card-info">
        <h2>{shortName(brief.profileName)}</h2>
        <BriefFacts brief={brief} />
      </div>
    </div>
  );
}

function Deck({ myProfileId, known, initial }: DiscoveryProps) {
  const [filter, setFilter] = useBriefFilter();
  const nsfw = useShowsNsfw();
  const q = useNearestBriefs({ size: SWIPE_PAGE_SIZE, filter, refetchMs: SWIPE_REFETCH_MS, initial });
  const save = useSaveSwipe(myProfileId);
  const [swiped, setSwiped] = useState<ReadonlySet<string>>(new Set());
  const [leaving, setLeaving] = useState<{ id: string; direction: SwipeDirection } | null>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [announce, setAnnounce] = useState("");

  const all = briefsOf(q.data?.pages);
  const total = all.length;
  const deck = all.filter((b) => !swiped.has(b.profileId));
  useReportedLocation(myProfileId, known, total === 0);
  const top = deck[0];
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = q;

  useEffect(() => {
    if (deck.length < REFILL_AT && hasNextPage && !isFetchingNextPage) fetchNextPage();
  }, [deck.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  // The latest swipe function, for the window's key handler and the leave timer.
  const swipeRef = useRef<(d: SwipeDirection) => void>(() => {});
  swipeRef.current = (direction: SwipeDirection) => {
    if (!top || leaving) return;
    const id = top.profileId;
    save.mutate({ likedProfileId: id, direction });
    setLeaving({ id, direction });
    setAnnounce(direction === "down" ? ANNOUNCE.down : `${ANNOUNCE[direction]} ${top.profileName}`);
    setTimeout(() => {
      setSwiped((s) => new Set(s).add(id));
      setLeaving(null);
      setDrag(null);
    }, LEAVE_MS);
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const direction = KEYS[e.key];
      if (!direction || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || typingIn(e.target)) return;
      e.preventDefault();
      swipeRef.current(direction);
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (leaving || (e.pointerType === "mouse" && e.button !== 0)) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    const width = e.currentTarget.getBoundingClientRect().width;
    setDrag({ id: e.pointerId, x0: e.clientX, y0: e.clientY, dx: 0, dy: 0, width });
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag || drag.id !== e.pointerId) return;
    setDrag({ ...drag, dx: e.clientX - drag.x0, dy: e.clientY - drag.y0 });
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag || drag.id !== e.pointerId) return;
    const direction = swipeOfDrag(e.clientX - drag.x0, e.clientY - drag.y0, drag.width);
    if (direction) swipeRef.current(direction);
    else setDrag(null);
  };
  const onPointerCancel = () => setDrag(null);

  let style: CSSProperties | undefined;
  let stamp: SwipeDirection | null = null;
  let stampOpacity = 0;
  if (leaving && top && leaving.id === top.profileId) {
    const d = leaving.direction;
    style = {
      transform: d === "down"
        ? "translate(0, 120vh)"
        : `translate(${d === "right" ? "" : "-"}150%, ${drag?.dy ?? 0}px) rotate(${d === "right" ? 24 : -24}deg)`,
      transition: `transform ${LEAVE_MS}ms ease-in`,
    };
    stamp = d;
    stampOpacity = 1;
  } else if (drag) {
    // Up is disabled: an upward drag only gives a little, then stops.
    const dy = drag.dy < 0 ? Math.max(drag.dy * 0.2, -24) : drag.dy;
    style = { transform: `translate(${drag.dx}px, ${dy}px) rotate(${drag.dx / 18}deg)`, transition: "none" };
    // The stamp shows where the card is heading, clearer the nearer it is to a swipe.
    if (Math.abs(drag.dx) >= Math.max(dy, 0) && drag.dx !== 0) stamp = drag.dx > 0 ? "right" : "left";
    else if (dy > 0) stamp = "down";
    const t = Math.min(SWIPE_PX, drag.width / 4);
    stampOpacity = Math.min(1, Math.max(Math.abs(drag.dx), dy) / t);
  }

  const atEnd = !top && !q.isPending && !hasNextPage && !q.isError;
  const busy = !!leaving || !top;
  const onButtonsKey = (e: ReactKeyboardEvent) => {
    // Arrow keys on a focused button swipe as well, and never move focus or scroll.
    if (KEYS[e.key]) e.preventDefault();
  };

  return (
    <div className="discovery swipe">
      <FilterPanel value={filter} onChange={setFilter} />
      <DiscoveryStatus query={q} count={total} />
      {!top && total > 0 && hasNextPage && <p className="discovery-status" role="status">{DISCOVERY_TEXTS.loading}</p>}
      <div className="deck" aria-label="Profiles nearby">
        {deck[1] && <Card key={deck[1].profileId} brief={deck[1]} nsfw={nsfw} behind />}
        {top && (
          <Card
            key={top.profileId}
            brief={top}
            nsfw={nsfw}
            style={style}
            stamp={stamp}
            stampOpacity={stampOpacity}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={onPointerCancel}
          />
        )}
        {atEnd && <p className="deck-end">{DISCOVERY_TEXTS.endOfDeck}</p>}
      </div>
      <div className="swipe-buttons" onKeyDown={onButtonsKey}>
        <button
          type="button"
          className="swipe-meh"
          onClick={() => swipeRef.current("left")}
          disabled={busy}
          aria-keyshortcuts="ArrowLeft"
        >
          <span aria-hidden="true">✕</span> {DISCOVERY_TEXTS.meh}
        </button>
        <button
          type="button"
          className="swipe-skip"
          onClick={() => swipeRef.current("down")}
          disabled={busy}
          aria-keyshortcuts="ArrowDown"
        >
          <span aria-hidden="true">↓</span> {DISCOVERY_TEXTS.skip}
        </button>
        <button
          type="button"
          className="swipe-nice"
          onClick={() => swipeRef.current("right")}
          disabled={busy}
          aria-keyshortcuts="ArrowRight"
        >
          <span aria-hidden="true">♥</span> {DISCOVERY_TEXTS.nice}
        </button>
      </div>
      {top && (
        <a className="button view-profile" href={`/profile/${encodeURIComponent(top.profileId)}`}>
          {DISCOVERY_TEXTS.viewProfileChat}
        </a>
      )}
      {save.isError && <p className="error" role="alert">{DISCOVERY_TEXTS.swipeFailed}</p>}
      <p className="visually-hidden" role="status">{announce}</p>
      <p className="swipe-hint">{DISCOVERY_TEXTS.swipeHint}</p>
    </div>
  );
}

export default function SwipeDeck(props: DiscoveryProps) {
  return (
    <QueryProvider>
      <Deck {...props} />
    </QueryProvider>
  );
}
