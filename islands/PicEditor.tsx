/**
 * The picture editor (/profilePicEdit?id=, spec §2, §5): crop at aspect 0.8, zoom and rotate
 * the whole upload, with an 80 px wide preview; Cancel and a successful Save return to the
 * Profile Editor, a failed Save is only logged (spec §8).
 *
 * The crop is kept in pixels of the whole upload turned by the rotation: a centre and a zoom
 * (1 = the frame just covered). The frame and the preview draw the same state at two widths;
 * Save sends the box the frame shows, which the server cuts from the stored upload.
 */

import { type PointerEvent as ReactPointerEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { QueryProvider } from "./queries/client.tsx";
import { useCropMutation } from "./queries/pictures.ts";
import type { CropBox } from "../domain/shapes/pictures.ts";
import { CROP_ASPECT, CROP_PREVIEW_WIDTH } from "../domain/pictures.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";

/** The most the picture can be zoomed in. */
const MAX_ZOOM = 5;

export interface PicEditorProps {
  profileId: string;
  picId: string;
  /** The whole upload's address and size. */
  sourceSrc: string;
  sourceWidth: number;
  sourceHeight: number;
  /** The saved crop, to start from. */
  crop: CropBox | null;
}

/** Crop state in pixels of the turned upload. */
export interface CropState {
  rotate: number;
  zoom: number;
  cx: number;
  cy: number;
}

/** Size of the upload turned by `rotate`. */
function turned(w: number, h: number, rotate: number) {
  return rotate % 180 === 0 ? { rw: w, rh: h } : { rw: h, rh: w };
}

/** The box (turned-upload pixels) a state shows in a frame of aspect 0.8. */
export function boxOf(s: CropState, w: number, h: number): CropBox {
  const { rw, rh } = turned(w, h, s.rotate);
  // At zoom 1 the frame is covered: the box is as large as fits, at aspect 0.8.
  const fullW = Math.min(rw, rh * CROP_ASPECT);
  const bw = fullW / s.zoom;
  const bh = bw / CROP_ASPECT;
  const x = Math.min(Math.max(0, Math.round(s.cx - bw / 2)), Math.max(0, rw - Math.round(bw)));
  const y = Math.min(Math.max(0, Math.round(s.cy - bh / 2)), Math.max(0, rh - Math.round(bh)));
  return {
    x,
    y,
    width: Math.max(1, Math.min(rw - x, Math.round(bw))),
    height: Math.max(1, Math.min(rh - y, Math.round(bh))),
    rotate: s.rotate,
  };
}

/** Keeps the centre where the box stays inside the turned upload. */
function clampState(s: CropState, w: number, h: number): CropState {
  const { rw, rh } = turned(w, h, s.rotate);
  const zoom = Math.min(MAX_ZOOM, Math.max(1, s.zoom));
  const bw = Math.min(rw, rh * CROP_ASPECT) / zoom;
  const bh = bw / CROP_ASPECT;
  return {
    rotate: s.rotate,
    zoom,
    cx: Math.min(rw - bw / 2, Math.max(bw / 2, s.cx)),
    cy: Math.min(rh - bh / 2, Math.max(bh / 2, s.cy)),
  };
}

/** The state a saved crop (or none: centred, zoom 1) starts from. */
function stateOf(crop: CropBox | null, w: number, h: number): CropState {
  if (!crop) return clampState({ rotate: 0, zoom: 1, cx: w / 2, cy: h / 2 }, w, h);
  const rotate = ((crop.rotate % 360) + 360) % 360;
  const { rw, rh } = turned(w, h, rotate);
  return clampState(
    {
      rotate,
      zoom: Math.min(rw, rh * CROP_ASPECT) / crop.width,
      cx: crop.x + crop.width / 2,
      cy: crop.y + crop.height / 2,
    },
    w,
    h,
  );
}

/** The picture as a frame `width` px wide shows it: the turned upload scaled and moved under the frame. */
function Frame({ state, width, src, w, h, className, children, ...handlers }: {
  state: CropState;
  width: number;
  src: string;
  w: number;
  h: number;
  className: string;
  children?: ReactNode;
  onPointerDown?: (e: ReactPointerEvent<HTMLDivElement>) => void;
  onPointerMove?: (e: ReactPointerEvent<HTMLDivElement>) => void;
  onPointerUp?: (e: ReactPointerEvent<HTMLDivElement>) => void;
  onPointerCancel?: (e: ReactPointerEvent<HTMLDivElement>) => void;
}) {
  const { rw, rh } = turned(w, h, state.rotate);
  const height = width / CROP_ASPECT;
  const scale = (width / Math.min(rw, rh * CROP_ASPECT)) * state.zoom;
  // The upload's centre, in frame pixels; turning about it keeps it there.
  const left = width / 2 + (rw / 2 - state.cx) * scale;
  const top = height / 2 + (rh / 2 - state.cy) * scale;
  return (
    <div className={className} style={{ width, height }} {...handlers}>
      <img
        src={src}
        alt=""
        draggable={false}
        style={{
          width: w * scale,
          height: h * scale,
          left,
          top,
          transform: `translate(-50%, -50%) rotate(${state.rotate}deg)`,
        }}
      />
      {children}
    </div>
  );
}

function EditorBody({ profileId, picId, sourceSrc, sourceWidth: w, sourceHeight: h, crop }: PicEditorProps) {
  const [state, setState] = useState<CropState>(() => stateOf(crop, w, h));
  const [frameWidth, setFrameWidth] = useState(320);
  const box = useRef<HTMLDivElement>(null);
  const pan = useRef<{ id: number; x: number; y: number; start: CropState } | null>(null);
  const save = useCropMutation(profileId, picId);

  useEffect(() => {
    const measure = () => setFrameWidth(Math.min(360, Math.max(200, (box.current?.clientWidth ?? 320) - 8)));
    measure();
    addEventListener("resize", measure);
    return () => removeEventListener("resize", measure);
  }, []);

  const { rw, rh } = turned(w, h, state.rotate);
  // Frame pixels per upload pixel: what a drag of the picture moves.
  const scale = (frameWidth / Math.min(rw, rh * CROP_ASPECT)) * state.zoom;

  const set = (next: CropState) => setState(clampState(next, w, h));

  function rotate(by: 90 | -90) {
    const r = (state.rotate + by + 360) % 360;
    // The same point of the picture stays in the middle after the turn.
    const [dx, dy] = [state.cx - rw / 2, state.cy - rh / 2];
    const { rw: nw, rh: nh } = turned(w, h, r);
    const [ndx, ndy] = by === 90 ? [-dy, dx] : [dy, -dx];
    set({ rotate: r, zoom: state.zoom, cx: nw / 2 + ndx, cy: nh / 2 + ndy });
  }

  function onDown(e: ReactPointerEvent<HTMLDivElement>) {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    pan.current = { id: e.pointerId, x: e.clientX, y: e.clientY, start: state };
  }
  function onMove(e: ReactPointerEvent<HTMLDivElement>) {
    const p = pan.current;
    if (!p || p.id !== e.pointerId) return;
    set({ ...p.start, cx: p.start.cx - (e.clientX - p.x) / scale, cy: p.start.cy - (e.clientY - p.y) / scale });
  }
  function onUp(e: ReactPointerEvent<HTMLDivElement>) {
    if (pan.current?.id === e.pointerId) pan.current = null;
  }

  function onSave() {
    save.mutate(boxOf(state, w, h), {
      onSuccess: () => location.assign("/profileEdit"),
      // Spec §8: a crop save failure is only logged.
      onError: (err) => console.error("crop save failed:", err),
    });
  }

  return (
    <div className="pic-editor-screen" ref={box}>
      <Frame
        state={state}
        width={frameWidth}
        src={sourceSrc}
        w={w}
        h={h}
        className="crop-frame"
        onPointerDown={onDown}
        onPointerMove={onMove}
        onPointerUp={onUp}
        onPointerCancel={onUp}
      >
        <span className="crop-grid" aria-hidden="true" />
      </Frame>
      <div className="crop-controls">
        <label className="zoom">
          {UI_TEXTS.zoom}
          <input
            type="range"
            min={1}
            max={MAX_ZOOM}
            step={0.01}
            value={state.zoom}
            onChange={(e) => set({ ...state, zoom: Number(e.target.value) })}
          />
        </label>
        <div className="row">
          <button type="button" onClick={() => rotate(-90)} aria-label={UI_TEXTS.rotateLeft}>
            ⟲ {UI_TEXTS.rotate}
          </button>
          <button type="button" onClick={() => rotate(90)} aria-label={UI_TEXTS.rotateRight}>
            {UI_TEXTS.rotate} ⟳
          </button>
        </div>
        <div className="crop-preview-row">
          <Frame state={state} width={CROP_PREVIEW_WIDTH} src={sourceSrc} w={w} h={h} className="crop-preview" />
          <span className="muted">{UI_TEXTS.preview}</span>
        </div>
        <div className="row">
          <a className="button" href="/profileEdit">{UI_TEXTS.cancel}</a>
          <button type="button" className="primary" onClick={onSave} disabled={save.isPending}>{UI_TEXTS.save}</button>
        </div>
      </div>
    </div>
  );
}

export default function PicEditor(props: PicEditorProps) {
  return (
    <QueryProvider>
      <EditorBody {...props} />
    </QueryProvider>
  );
}
