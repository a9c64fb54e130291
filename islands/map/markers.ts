/**
 * The map's arithmetic and marker markup, free of Leaflet so it runs (and is tested) anywhere:
 * which 1-degree sectors a view covers, marker size from screen area over count (spec §2, §9),
 * the characteristic icons, and the marker element (built with the DOM, never from HTML strings,
 * because names are member input).
 */

import { VERIFIED_LABEL, VERIFIED_PATHS } from "../../components/VerifiedBadge.tsx";
import { faceClear, type Px, type Rect, type ViewBox } from "./firstView.ts";

// Sizes and boxes live with the first view (no imports there: the page's first tiles use them too).
export {
  faceClear,
  MARKER_FILL,
  MARKER_MAX_PX,
  MARKER_MIN_PX,
  markerSize,
  type Px,
  type Rect,
  type ViewBox,
} from "./firstView.ts";

/** Markers at least this big carry the characteristic icons. */
export const ICONS_MIN_PX = 40;

/** The box clamped to the globe: latitudes to ±90, longitudes to ±180 (a wrapped world is cut). */
export function clampBox(b: ViewBox): ViewBox {
  const c = (x: number, m: number) => Math.max(-m, Math.min(m, x));
  return { latMin: c(b.latMin, 90), lonMin: c(b.lonMin, 180), latMax: c(b.latMax, 90), lonMax: c(b.lonMax, 180) };
}

/** How many 1-degree sectors the (clamped) box touches. */
export function sectorsInBox(b: ViewBox): number {
  const row = (lat: number) => Math.min(89, Math.floor(lat));
  const col = (lon: number) => Math.min(179, Math.floor(lon));
  return (row(b.latMax) - row(b.latMin) + 1) * (col(b.lonMax) - col(b.lonMin) + 1);
}

/** How many rings around its place a marker that would cover another may move out to. */
const SPREAD_RINGS = 3;

/**
 * Places markers of edge `gap` so that none covers another or a `fixed` point (the 'me' marker),
 * none goes under a box of `avoid` (the floating controls, in the same px), and none whose face
 * shows whole in `view` (the map's box) is moved out of it: each in turn (the nearest members
 * first) stays where it is if it is clear, else takes the first clear place on rings `gap` apart
 * around it, 6, 12, 18 places a ring; with none clear it stays. A marker that stays is returned
 * as the same object.
 */
export function spreadApart(
  points: readonly Px[],
  fixed: readonly Px[],
  gap: number,
  avoid: readonly Rect[] = [],
  view?: Rect,
): Px[] {
  const placed = [...fixed];
  const whole = (q: Px) =>
    !view ||
    (q.x - gap / 2 >= view.left && q.x + gap / 2 <= view.right && q.y - gap / 2 >= view.top &&
      q.y + gap / 2 <= view.bottom);
  const clear = (q: Px) =>
    faceClear(q, gap, avoid) && placed.every((o) => (o.x - q.x) ** 2 + (o.y - q.y) ** 2 >= gap * gap);
  return points.map((p) => {
    // A face the map shows whole stays whole; one already cut by the edge may go anywhere clear.
    const keepWhole = whole(p);
    let q = p;
    for (let ring = 1; ring <= SPREAD_RINGS && !clear(q); ring++) {
      for (let k = 0, n = 6 * ring; k < n; k++) {
        const a = (2 * Math.PI * k) / n, c = { x: p.x + ring * gap * Math.cos(a), y: p.y + ring * gap * Math.sin(a) };
        if (clear(c) && (!keepWhole || whole(c))) {
          q = c;
          break;
        }
      }
    }
    placed.push(q);
    return q;
  });
}

/** The characteristics a marker marks with an icon (spec §2), in this order. */
export const MARKER_ICONS = [
  { value: "top", label: "Top", glyph: "▲" },
  { value: "bottom", label: "Bottom", glyph: "▼" },
  { value: "oral", label: "Oral", glyph: "●" },
  { value: "hosting", label: "Hosting", glyph: "⌂" },
  { value: "traveling", label: "Traveling", glyph: "➜" },
] as const;

/** The icons of a member's characteristics. */
function iconsOf(chars: readonly string[]): (typeof MARKER_ICONS)[number][] {
  return MARKER_ICONS.filter((i) => chars.includes(i.value));
}

/** Up to two initials of a name, for a member without a picture. */
function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = (w: string) => Array.from(w)[0] ?? "";
  const s = words.length > 1 ? first(words[0]) + first(words[1]) : Array.from(words[0] ?? "?").slice(0, 2).join("");
  return s.toUpperCase() || "?";
}

/** What a marker shows. */
export interface MarkerFace {
  name: string;
  /** Picture address, or null for initials. */
  picUrl: string | null;
  chars: readonly string[];
  size: number;
  focused?: boolean;
  /** Online now (kv/presence.ts): a green dot at the marker's edge. */
  online?: boolean;
  /** Shows the Verified badge (3 2 1 Identify). */
  verified?: boolean;
}

/** The marker element of a member (the caller hands it to a Leaflet divIcon). */
export function markerElement(doc: Document, f: MarkerFace): HTMLElement {
  const el = doc.createElement("div");
  el.className = "pm" + (f.focused ? " pm-focus" : "");
  el.style.width = el.style.height = `${f.size}px`;
  if (f.picUrl) {
    const img = doc.createElement("img");
    img.src = f.picUrl;
    img.alt = "";
    img.loading = "lazy";
    img.decoding = "async";
    img.draggable = false;
    // A picture that fails to load falls back to the initials.
    img.addEventListener("error", () => img.replaceWith(initials(doc, f)), { once: true });
    el.append(img);
  } else {
    el.append(initials(doc, f));
  }
  const icons = iconsOf(f.chars);
  if (icons.length && f.size >= ICONS_MIN_PX) {
    const box = doc.createElement("span");
    box.className = "pm-icons";
    for (const i of icons) {
      const s = doc.createElement("span");
      s.className = `pm-icon pm-${i.value}`;
      s.title = i.label;
      s.textContent = i.glyph;
      box.append(s);
    }
    el.append(box);
  }
  if (f.verified) el.append(verifiedBadgeElement(doc, Math.max(12, Math.min(20, Math.round(f.size * 0.3)))));
  if (f.online) {
    const dot = doc.createElement("span");
    dot.className = "pm-online";
    dot.title = "Online now";
    el.append(dot);
  }
  return el;
}

/** The Verified badge as a DOM element (the marker is built without React): the same drawing as components/VerifiedBadge.tsx. */
function verifiedBadgeElement(doc: Document, size: number): Element {
  const NS = "http://www.w3.org/2000/svg";
  const svg = doc.createElementNS(NS, "svg");
  svg.setAttribute("class", "verified-badge pm-verified");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", VERIFIED_LABEL());
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  for (const p of VERIFIED_PATHS) {
    const path = doc.createElementNS(NS, "path");
    for (const [k, v] of Object.entries(p)) path.setAttribute(k, v);
    svg.append(path);
  }
  return svg;
}

function initials(doc: Document, f: MarkerFace): HTMLElement {
  const s = doc.createElement("span");
  s.className = "pm-initials";
  s.style.fontSize = `${Math.max(8, Math.round(f.size * 0.38))}px`;
  s.textContent = initialsOf(f.name);
  return s;
}
