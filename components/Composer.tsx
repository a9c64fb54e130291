/**
 * The message composer: text with a counter and, optionally, my pictures to attach. Nothing is
 * sent when the text is empty after trimming and no picture is chosen (spec §5).
 */

import { type FormEvent, useState } from "react";
import { MAX_TEXT, TEXTS } from "../domain/texts.ts";
import { profilePicUrl } from "../domain/format.ts";

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

  async function submit(e: FormEvent) {
    e.preventDefault();
    const body = text.trim();
    if (!body && chosen.length === 0) return;
    setError("");
    try {
      await onSend(body, chosen, canViewOnce && viewOnce);
      setText("");
      setChosen([]);
      setShowPics(false);
      setViewOnce(false);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  return (
    <form className="composer" onSubmit={submit}>
      <textarea
        aria-label={TEXTS.message}
        rows={2}
        maxLength={MAX_TEXT}
        placeholder={placeholder}
        value={text}
        onChange={(e) => {
          setText(e.target.value.slice(0, MAX_TEXT));
          if (e.target.value.trim()) onTyping?.();
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey) {
            e.preventDefault();
            e.currentTarget.form?.requestSubmit();
          }
        }}
      />
      <div className="row between">
        <span className="counter">{text.length}/{MAX_TEXT}</span>
        {pics.length > 0 && (
          <button type="button" onClick={() => setShowPics(!showPics)} aria-expanded={showPics}>
            📷 {chosen.length > 0 ? chosen.length : ""}
          </button>
        )}
        <button type="submit" className="primary" disabled={busy || (!text.trim() && chosen.length === 0)}>
          {TEXTS.send}
        </button>
      </div>
      {showPics && (
        <div className="pic-chooser">
          {pics.map((p) => (
            <label key={p.id} className={chosen.includes(p.id) ? "chosen" : ""}>
              <input
                type="checkbox"
                checked={chosen.includes(p.id)}
                onChange={(e) => setChosen(e.target.checked ? [...chosen, p.id] : chosen.filter((x) => x !== p.id))}
              />
              <img src={profilePicUrl(p.id, 256)} alt={p.private ? "Private picture" : "Picture"} />
              {p.private && <small>Private</small>}
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
