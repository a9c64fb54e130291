/**
 * Where the map opens, and the tiles Leaflet draws there, free of React and Leaflet: the map
 * island (islands/NearbyMap.tsx) opens Leaflet at `firstMapView`, and the page's first tiles
 * (islands/MapPreview.enhance.ts) are laid out by `tilesAt` exactly as Leaflet will lay them, so
 * the map shows before React and Leaflet have run and Leaflet then draws over the same picture.
 */

/** A view box in degrees. */
export interface ViewBox {
  latMin: number;
  lonMin: number;
  latMax: number;
  lonMax: number;
}

/** A point on the screen, px. */
export interface Px {
  x: number;
  y: number;
}

/** A point in degrees. */
type LatLon = { lat: number; lon: number };

/** Marker edge limits, px (spec §9). */
export const MARKER_MIN_PX = 16;
export const MARKER_MAX_PX = 128;
/**
 * Markers fill about a ninth of the screen area they share, so neighbours rarely overlap
 * (the spec scales them with screen area per profile and leaves the factor open).
 */
export const MARKER_FILL = 1 / 3;

/** Marker edge: the square root of the screen area per profile, scaled, clamped to [16, 128] px. */
export function markerSize(widthPx: number, heightPx: number, count: number): number {
  if (count <= 0) return MARKER_MAX_PX;
  const s = Math.sqrt((widthPx * heightPx) / count) * MARKER_FILL;
  return Math.round(Math.max(MARKER_MIN_PX, Math.min(MARKER_MAX_PX, s)));
}

/** A box on the screen, px (the floating controls' boxes). */
export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Whether a face of edge `edge` centred on `p` stays clear of every box of `avoid`. */
export const faceClear = (p: Px, edge: number, avoid: readonly Rect[]): boolean =>
  avoid.every((r) =>
    p.x + edge / 2 <= r.left || p.x - edge / 2 >= r.right || p.y + edge / 2 <= r.top || p.y - edge / 2 >= r.bottom
  );

/** Start zoom (spec §9). */
export const START_ZOOM = 13;
/** Local storage key of the last view. */
export const VIEW_STORAGE_KEY = "map-view";

/** The first view: a saved box, else a centre and zoom. */
export type MapStart = { box: ViewBox } | { lat: number; lon: number; zoom: number };

/** A saved view: the box (spec: the map remembers its bounds) and the zoom it was seen at. */
export interface SavedView extends ViewBox {
  zoom: number;
}

/** The target of a `#profileId=&lat=&lng=` hash, if it has a valid point. */
export function parseMapHash(hash: string): { profileId: string | null; lat: number; lon: number } | null {
  const p = new URLSearchParams(hash.replace(/^#/, ""));
  const lat = Number(p.get("lat") ?? NaN), lon = Number(p.get("lng") ?? NaN);
  if (!p.has("lat") || !p.has("lng") || !Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  return { profileId: p.get("profileId"), lat, lon };
}

/** Where the saved view starts the map: its centre at its zoom (the same view on the same screen). */
function readView(): MapStart | null {
  try {
    const v = JSON.parse(localStorage.getItem(VIEW_STORAGE_KEY) ?? "null") as SavedView | null;
    const ok = v && [v.latMin, v.lonMin, v.latMax, v.lonMax].every((x) => typeof x === "number" && Number.isFinite(x));
    if (!ok || !(v.latMin < v.latMax && v.lonMin < v.lonMax)) return null;
    const box = { latMin: v.latMin, lonMin: v.lonMin, latMax: v.latMax, lonMax: v.lonMax };
    if (!(typeof v.zoom === "number" && v.zoom >= 0 && v.zoom <= TILE_MAX_ZOOM)) return { box };
    return { lat: (v.latMin + v.latMax) / 2, lon: (v.lonMin + v.lonMax) / 2, zoom: v.zoom };
  } catch {
    return null;
  }
}

/** A first view is never fitted out further than this (a region: the nearest are within a degree). */
export const FIT_MIN_ZOOM = 7;

/**
 * The start zoom of a map `width`×`height` px centred on `me`: START_ZOOM, or the deepest zoom
 * below it at which the face of every member of `near` (as big as the map draws that many) shows
 * whole with half a face to spare, so the map opens on the members the grid lists first (the
 * map then draws none under a floating control: islands/map/LeafletMap.tsx).
 */
export function fitZoom(me: LatLon, near: readonly LatLon[], width: number, height: number): number {
  const edge = markerSize(width, height, near.length);
  for (let z = START_ZOOM; z > FIT_MIN_ZOOM; z--) {
    const c = projectPx(me.lat, me.lon, z);
    const fits = (p: LatLon) => {
      const q = projectPx(p.lat, p.lon, z);
      return Math.abs(q.x - c.x) + edge <= width / 2 && Math.abs(q.y - c.y) + edge <= height / 2;
    };
    if (near.every(fits)) return z;
  }
  return FIT_MIN_ZOOM;
}

/**
 * The first view: a linked point (the hash), else the saved view, else the member's location at
 * the start zoom, zoomed out to show the `near` members (`fitZoom`) on a map of `size` px.
 */
export function firstMapView(
  hash: string,
  me: LatLon,
  near: readonly LatLon[] = [],
  size: { width: number; height: number } = { width: 0, height: 0 },
): MapStart {
  const target = parseMapHash(hash);
  if (target) return { lat: target.lat, lon: target.lon, zoom: START_ZOOM };
  return readView() ?? { lat: me.lat, lon: me.lon, zoom: fitZoom(me, near, size.width, size.height) };
}

/** A centred view as text ("lat,lon,zoom"): the first tiles' box carries the view they show. */
export const viewKey = (v: MapStart): string => "box" in v ? "" : `${v.lat},${v.lon},${v.zoom}`;

/** Leaflet's tile edge, px. */
export const TILE_PX = 256;
/** The deepest zoom of the map and its tiles (OpenStreetMap's). */
export const TILE_MAX_ZOOM = 19;
/**
 * Where the browser gets the map's tiles: this app's own origin (routes/tiles.ts fetches them from
 * the tile server), so no member's address or area reaches the tile host.
 */
export const APP_TILE_URL = "/tiles/{z}/{x}/{y}";
/** Leaflet's Web Mercator limit. */
const MAX_LATITUDE = 85.0511287798;

/** A point's Web Mercator pixel at `zoom` (Leaflet's EPSG:3857 `project`). */
export function projectPx(lat: number, lon: number, zoom: number): { x: number; y: number } {
  const scale = TILE_PX * 2 ** zoom;
  const s = Math.sin(Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat)) * Math.PI / 180);
  return {
    x: scale * (lon / 360 + 0.5),
    y: scale * (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)),
  };
}

/** A tile of the first view: its address and its place in the map's box, px from the top left. */
export interface PlacedTile {
  url: string;
  left: number;
  top: number;
}

/** Fills a tile URL template as Leaflet's TileLayer does ({s} {z} {x} {y} {-y} {r}; default subdomains "abc"). */
export function tileUrl(template: string, x: number, y: number, z: number, retina: boolean): string {
  const subdomains = "abc";
  const data: Record<string, string | number> = {
    s: subdomains[Math.abs(x + y) % subdomains.length],
    z,
    x,
    y,
    "-y": 2 ** z - 1 - y,
    r: retina ? "@2x" : "",
  };
  return template.replace(/\{ *([\w_ -]+) *\}/g, (m, key: string) => key in data ? String(data[key]) : m);
}

/**
 * The tiles Leaflet lays out for a map `width`×`height` px opened at `lat, lon, zoom`: the same
 * pixel origin (the centre's pixel less half the size, rounded), the same tile range (from the
 * floored centre, half the size each way), the same wrapped addresses; rows off the world are left out.
 */
export function tilesAt(
  view: { lat: number; lon: number; zoom: number },
  width: number,
  height: number,
  template: string,
  retina: boolean,
): PlacedTile[] {
  const z = Math.round(view.zoom);
  const p = projectPx(view.lat, view.lon, z);
  const originX = Math.round(p.x - width / 2), originY = Math.round(p.y - height / 2);
  const cx = Math.floor(p.x), cy = Math.floor(p.y);
  const x0 = Math.floor((cx - width / 2) / TILE_PX), x1 = Math.ceil((cx + width / 2) / TILE_PX) - 1;
  const y0 = Math.floor((cy - height / 2) / TILE_PX), y1 = Math.ceil((cy + height / 2) / TILE_PX) - 1;
  const n = 2 ** z;
  const tiles: PlacedTile[] = [];
  for (let y = Math.max(0, y0); y <= Math.min(n - 1, y1); y++) {
    for (let x = x0; x <= x1; x++) {
      const wrapped = ((x % n) + n) % n;
      tiles.push({
        url: tileUrl(template, wrapped, y, z, retina),
        left: x * TILE_PX - originX,
        top: y * TILE_PX - originY,
      });
    }
  }
  return tiles;
}
