/**
 * The Profile Editor (/profileEdit, spec §2 and §4): the member's pictures in a Public Pics and
 * a Private Pics list (drag to reorder and to move between them, Crop, Remove, the NSFW flag),
 * then the fields, which save on blur, and the characteristics by category, which save on
 * change; a Save button saves every field. 'Saved' shows for 1 second; a picture change shows
 * 'Saved Image Changes' or 'Could not replace images...'.
 *
 * Dragging uses pointer events on a handle (mouse, pen and touch alike; the handle has
 * `touch-action: none` so the page still scrolls everywhere else), and each card also has
 * buttons that do the same moves from the keyboard.
 */

import { ChevronLeft, ChevronRight } from "../components/icons.ts";
import { type FormEvent, type PointerEvent as ReactPointerEvent, useEffect, useRef, useState } from "react";
import { QueryProvider } from "./queries/client.tsx";
import { ApiFailure } from "./queries/api.ts";
import { type ProfileChange, type ProfileView, useMyProfile, useProfileMutation } from "./queries/profiles.ts";
import { useNsfwMutation, useRemovePicMutation } from "./queries/pictures.ts";
import { useShowsNsfw } from "./useShowsNsfw.ts";
import { CharacteristicChecks } from "../components/CharacteristicChecks.tsx";
import { latestAdultBirthdate } from "../domain/age.ts";
import { picImgProps } from "../domain/pictures.ts";
import { MAX_TEXT, TEXTS, titleText } from "../domain/texts.ts";
import { FEEL_TEXTS } from "../domain/feelTexts.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import type { PicInfo } from "../domain/shapes/pictures.ts";
import { phrase } from "../domain/phrases.ts";
import { profileUrl } from "../domain/format.ts";

/** The 'Saved' banner shows this long in the editor (spec §9). */
export const SAVED_MS = 1000;
/** The picture change message shows this long. */
export const PIC_STATUS_MS = 3000;
/** A drag this close (px) to the top or bottom edge scrolls the page by EDGE_SCROLL_PX per move. */
const EDGE_PX = 48;
const EDGE_SCROLL_PX = 14;
/** A Remove waits this long for its confirmation. */
const CONFIRM_MS = 4000;

export const EDITOR_TEXTS = {
  get savedImages() {
    return phrase("Saved Image Changes");
  },
  get couldNotReplace() {
    return phrase("Could not replace images...");
  },
  get nsfwHidden() {
    return phrase("Profile pictures (NSFW) editing is hidden.");
  },
};

type ListName = "public" | "private";
type Lists = Record<ListName, string[]>;

const listsOf = (p: ProfileView): Lists => ({ public: p.profilePicIds, private: p.profilePicIdsPrivate });
const sameLists = (a: Lists, b: Lists) => a.public.join() === b.public.join() && a.private.join() === b.private.join();

/**
 * Moves `id` to the place of `overId` in `list` (after it when coming from before it in the same
 * list, so a forward drag works), or to the end of `list` when `overId` is absent.
 */
export function moveTo(cur: Lists, id: string, list: ListName, overId?: string): Lists {
  if (overId === id) return cur;
  const from: ListName = cur.public.includes(id) ? "public" : "private";
  if (!overId && from === list) return cur;
  const without: Lists = { public: cur.public.filter((x) => x !== id), private: cur.private.filter((x) => x !== id) };
  const target = [...without[list]];
  if (!overId) target.push(id);
  else {
    const at = target.indexOf(overId);
    const forward = from === list && cur[list].indexOf(id) < cur[list].indexOf(overId);
    target.splice(at + (forward ? 1 : 0), 0, id);
  }
  return { ...without, [list]: target };
}

interface Fields {
  profilename: string;
  birthdate: string;
  height: string;
  weight: string;
  description: string;
}

const fieldsOf = (p: ProfileView): Fields => ({
  profilename: p.profilename,
  birthdate: p.birthdate ?? "",
  height: p.height,
  weight: p.weight,
  description: p.description,
});

/** A message that hides itself after `ms`. */
function useFlash(ms: number): [string, (text: string) => void] {
  const [text, setText] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return [text, (next: string) => {
    clearTimeout(timer.current);
    setText(next);
    timer.current = setTimeout(() => setText(""), ms);
  }];
}

function EditorBody({ profile: initial }: { profile: ProfileView }) {
  const p = useMyProfile(initial);
  const save = useProfileMutation(p.id);
  const [fields, setFields] = useState<Fields>(() => fieldsOf(p));
  const [chars, setChars] = useState<string[]>(p.characteristics);
  const [error, setError] = useState("");
  const [saved, flashSaved] = useFlash(SAVED_MS);

  function saveChange(change: ProfileChange, onFail?: () => void) {
    setError("");
    save.mutate(change, {
      onSuccess: () => flashSaved(TEXTS.saved),
      onError: (e) => {
        setError(e instanceof ApiFailure ? e.message : TEXTS.profileSaveFailed);
        onFail?.();
      },
    });
  }

  /** Text fields save on blur, when they changed (spec §4). */
  function saveField(name: keyof Fields) {
    const value = name === "description" ? fields[name] : fields[name].trim();
    if (value === fieldsOf(p)[name]) return;
    if (name === "profilename" && !value) return setError(TEXTS.nameRequired);
    saveChange({ [name]: value });
  }

  function saveAll(e: FormEvent) {
    e.preventDefault();
    if (!fields.profilename.trim()) return setError(TEXTS.nameRequired);
    saveChange({
      profilename: fields.profilename.trim(),
      birthdate: fields.birthdate,
      height: fields.height.trim(),
      weight: fields.weight.trim(),
      description: fields.description,
      characteristics: chars,
    });
  }

  /** Checkboxes save at once (spec §4). */
  function toggleChar(value: string, on: boolean) {
    const before = chars;
    const next = on ? [...chars, value] : chars.filter((c) => c !== value);
    setChars(next);
    saveChange({ characteristics: next }, () => setChars(before));
  }

  const field = (name: keyof Fields) => ({
    value: fields[name],
    onChange: (e: { target: { value: string } }) => setFields({ ...fields, [name]: e.target.value }),
    onBlur: () => saveField(name),
  });

  return (
    <div className="editor">
      <p className="links editor-links">
        <a href={profileUrl(p.id)}>{TEXTS.viewMyProfile}</a>
        <a href="/settings">{titleText("Account Settings")}</a>
      </p>
      {saved && <p className="saved-banner" role="status">{saved}</p>}

      <PicturesEditor profile={p} />

      <form className="stack editor-form" onSubmit={saveAll} noValidate>
        <h2>{TEXTS.aboutYou}</h2>
        <label>
          {TEXTS.name}
          <input {...field("profilename")} maxLength={50} autoComplete="nickname" required />
        </label>
        <label>
          {TEXTS.birthdateLabel}
          <input type="date" {...field("birthdate")} max={latestAdultBirthdate(Date.now())} min="1900-01-01" />
        </label>
        <div className="row two">
          <label>
            {TEXTS.height}
            <input {...field("height")} maxLength={40} placeholder={phrase("e.g. 5'10\" or 178 cm")} />
          </label>
          <label>
            {TEXTS.weight}
            <input {...field("weight")} maxLength={40} placeholder={UI_TEXTS.weightPlaceholder} />
          </label>
        </div>
        <label>
          {TEXTS.description}
          <textarea
            dir="auto"
            rows={8}
            maxLength={MAX_TEXT}
            {...field("description")}
            onChange={(e) => setFields({ ...fields, description: e.target.value.slice(0, MAX_TEXT) })}
          />
          <span className="counter" aria-live="polite">{fields.description.length}/{MAX_TEXT}</span>
        </label>
        <h2>{TEXTS.characteristics}</h2>
        <CharacteristicChecks chosen={chars} onToggle={toggleChar} />
        {error && <p className="error" role="alert">{error}</p>}
        <button type="submit" className="primary" disabled={save.isPending}>{TEXTS.save}</button>
      </form>
    </div>
  );
}

/** The picture management lists: drag, Crop, Remove, NSFW, and keyboard moves. */
function PicturesEditor({ profile: p }: { profile: ProfileView }) {
  const showNsfw = useShowsNsfw();
  const save = useProfileMutation(p.id);
  const remove = useRemovePicMutation(p.id);
  const nsfw = useNsfwMutation(p.id);
  const [lists, setLists] = useState<Lists>(() => listsOf(p));
  const latest = useRef(lists);
  latest.current = lists;
  const [dragging, setDragging] = useState<string | null>(null);
  const drag = useRef<{ id: string; pointerId: number; start: Lists } | null>(null);
  const [status, flashStatus] = useFlash(PIC_STATUS_MS);
  const [statusOk, setStatusOk] = useState(true);
  const [confirming, setConfirming] = useState<string | null>(null);
  const byId = new Map(p.pictures.map((x) => [x.id, x]));

  // The server's lists win whenever they change and no drag is under way.
  const serverLists = listsOf(p);
  const serverKey = `${serverLists.public.join()}|${serverLists.private.join()}`;
  useEffect(() => {
    if (!drag.current) setLists(listsOf(p));
  }, [serverKey]);

  useEffect(() => {
    if (!confirming) return;
    const t = setTimeout(() => setConfirming(null), CONFIRM_MS);
    return () => clearTimeout(t);
  }, [confirming]);

  function commit(next: Lists) {
    setLists(next);
    if (sameLists(next, listsOf(p))) return;
    save.mutate({ profilePicIds: next.public, profilePicIdsPrivate: next.private }, {
      onSuccess: () => {
        setStatusOk(true);
        flashStatus(EDITOR_TEXTS.savedImages);
      },
      onError: () => {
        setLists(listsOf(p));
        setStatusOk(false);
        flashStatus(EDITOR_TEXTS.couldNotReplace);
      },
    });
  }

  const locked = (pic: PicInfo) => pic.nsfw && !showNsfw;

  // Move and up are followed on the window: the card (and its handle) remounts when it moves
  // to the other list, which would end a pointer capture on the handle.
  function onPointerDown(e: ReactPointerEvent<HTMLElement>, id: string) {
    if (e.button !== 0 || drag.current) return;
    e.preventDefault();
    const pointerId = e.pointerId;
    const start = latest.current;
    const move = (ev: PointerEvent) => {
      if (ev.pointerId !== pointerId) return;
      ev.preventDefault();
      // Near the top or bottom edge the page scrolls, so a list out of view can be reached.
      if (ev.clientY < EDGE_PX + 56) scrollBy(0, -EDGE_SCROLL_PX);
      else if (ev.clientY > innerHeight - EDGE_PX) scrollBy(0, EDGE_SCROLL_PX);
      const el = document.elementFromPoint(ev.clientX, ev.clientY) as HTMLElement | null;
      const zone = el?.closest<HTMLElement>("[data-pic-list]");
      if (!zone) return;
      const over = el?.closest<HTMLElement>("[data-pic-id]")?.dataset.picId;
      const overPic = over ? byId.get(over) : undefined;
      if (overPic && locked(overPic)) return;
      setLists((cur) => moveTo(cur, id, zone.dataset.picList as ListName, over));
    };
    const end = (ev: PointerEvent) => {
      if (ev.pointerId !== pointerId) return;
      removeEventListener("pointermove", move);
      removeEventListener("pointerup", end);
      removeEventListener("pointercancel", end);
      drag.current = null;
      setDragging(null);
      if (ev.type === "pointercancel") setLists(start);
      else commit(latest.current);
    };
    addEventListener("pointermove", move, { passive: false });
    addEventListener("pointerup", end);
    addEventListener("pointercancel", end);
    drag.current = { id, pointerId, start };
    setDragging(id);
  }

  function shift(id: string, by: -1 | 1) {
    const list: ListName = lists.public.includes(id) ? "public" : "private";
    const at = lists[list].indexOf(id);
    const to = at + by;
    if (to < 0 || to >= lists[list].length) return;
    const next = [...lists[list]];
    [next[at], next[to]] = [next[to], next[at]];
    commit({ ...lists, [list]: next });
  }

  function renderList(name: ListName, title: string, hint: string) {
    const ids = lists[name].filter((id) => byId.has(id));
    return (
      <section className="pic-list-section" aria-labelledby={`pics-${name}`}>
        <h3 id={`pics-${name}`}>{title}</h3>
        <p className="muted">{hint}</p>
        <ul className={ids.length ? "tiles pic-edit-grid" : "tiles pic-edit-grid pic-edit-empty"} data-pic-list={name}>
          {ids.length === 0 && <li className="pic-drop-hint">{UI_TEXTS.dragPicturesHere}</li>}
          {ids.map((id, i) => {
            const pic = byId.get(id)!;
            const lock = locked(pic);
            return (
              <li key={id} data-pic-id={id} className={dragging === id ? "pic-card dragging" : "pic-card"}>
                <div className="tile">
                  <img {...picImgProps(pic, 256, showNsfw)} alt={`${title} ${i + 1}`} draggable={false} />
                  {pic.nsfw && <span className="pic-badge">NSFW</span>}
                  {!lock && (
                    <button
                      type="button"
                      className="drag-handle"
                      aria-label={FEEL_TEXTS.dragPicture(i + 1)}
                      title={UI_TEXTS.dragToMove}
                      onPointerDown={(e) => onPointerDown(e, id)}
                    >
                      ⠿
                    </button>
                  )}
                </div>
                {!lock && (
                  <div className="pic-card-actions">
                    <a className="button small" href={`/profilePicEdit?id=${id}`}>{UI_TEXTS.crop}</a>
                    {confirming === id
                      ? (
                        <button type="button" className="small danger" onClick={() => remove.mutate(id)}>
                          {UI_TEXTS.confirmRemove}
                        </button>
                      )
                      : (
                        <button type="button" className="small" onClick={() => setConfirming(id)}>
                          {UI_TEXTS.remove}
                        </button>
                      )}
                    <span className="pic-moves">
                      <button
                        type="button"
                        className="small"
                        aria-label={UI_TEXTS.moveEarlier}
                        disabled={i === 0}
                        onClick={() => shift(id, -1)}
                      >
                        <ChevronLeft className="icon dir-icon" aria-hidden="true" />
                      </button>
                      <button
                        type="button"
                        className="small"
                        aria-label={UI_TEXTS.moveLater}
                        disabled={i === ids.length - 1}
                        onClick={() => shift(id, 1)}
                      >
                        <ChevronRight className="icon dir-icon" aria-hidden="true" />
                      </button>
                      <button
                        type="button"
                        className="small"
                        onClick={() => commit(moveTo(lists, id, name === "public" ? "private" : "public"))}
                      >
                        {name === "public" ? UI_TEXTS.makePrivate : UI_TEXTS.makePublic}
                      </button>
                    </span>
                    <label className="check nsfw-check">
                      <input
                        type="checkbox"
                        checked={pic.nsfw}
                        disabled={nsfw.isPending}
                        onChange={(e) => nsfw.mutate({ id, nsfw: e.target.checked })}
                      />
                      NSFW
                    </label>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      </section>
    );
  }

  return (
    <section className="pic-editor" aria-labelledby="pics-title">
      <div className="row between">
        <h2 id="pics-title">{UI_TEXTS.pictures}</h2>
        <a className="button primary" href="/profilePicUpload">{UI_TEXTS.uploadPicture}</a>
      </div>
      {!showNsfw && <p className="warning" role="note">{EDITOR_TEXTS.nsfwHidden}</p>}
      {status && <p className={statusOk ? "success" : "error"} role="status">{status}</p>}
      {renderList("public", phrase("Public Pics"), phrase("Everyone sees these, in this order."))}
      {renderList("private", UI_TEXTS.privatePics, UI_TEXTS.privatePicsHint)}
    </section>
  );
}

export default function ProfileEditor(props: { profile: ProfileView }) {
  return (
    <QueryProvider>
      <EditorBody {...props} />
    </QueryProvider>
  );
}
