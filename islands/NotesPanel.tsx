/**
 * The notes panel of a profile (spec §2, §4, §5): hidden or editing. A free-text note (max 4000,
 * with a counter) and private tags (trimmed, ignored if empty or present, Enter adds). Only the
 * author ever sees them. It saves when the text loses focus, when a tag is added or removed,
 * and on Done. A failed save is logged (spec §8) and never loses what was typed: the panel stays
 * open with the text and says that saving failed; Done closes it only once the note is saved.
 */

import { NotebookPen } from "../components/icons.ts";
import { type KeyboardEvent, useState } from "react";
import { QueryProvider } from "./queries/client.tsx";
import { type ProfileNote, useNoteMutation, useNoteQuery } from "./queries/notes.ts";
import { MAX_TEXT, TEXTS } from "../domain/texts.ts";
import { FEEL_TEXTS } from "../domain/feelTexts.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import { cleanTags, MAX_TAG_LENGTH, MAX_TAGS } from "../domain/tags.ts";
import { useOpenedByHash } from "./useOpenedByHash.ts";
import { phrase } from "../domain/phrases.ts";
import { type Queued, useQueuedWrite } from "./queries/outbox.ts";
import { QueuedFailure } from "./queries/QueuedFailure.tsx";

export interface NotesPanelProps {
  note: ProfileNote;
}

function Panel({ note: initial }: NotesPanelProps) {
  const { authorProfileId, aboutProfileId } = initial;
  const { data } = useNoteQuery(authorProfileId, aboutProfileId, initial);
  // A note saved without a connection waits on this device: it is the note, until sent.
  const queued = useQueuedWrite("PUT /api/profile-note", { authorProfileId, aboutProfileId });
  const saved = data ?? initial;
  const note: ProfileNote = queued && !queued.failed
    ? { ...saved, ...(queued.json as Pick<ProfileNote, "bodyText" | "privateTags">) }
    : saved;
  const save = useNoteMutation();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(note.bodyText);
  const [tags, setTags] = useState(note.privateTags);
  const [tag, setTag] = useState("");
  const [failed, setFailed] = useState(false);

  /** Saves when something changed; resolves false when the save failed (the text stays in the panel). */
  const saveIfChanged = async (bodyText: string, privateTags: string[]): Promise<boolean> => {
    // Compared with the note the cache holds (the server's, or the one written offline), not with
    // a write still on its way (it may yet fail).
    if (bodyText === saved.bodyText && privateTags.join("\n") === saved.privateTags.join("\n")) return true;
    try {
      await save.mutateAsync({ authorProfileId, aboutProfileId, bodyText, privateTags });
      setFailed(false);
      return true;
    } catch {
      setFailed(true);
      return false;
    }
  };
  const done = async () => {
    if (await saveIfChanged(text, tags)) setEditing(false);
  };
  const open = () => {
    setText(note.bodyText);
    setTags(note.privateTags);
    setEditing(true);
  };
  // The profile's action bar links here (#notes).
  useOpenedByHash("notes", () => !editing && open());
  const addTag = () => {
    const next = cleanTags([...tags, tag]).slice(0, MAX_TAGS);
    setTag("");
    if (next.length === tags.length) return; // empty or already present
    setTags(next);
    saveIfChanged(text, next);
  };
  const removeTag = (t: string) => {
    const next = tags.filter((x) => x !== t);
    setTags(next);
    saveIfChanged(text, next);
  };
  const onTagKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    addTag();
  };

  if (!editing) {
    const empty = !note.bodyText && note.privateTags.length === 0;
    return (
      <section id="notes" className="panel notes-panel" aria-label={TEXTS.privateNotes}>
        <button type="button" className="panel-toggle" aria-expanded="false" onClick={open}>
          <NotebookPen className="icon" aria-hidden="true" /> {empty ? phrase("Add Private Notes") : TEXTS.privateNotes}
        </button>
        {note.bodyText && <p className="note-preview">{note.bodyText}</p>}
        {note.privateTags.length > 0 && (
          <ul className="tags" aria-label={TEXTS.yourTags}>
            {note.privateTags.map((t) => <li key={t} className="tag">{t}</li>)}
          </ul>
        )}
        <QueuedNote queued={queued} />
      </section>
    );
  }
  return (
    <section id="notes" className="panel notes-panel editing" aria-label={TEXTS.privateNotes}>
      <p className="muted">{TEXTS.notesOnlyYou}</p>
      <label>
        {TEXTS.note}
        <textarea
          dir="auto"
          rows={5}
          maxLength={MAX_TEXT}
          value={text}
          onChange={(e) => setText(e.target.value.slice(0, MAX_TEXT))}
          onBlur={() => saveIfChanged(text, tags)}
        />
      </label>
      <span className="counter" aria-live="polite">{text.length}/{MAX_TEXT}</span>
      <label>
        {TEXTS.tags}
        <input
          value={tag}
          maxLength={MAX_TAG_LENGTH}
          placeholder={TEXTS.tagPlaceholder}
          enterKeyHint="done"
          onChange={(e) => setTag(e.target.value)}
          onKeyDown={onTagKey}
        />
      </label>
      {tags.length > 0 && (
        <ul className="tags" aria-label={TEXTS.yourTags}>
          {tags.map((t) => (
            <li key={t} className="tag">
              {t}
              <button
                type="button"
                className="tag-remove"
                aria-label={FEEL_TEXTS.removeTag(t)}
                onClick={() => removeTag(t)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="row">
        <button type="button" className="primary" onClick={done}>
          {TEXTS.done}
        </button>
        {save.isPending && <span className="muted" role="status">{TEXTS.saving}</span>}
      </div>
      {failed && !save.isPending && <p className="error" role="alert">{TEXTS.noteSaveFailed}</p>}
      <QueuedNote queued={queued} />
    </section>
  );
}

/** A note waiting on this device for a connection, or refused later, with a retry. */
function QueuedNote({ queued }: { queued: Queued | undefined }) {
  if (!queued) return null;
  if (!queued.failed) return <p className="muted queued-state" role="status">{UI_TEXTS.writeWaiting}</p>;
  return <QueuedFailure queued={queued} />;
}

export default function NotesPanel(props: NotesPanelProps) {
  return (
    <QueryProvider>
      <Panel {...props} />
    </QueryProvider>
  );
}
