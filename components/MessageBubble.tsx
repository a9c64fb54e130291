/**
 * One message: text and pictures; for my own, a single check when sent and a double check when
 * read; tapping shows the sent time and the seen time, or 'has not seen' (spec §2).
 */

import { Lock } from "./icons.ts";
import { useEffect, useRef, useState } from "react";
import { Time } from "./Time.tsx";
import { TEXTS } from "../domain/texts.ts";
import { profilePicUrl } from "../domain/format.ts";
import { MODERATION_TEXTS } from "../domain/moderation.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import type { Message } from "../domain/shapes/messages.ts";

/**
 * A picture attached to a message. One its owner deleted, or locked for this member, says so
 * instead of showing a broken image. An error before hydration is seen through `complete`.
 */
function BubblePicture({ id }: { id: string }) {
  const [gone, setGone] = useState(false);
  const img = useRef<HTMLImageElement>(null);
  useEffect(() => {
    if (img.current?.complete && img.current.naturalWidth === 0 && img.current.currentSrc) setGone(true);
  }, []);
  if (gone) return <span className="pic-gone">{TEXTS.picNoLongerShared}</span>;
  return (
    <img
      ref={img}
      src={profilePicUrl(id, 256)}
      alt={UI_TEXTS.attachedPicture}
      loading="lazy"
      onError={() => setGone(true)}
    />
  );
}

/** How long after sending its sender may take a message back from both sides (kv/messages.ts UNSEND_WINDOW_MS). */
const UNSEND_MS = 10 * 60_000;

export interface MessageBubbleProps {
  m: Message;
  mine: boolean;
  author?: string;
  /** Deleting, where the screen offers it (private chat): "me" takes it off my side, "both" unsends it. */
  onDelete?: (scope: "me" | "both") => void;
  /** Opens a view-once message (the recipient's, once). */
  onOpen?: () => void;
  /** Follows a bubble of the same sender closely: drawn as one group with it. */
  grouped?: boolean;
}

export function MessageBubble({ m, mine, author, onDelete, onOpen, grouped }: MessageBubbleProps) {
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState(false);
  // A first message held as possible spam (kv/spam.ts) shows only when its recipient asks.
  if (m.held && !mine && !shown) {
    return (
      <div className="bubble held">
        <p className="bubble-body">
          {author && <strong className="author">{author}</strong>}
          <span className="text">{MODERATION_TEXTS.spamHeld}</span>
        </p>
        <button type="button" className="link-button" onClick={() => setShown(true)}>
          {MODERATION_TEXTS.spamShow}
        </button>
        {/* Why a secret chat never holds one: its texts are never read by the server. */}
        <p className="hint held-why">{MODERATION_TEXTS.spamSecret}</p>
      </div>
    );
  }
  return (
    <div className={`bubble${mine ? " mine" : ""}${grouped ? " grouped" : ""}`}>
      <button type="button" className="bubble-body" onClick={() => setOpen(!open)} aria-expanded={open}>
        {author && <strong className="author">{author}</strong>}
        {m.bodyText && <span className="text" dir="auto">{m.bodyText}</span>}
        {m.profilePicIds.length > 0 && m.viewOnce && !mine && m.tsOpened && (
          <span className="view-once opened">{TEXTS.viewOnce} · {TEXTS.viewOnceOpened}</span>
        )}
        {m.profilePicIds.length > 0 && (!m.viewOnce || mine) && (
          <span className="bubble-pics">
            {m.profilePicIds.map((id) => <BubblePicture key={id} id={id} />)}
          </span>
        )}
        {m.viewOnce && mine && (
          <span className="view-once-state">
            {TEXTS.viewOnce} · {m.tsOpened ? TEXTS.viewOnceOpened : TEXTS.viewOnceNotOpened}
          </span>
        )}
        {mine && m.recipientProfileId && (
          <span className="checks" aria-label={m.tsRecipientRead ? UI_TEXTS.read : UI_TEXTS.sent}>
            {m.tsRecipientRead ? "✓✓" : "✓"}
          </span>
        )}
      </button>
      {m.profilePicIds.length > 0 && m.viewOnce && !mine && !m.tsOpened && (
        <button
          type="button"
          className="view-once"
          onClick={() => onOpen?.()}
        >
          <Lock className="icon" aria-hidden="true" /> {TEXTS.viewOnceOpen}
        </button>
      )}
      {open && (
        <small className="bubble-times">
          {UI_TEXTS.sent} <Time ts={m.tsCreated} />
          {m.recipientProfileId && (
            <>
              {" · "}
              {m.tsRecipientRead
                ? (
                  <>
                    {UI_TEXTS.seen} <Time ts={m.tsRecipientRead} />
                  </>
                )
                : TEXTS.hasNotSeen}
            </>
          )}
        </small>
      )}
      {open && onDelete && (
        <span className="bubble-actions">
          <button type="button" className="link" onClick={() => onDelete("me")}>{TEXTS.deleteForMe}</button>
          {mine && Date.now() - m.tsCreated < UNSEND_MS && (
            <button
              type="button"
              className="link"
              onClick={() => onDelete("both")}
            >
              {TEXTS.unsend}
            </button>
          )}
        </span>
      )}
    </div>
  );
}
