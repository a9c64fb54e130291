/**
 * The Leaflet half of the map. Leaflet touches `window` when it loads, so only the browser loads
 * this module, with `import()` from the NearbyMap island (esbuild puts it in its own chunk). It
 * draws what the island decides: tiles, member markers or aggregate cells, and the 'me' marker;
 * it reports every settled view back, and flies where the island's commands say.
 */

import { memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import * as L from "leaflet";
import { MapContainer, Marker, Rectangle, TileLayer, useMap, useMapEvents, ZoomControl } from "react-leaflet";
import { markerElement, markerSize, type Rect, spreadApart, type ViewBox } from "./markers.ts";
import { APP_TILE_URL, type MapStart, TILE_MAX_ZOOM } from "./firstView.ts";
import { UI_TEXTS } from "../../domain/uiTexts.ts";

/** A member on the map: shown position and face. */
export interface MapMarker {
  id: string;
  lat: number;
  lon: number;
  name: string;
  picUrl: string | null;
  chars: string[];
  online?: boolean;
  verified?: boolean;
}

/** One aggregate cell: its box and how many members are in it. */
export interface MapCell extends ViewBox {
  count: number;
}

/** Where to fly: a new `seq` flies again to the same place. */
export interface FlyCommand {
  seq: number;
  lat: number;
  lon: number;
  zoom: number;
}

export interface LeafletMapProps {
  /** The tiles' attribution, HTML (the server's setting, never member input). */
  attribution: string;
  /** The first view (islands/map/firstView.ts). */
  start: MapStart;
  me: { lat: number; lon: number; draggable: boolean; hidden: boolean } | null;
  markers: MapMarker[];
  focusId: string | null;
  cells: MapCell[];
  fly: FlyCommand | null;
  onView: (box: ViewBox, zoom: number) => void;
  onMeMoved: (lat: number, lon: number) => void;
  onOpenProfile: (profileId: string) => void;
  /** Every tile in view has loaded (Leaflet's `load`), each time. */
  onTilesShown: () => void;
  /** One tile loaded (`tileload`) or failed (`tileerror`). */
  onTileLoaded: () => void;
  onTileFailed: () => void;
}

const toBounds = (b: ViewBox): L.LatLngBoundsExpression => [[b.latMin, b.lonMin], [b.latMax, b.lonMax]];

/** The boxes of the map's floating controls (its buttons, the filter, Leaflet's own), in the view's world px. */
function controlRects(map: L.Map): Rect[] {
  const m = map.getContainer().getBoundingClientRect(), o = map.getPixelBounds().min!;
  const x = o.x - m.left, y = o.y - m.top;
  return [...document.querySelectorAll(".map-btn, .map-filter summary, .leaflet-control")].map((e) => {
    const r = e.getBoundingClientRect();
    return { left: r.left + x, top: r.top + y, right: r.right + x, bottom: r.bottom + y };
  });
}

/** A settled view: its zoom, the map's box and the floating controls' boxes in that zoom's world px. */
interface Frame {
  zoom: number;
  view: Rect;
  avoid: Rect[];
}

/** Reports the settled view (after pans, zooms and resizes) and the map's size in px. */
function ViewWatcher({ onView, onSize }: { onView: (box: ViewBox, f: Frame) => void; onSize: (s: L.Point) => void }) {
  const map = useMapEvents({
    moveend: () => report(),
    resize: () => {
      onSize(map.getSize());
      report();
    },
  });
  const report = () => {
    const b = map.getBounds(), px = map.getPixelBounds();
    onView({ latMin: b.getSouth(), lonMin: b.getWest(), latMax: b.getNorth(), lonMax: b.getEast() }, {
      zoom: map.getZoom(),
      view: { left: px.min!.x, top: px.min!.y, right: px.max!.x, bottom: px.max!.y },
      avoid: controlRects(map),
    });
  };
  useEffect(() => {
    onSize(map.getSize());
    report();
  }, []);
  return null;
}

/**
 * Whether the member asked for less motion (the system's reduced-motion setting): the map then
 * jumps where it goes, with no glide to a member and back, no zoom or tile fade, as the app's own
 * transitions stop for them (static/css/motion.css).
 */
function prefersStill(): boolean {
  return matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function Fly({ fly }: { fly: FlyCommand | null }) {
  const map = useMap();
  useEffect(() => {
    if (!fly) return;
    if (prefersStill()) map.setView([fly.lat, fly.lon], fly.zoom, { animate: false });
    else map.flyTo([fly.lat, fly.lon], fly.zoom, { duration: 0.8 });
  }, [fly?.seq]);
  return null;
}

const ProfileMarker = memo(function ProfileMarker(
  { m, size, focused, onOpen }: { m: MapMarker; size: number; focused: boolean; onOpen: (id: string) => void },
) {
  const icon = useMemo(
    () =>
      L.divIcon({
        html: markerElement(document, {
          name: m.name,
          picUrl: m.picUrl,
          chars: m.chars,
          size,
          focused,
          online: m.online,
          verified: m.verified,
        }),
        className: "pm-wrap",
        iconSize: [size, size],
        iconAnchor: [size / 2, size / 2],
      }),
    [m.picUrl, m.name, m.chars.join(), size, focused, m.online],
  );
  // Markers are focusable buttons (Leaflet's `keyboard`); Enter opens the profile like a click.
  const handlers = useMemo(() => ({
    click: () => onOpen(m.id),
    keypress: (e: L.LeafletKeyboardEvent) => {
      if (e.originalEvent.key === "Enter") onOpen(m.id);
    },
  }), [m.id, onOpen]);
  return (
    <Marker
      position={[m.lat, m.lon]}
      icon={icon}
      title={m.name}
      alt={m.name}
      eventHandlers={handlers}
      zIndexOffset={focused ? 1000 : 0}
    />
  );
});

function MeMarker({ me, onMoved }: { me: NonNullable<LeafletMapProps["me"]>; onMoved: LeafletMapProps["onMeMoved"] }) {
  const ref = useRef<L.Marker>(null);
  const icon = useMemo(
    () =>
      L.divIcon({
        html: `<span class="me-dot"></span><span class="me-label">${UI_TEXTS.meMarker}</span>`,
        className: "me-marker" + (me.draggable ? " me-walk" : " me-gps") + (me.hidden ? " me-hidden" : ""),
        iconSize: [40, 40],
        iconAnchor: [20, 20],
      }),
    [me.draggable, me.hidden],
  );
  // The same array while the point is the same: react-leaflet moves the marker to `position` whenever
  // the prop is a new array, which would snap it back under the member's finger at any re-render
  // during a drag (a query settling, a live event).
  const position = useMemo<[number, number]>(() => [me.lat, me.lon], [me.lat, me.lon]);
  const handlers = useMemo(() => ({
    dragend: () => {
      const p = ref.current?.getLatLng();
      if (p) onMoved(p.lat, L.Util.wrapNum(p.lng, [-180, 180], true));
    },
  }), [onMoved]);
  return (
    <Marker
      ref={ref}
      position={position}
      icon={icon}
      draggable={me.draggable}
      title={UI_TEXTS.meMarker}
      zIndexOffset={2000}
      eventHandlers={handlers}
      keyboard={false}
    />
  );
}

function CellLabel({ c }: { c: MapCell }) {
  const icon = useMemo(
    () => L.divIcon({ html: String(c.count), className: "agg-label", iconSize: [48, 28], iconAnchor: [24, 14] }),
    [c.count],
  );
  // Above the 'me' marker: zoomed out, the counts are what the map is for.
  return (
    <Marker
      position={[(c.latMin + c.latMax) / 2, (c.lonMin + c.lonMax) / 2]}
      icon={icon}
      interactive={false}
      zIndexOffset={3000}
    />
  );
}

const CELL_STYLE: L.PathOptions = { weight: 1, color: "#c2185b", fillOpacity: 0.12, interactive: false };

/** The Leaflet map (see the top comment). */
export default function LeafletMap(p: LeafletMapProps) {
  const [size, setSize] = useState<L.Point | null>(null);
  const tileHandlers = useMemo(
    () => ({ load: p.onTilesShown, tileload: p.onTileLoaded, tileerror: p.onTileFailed }),
    [p.onTilesShown, p.onTileLoaded, p.onTileFailed],
  );
  const edge = size ? markerSize(size.x, size.y, p.markers.length) : 48;
  const [frame, setFrame] = useState<Frame | null>(null);
  const onView = useCallback((box: ViewBox, f: Frame) => {
    setFrame(f);
    p.onView(box, f.zoom);
  }, [p.onView]);
  // Members close together are drawn apart at this zoom, none covering another or the 'me' marker,
  // none under a floating control, and none the map shows whole pushed past its edge.
  const markers = useMemo(() => {
    if (frame === null) return p.markers;
    const { zoom, view } = frame;
    const crs = L.CRS.EPSG3857;
    const px = (lat: number, lon: number) => crs.latLngToPoint(L.latLng(lat, lon), zoom);
    const at = p.markers.map((m) => px(m.lat, m.lon));
    const spread = spreadApart(at, p.me ? [px(p.me.lat, p.me.lon)] : [], edge, frame.avoid, view);
    return p.markers.map((m, i) => {
      if (spread[i] === at[i]) return m;
      const ll = crs.pointToLatLng(L.point(spread[i].x, spread[i].y), zoom);
      return { ...m, lat: ll.lat, lon: ll.lng };
    });
  }, [p.markers, p.me?.lat, p.me?.lon, frame, edge]);
  const start = "box" in p.start ? { bounds: toBounds(p.start.box) } : {
    center: [p.start.lat, p.start.lon] as L.LatLngTuple,
    zoom: p.start.zoom,
  };
  const still = useMemo(prefersStill, []);
  return (
    <MapContainer
      {...start}
      zoomAnimation={!still}
      fadeAnimation={!still}
      markerZoomAnimation={!still}
      className="leaflet-host"
      zoomControl={false}
      worldCopyJump={false}
      minZoom={2}
      maxZoom={TILE_MAX_ZOOM}
    >
      {/* From this app's origin (routes/tiles.ts): the tile host never sees the member. */}
      <TileLayer url={APP_TILE_URL} attribution={p.attribution} maxZoom={TILE_MAX_ZOOM} eventHandlers={tileHandlers} />
      {/* At the start of the line's top corner, across from the filter (which follows the direction). */}
      <ZoomControl position={document.documentElement.dir === "rtl" ? "topright" : "topleft"} />
      <ViewWatcher onView={onView} onSize={setSize} />
      <Fly fly={p.fly} />
      {p.cells.map((c) => <Rectangle key={`${c.latMin}:${c.lonMin}`} bounds={toBounds(c)} pathOptions={CELL_STYLE} />)}
      {p.cells.map((c) => <CellLabel key={`l${c.latMin}:${c.lonMin}`} c={c} />)}
      {markers.map((m) => (
        <ProfileMarker key={m.id} m={m} size={edge} focused={m.id === p.focusId} onOpen={p.onOpenProfile} />
      ))}
      {p.me && <MeMarker me={p.me} onMoved={p.onMeMoved} />}
    </MapContainer>
  );
}
