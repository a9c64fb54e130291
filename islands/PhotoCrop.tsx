/**
 * Help my Photos (design.md, Community games): suggest a portrait (4:5) crop for a nearby
 * member's public picture by moving and sizing a box on it; and, for one's own pictures, the
 * suggestions others made, to accept (the picture is cropped) or dismiss.
 */

import { type PointerEvent, useRef, useState } from "react";
import { api, ApiFailure } from "./queries/api.ts";
import { useShowsNsfw } from "./useShowsNsfw.ts";
import { profilePicUrl, profileUrl, shortName } from "../domain/format.ts";
import { GAME_TEXTS } from "../domain/games.ts";
import { apiPath } from "../domain/apiPath.ts";
import type { CropFractions, CropItem, CropSuggestionView } from "../domain/shapes/pictures.ts";
import { BackToGames } from "../components/BackToGames.tsx";

/** A suggestion for one's own picture as the page hands it over (the page leaves out the owner and the generation). */
export type PhotoCropSuggestion = Omit<CropSuggestionView, "ownerProfileId" | "gen">;

export interface PhotoCropProps {
  item: CropItem | null;
  credits: number;
  suggestions: PhotoCropSuggestion[];
}

const ASPECT = 0.8;
const MIN_SIZE = 0.3;

/** The box of relative size `size` (1: as large as fits) with its top-left at (px, py) of the free room. */
function boxOf(item: CropItem, size: number, px: number, py: number): CropFractions {
  const maxW = Math.min(item.width, item.height * ASPECT);
  const w = (size * maxW) / item.width;
  const h = (size * maxW) / ASPECT / item.height;
  return { x: px * (1 - w), y: py * (1 - h), width: w, height: h };
}

const pct = (n: number) => `${(n * 100).toFixed(3)}%`;

/** A labelled slider over [min, 1] in hundredths. */
function CropSlider(
  { label, min = 0, value, onChange }: { label: string; min?: number; value: number; onChange: (v: number) => void },
) {
  return (
    <label className="crop-slider">
      {label}
      <input
        type="range"
        min={min}
        max={1}
        step={0.01}
        value={value}
        onChange={(e) => onChange(Number(e.currentTarget.value))}
      />
    </label>
  );
}

function Overlay({ box }: { box: CropFractions }) {
  return (
    <span
      className="crop-box"
      style={{ left: pct(box.x), top: pct(box.y), width: pct(box.width), height: pct(box.height) }}
    />
  );
}

function Suggestions({ initial }: { initial: PhotoCropSuggestion[] }) {
  const [items, setItems] = useState(initial);
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const answer = async (s: PhotoCropSuggestion, action: "ACCEPT" | "DISMISS") => {
    setBusy(true);
    try {
      await api(apiPath("PUT /api/games/photocrop/suggestions/:id", { id: s.id }), { method: "PUT", json: { action } });
      setNote(action === "ACCEPT" ? GAME_TEXTS.cropAccepted : GAME_TEXTS.cropDismissed);
      // An accepted crop makes the other suggestions for that picture stale.
      setItems((list) => list.filter((x) => x.id !== s.id && (action === "DISMISS" || x.picId !== s.picId)));
    } catch (e) {
      setNote(e instanceof ApiFailure && e.status < 500 ? e.message : GAME_TEXTS.saveFailed);
      if (e instanceof ApiFailure && (e.status === 404 || e.status === 409)) {
        setItems((list) => list.filter((x) => x.id !== s.id));
      }
    } finally {
      setBusy(false);
    }
  };
  if (items.length === 0 && !note) return null;
  return (
    <section className="crop-suggestions" aria-labelledby="crop-suggestions-title">
      <h2 id="crop-suggestions-title">{GAME_TEXTS.cropForYou}</h2>
      {note && <p role="status" className="game-note">{note}</p>}
      <ul>
        {items.map((s) => (
          <li key={s.id} data-suggestion-id={s.id}>
            <span className="crop-frame small" style={{ aspectRatio: `${s.width} / ${s.height}` }}>
              <img src={profilePicUrl(s.picId, 256)} alt={GAME_TEXTS.cropYourPicture} draggable={false} />
              <Overlay box={s.box} />
            </span>
            <span className="crop-actions">
              <button type="button" className="primary" disabled={busy} onClick={() => answer(s, "ACCEPT")}>
                {GAME_TEXTS.cropAccept}
              </button>
              <button type="button" disabled={busy} onClick={() => answer(s, "DISMISS")}>
                {GAME_TEXTS.cropDismiss}
              </button>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function PhotoCrop(props: PhotoCropProps) {
  const [item, setItem] = useState(props.item);
  const [credits, setCredits] = useState(props.credits);
  const [size, setSize] = useState(0.8);
  const [pos, setPos] = useState({ x: 0.5, y: 0.5 });
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState("");
  const skipped = useRef<string[]>([]);
  const drag = useRef<{ id: number; x0: number; y0: number; from: { x: number; y: number } } | null>(null);
  const nsfw = useShowsNsfw();
  const box = item ? boxOf(item, size, pos.x, pos.y) : null;

  const clamp = (n: number) => Math.min(1, Math.max(0, n));
  const onPointerDown = (e: PointerEvent<HTMLSpanElement>) => {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { id: e.pointerId, x0: e.clientX, y0: e.clientY, from: pos };
  };
  const onPointerMove = (e: PointerEvent<HTMLSpanElement>) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId || !box) return;
    const rect = e.currentTarget.getBoundingClientRect();
    // Moving the box by dx pixels moves its free-room position by dx / (free room in pixels).
    const roomX = rect.width * (1 - box.width), roomY = rect.height * (1 - box.height);
    setPos({
      x: roomX > 0 ? clamp(d.from.x + (e.clientX - d.x0) / roomX) : 0.5,
      y: roomY > 0 ? clamp(d.from.y + (e.clientY - d.y0) / roomY) : 0.5,
    });
  };
  const onPointerUp = () => {
    drag.current = null;
  };

  const next = async () => {
    const skip = skipped.current.slice(-50).map(encodeURIComponent).join(",");
    const r = await api<{ item: CropItem | null; credits: number }>(
      apiPath("GET /api/games/photocrop/next", {}, { skip }),
    );
    setItem(r.item);
    setCredits(r.credits);
    setSize(0.8);
    setPos({ x: 0.5, y: 0.5 });
  };

  const skip = async () => {
    if (!item || busy) return;
    skipped.current.push(item.picId);
    setBusy(true);
    setMessage("");
    try {
      await next();
    } catch {
      setMessage(GAME_TEXTS.loadFailed);
    } finally {
      setBusy(false);
    }
  };

  const suggest = async () => {
    if (!item || !box || busy) return;
    setBusy(true);
    setMessage("");
    try {
      const r = await api<{ credits: number }>(apiPath("PUT /api/games/photocrop/:picId", { picId: item.picId }), {
        method: "PUT",
        json: { gen: item.gen, ...box },
      });
      setCredits(r.credits);
      setMessage(GAME_TEXTS.cropSent);
      await next();
    } catch (e) {
      setMessage(e instanceof ApiFailure && e.status < 500 ? e.message : GAME_TEXTS.saveFailed);
      if (e instanceof ApiFailure && (e.status === 404 || e.status === 409)) await next().catch(() => {});
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="game photo-crop">
      <p className="game-credits" aria-live="polite">{GAME_TEXTS.credits(credits)}</p>
      <Suggestions initial={props.suggestions} />
      <section className="crop-help" aria-labelledby="crop-help-title">
        <h2 id="crop-help-title">{GAME_TEXTS.cropHelp}</h2>
        {message && <p role="status" className="game-note">{message}</p>}
        {!item || !box ? <p className="game-empty">{GAME_TEXTS.cropEmpty}</p> : (
          <>
            <p className="crop-owner">
              <a href={profileUrl(item.profileId)}>{shortName(item.profileName)}</a>
            </p>
            <span
              className="crop-frame"
              style={{ aspectRatio: `${item.width} / ${item.height}` }}
              data-pic-id={item.picId}
              onPointerDown={onPointerDown}
              onPointerMove={onPointerMove}
              onPointerUp={onPointerUp}
              onPointerCancel={onPointerUp}
            >
              <img
                src={profilePicUrl(item.picId, 512, nsfw)}
                alt={`${item.profileName}`}
                draggable={false}
              />
              <Overlay box={box} />
            </span>
            <CropSlider label={GAME_TEXTS.cropSize} min={MIN_SIZE} value={size} onChange={setSize} />
            <CropSlider label={GAME_TEXTS.cropLeftRight} value={pos.x} onChange={(x) => setPos({ ...pos, x })} />
            <CropSlider label={GAME_TEXTS.cropUpDown} value={pos.y} onChange={(y) => setPos({ ...pos, y })} />
            <div className="game-buttons">
              <button type="button" className="primary" disabled={busy} onClick={suggest}>
                {GAME_TEXTS.cropSuggest}
              </button>
              <button type="button" disabled={busy} onClick={skip}>{GAME_TEXTS.cropSkip}</button>
            </div>
          </>
        )}
      </section>
      <BackToGames />
    </div>
  );
}
