/**
 * The message composer: one line that grows, the picture button inside it and Send; Enter sends,
 * Shift+Enter starts a new line; a counter shows near the 4000 characters. Nothing is sent when
 * the text is empty after trimming and no picture is chosen (spec §5).
 */

import { Camera } from "./icons.ts";
import { type FormEvent, useLayoutEffect, useRef, useState } from "react";
import { MAX_TEXT, TEXTS } from "../domain/texts.ts";
import { profilePicUrl } from "../domain/format.ts";
import { SCREEN_TEXTS } from "../domain/screenTexts.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";

export interface ComposerPic {
  id: string;
  private: boolean;
}

export function Composer(
  { onSend, pics = [], placeholder, busy, onTyping }: {
    onSend: (text: string, picIds: string[], viewOnce: boolean) => Promise<unknown>;
    pics?: ComposerPic[];
    placeholder: string;
    busy: boolean;
    /** Called as the member types (the screen tells the other side, throttled). */
    onTyping?: () => void;
  },
) {
  const [text, setText] = useState("");
  const [chosen, setChosen] = useState<string[]>([]);
  const [showPics, setShowPics] = useState(false);
  const [viewOnce, setViewOnce] = useState(false);
  // "View once" is offered when every chosen picture is private.
  const canViewOnce = chosen.length > 0 && chosen.every((id) => pics.find((p) => p.id === id)?.private);
  const [error, setError] = useState("");
  // One line that grows with the text, up to a few lines (then it scrolls: static/css/chat.css).
  const box = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${el.scrollHeight + el.offsetHeight - el.clientHeight}px`;
  }, [text]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const body = text.trim();
    if (!body && chosen.length === 0) return;
    setError("");
    // Cleared at once, as chat apps do: the message shows below while it goes (pending, if it
    // waits for a connection), and what the member types next is never wiped when it lands.
    const sent = { text, chosen, viewOnce };
    setText("");
    setChosen([]);
    setShowPics(false);
    setViewOnce(false);
    try {
      await onSend(body, sent.chosen, canViewOnce && sent.viewOnce);
    } catch (err) {
      // Refused: the message comes back to the box (unless something new was typed there).
      setText((now) => now || sent.text);
      setChosen((now) => now.length ? now : sent.chosen);
      setViewOnce(sent.viewOnce);
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  return (
    <form className="composer" onSubmit={submit}>
      <div className="composer-line">
        {pics.length > 0 && (
          <button
            type="button"
            className="composer-pics"
            title={SCREEN_TEXTS.attachPictures}
            aria-label={SCREEN_TEXTS.attachPictures}
            onClick={() => setShowPics(!showPics)}
            aria-expanded={showPics}
          >
            <Camera className="icon" aria-hidden="true" /> {chosen.length > 0 ? chosen.length : ""}
          </button>
        )}
        <textarea
          ref={box}
          dir="auto"
          aria-label={TEXTS.message}
          rows={1}
          maxLength={MAX_TEXT}
          placeholder={placeholder}
          enterKeyHint="send"
          value={text}
          onChange={(e) => {
            setText(e.target.value.slice(0, MAX_TEXT));
            if (e.target.value.trim()) onTyping?.();
          }}
          onKeyDown={(e) => {
            // Enter sends, Shift+Enter starts a new line.
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <button
          type="submit"
          className="primary composer-send"
          disabled={busy || (!text.trim() && chosen.length === 0)}
        >
          {TEXTS.send}
        </button>
      </div>
      {text.length > MAX_TEXT - 500 && <span className="counter">{text.length}/{MAX_TEXT}</span>}
      {showPics && (
        <div className="pic-chooser">
          {pics.map((p) => (
            <label key={p.id} className={chosen.includes(p.id) ? "chosen" : ""}>
              <input
                type="checkbox"
                checked={chosen.includes(p.id)}
                onChange={(e) => setChosen(e.target.checked ? [...chosen, p.id] : chosen.filter((x) => x !== p.id))}
              />
              <img src={profilePicUrl(p.id, 256)} alt={p.private ? UI_TEXTS.privatePicture : UI_TEXTS.picture} />
              {p.private && <small>{UI_TEXTS.private}</small>}
            </label>
          ))}
        </div>
      )}
      {canViewOnce && (
        <label className="check view-once">
          <input type="checkbox" checked={viewOnce} onChange={(e) => setViewOnce(e.target.checked)} /> {TEXTS.viewOnce}
        </label>
      )}
      {error && <p className="error" role="alert">{error}</p>}
    </form>
  );
}
