/**
 * The full-screen map of /search/map (spec §2 Map, §9). The server renders the controls and a
 * placeholder; in the browser the island loads Leaflet (islands/map/LeafletMap.tsx, its own
 * chunk) and draws the members in view, or the aggregate counts when the view covers more than
 * 20 sectors. It reports the member's location (islands/queries/location.ts).
 *
 * Bottom left: location type (Walk / GPS), visibility (Hidden / Showing) and recenter (zoom 17);
 * their captions show for 8 s after a press, their messages for 2.5 s. Bottom right: Chat. The
 * view is saved locally 1 s after it settles and restored; `#profileId=&lat=&lng=` flies there
 * at zoom 18.
 */

import { type ComponentType, useCallback, useEffect, useRef, useState } from "react";
import { QueryProvider } from "./queries/client.tsx";
import { keepLocally } from "./queries/api.ts";
import { usePresence } from "./queries/presence.ts";
import { type KnownLocation, useLocation } from "./queries/location.ts";
import { MAP_MAX_SECTORS, useAggregates, useMapView } from "./queries/map.ts";
import { useBriefFilter } from "./queries/briefs.ts";
import { useShowsNsfw } from "./useShowsNsfw.ts";
import { FilterPanel } from "../components/FilterPanel.tsx";
import { profilePicUrl, profileUrl } from "../domain/format.ts";
import { TEXTS } from "../domain/texts.ts";
import { clampBox, sectorsInBox, type ViewBox } from "./map/markers.ts";
import {
  firstMapView,
  type MapStart,
  parseMapHash,
  type SavedView,
  VIEW_STORAGE_KEY,
  viewKey,
} from "./map/firstView.ts";
import type { FlyCommand, LeafletMapProps, MapCell, MapMarker } from "./map/LeafletMap.tsx";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import { phrase } from "../domain/phrases.ts";

/** The zoom of a recenter and of a link to a place (spec §2); the start zoom is islands/map/firstView.ts's. */
export const RECENTER_ZOOM = 17;
export const LINK_ZOOM = 18;
/** Captions show this long after a press, messages this long (spec §9). */
export const CAPTION_MS = 8000;
export const MESSAGE_MS = 2500;
/** The view is saved this long after it settles (spec §9). */
export const SAVE_VIEW_MS = 1000;
/** This many tiles failing in a row, none loading between, and the map says so and offers the list. */
export const TILE_FAILURES_SHOWN = 4;
/** The list view of the members nearby (routes/table.ts), where the map's failure sends the member. */
export const LIST_VIEW = "/search/tile";

export interface NearbyMapProps {
  profileId: string;
  /** The tiles' attribution, HTML (the server's setting, never member input). */
  attribution: string;
  /** The member's own last report, for a device that saved none. */
  known: KnownLocation | null;
  /** The shown points of the nearest members (kv/briefs.ts `nearestPoints`): the first view shows them. */
  near: { lat: number; lon: number }[];
}

/** The buttons' icons: 24 px line drawings in the text colour. */
const ICON_PATHS = {
  walk: "M12 2v20M2 12h20M12 2l-3 3M12 2l3 3M12 22l-3-3M12 22l3-3M2 12l3-3M2 12l3 3M22 12l-3-3M22 12l-3 3",
  gps: "M12 2v4M12 18v4M2 12h4M18 12h4M12 6a6 6 0 1 0 0 12a6 6 0 1 0 0-12M12 10.5a1.5 1.5 0 1 0 0 3a1.5 1.5 0 1 0 0-3",
  showing: "M2 12s3.5-7 10-7s10 7 10 7s-3.5 7-10 7S2 12 2 12ZM12 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6",
  hidden: "M2 12s3.5-7 10-7s10 7 10 7s-3.5 7-10 7S2 12 2 12ZM4 4l16 16",
  recenter: "M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18M12 8a4 4 0 1 0 0 8a4 4 0 1 0 0-8",
  chat: "M4 5h16v11H9l-5 4V5Z",
} as const;

function Icon({ name }: { name: keyof typeof ICON_PATHS }) {
  return (
    <svg className="map-btn-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={ICON_PATHS[name]} />
    </svg>
  );
}

/** A message that shows for MESSAGE_MS; a new one replaces it. */
function useFlash(): [string | null, (text: string) => void] {
  const [text, setText] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const show = useCallback((t: string) => {
    setText(t);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setText(null), MESSAGE_MS);
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);
  return [text, show];
}

/**
 * Leaflet's half, asked for as soon as this module runs in the browser (its chunk is preloaded
 * with the island's), so it is ready when the island has hydrated: the map's tiles are the
 * page's largest paint. Never on the server.
 */
const leafletModule = typeof document === "undefined" ? null : import("./map/LeafletMap.tsx");
// Its failure is reported where it is awaited (below), not as an unhandled rejection meanwhile.
leafletModule?.catch(() => {});

/** The page's first tiles, laid out before the map ran (islands/MapPreview.tsx), while they are there. */
const firstTiles = () => document.querySelector<HTMLElement>(".map-preview");

/** Leaflet has drawn its first tiles: the first tiles under them go once Leaflet's have faded in (0.2 s). */
const leafletTilesShown = () => setTimeout(() => firstTiles()?.remove(), 250);

/** Whether the browser says it is online, following its `online` and `offline` events. */
function useOnline(): boolean {
  const [online, setOnline] = useState(true);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    update();
    addEventListener("online", update);
    addEventListener("offline", update);
    return () => {
      removeEventListener("online", update);
      removeEventListener("offline", update);
    };
  }, []);
  return online;
}

/** Whether the tiles are failing: `TILE_FAILURES_SHOWN` errors in a row, until one loads again. */
function useTilesFailing(): [boolean, () => void, () => void] {
  const [failing, setFailing] = useState(false);
  const inRow = useRef(0);
  const loaded = useCallback(() => {
    inRow.current = 0;
    setFailing(false);
  }, []);
  const failed = useCallback(() => {
    if (++inRow.current >= TILE_FAILURES_SHOWN) setFailing(true);
  }, []);
  return [failing, loaded, failed];
}

function MapBody({ profileId, attribution, known, near }: NearbyMapProps) {
  const loc = useLocation(profileId, known);
  const nsfw = useShowsNsfw();
  const [filter, setFilter] = useBriefFilter();
  const [Leaflet, setLeaflet] = useState<ComponentType<LeafletMapProps> | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [view, setView] = useState<ViewBox | null>(null);
  const [fly, setFly] = useState<FlyCommand | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  // Captions also show for the first 8 s of the page, so a newcomer learns what the buttons do.
  const [captions, setCaptions] = useState(true);
  const [message, flash] = useFlash();
  const [tilesFailing, tileLoaded, tileFailed] = useTilesFailing();
  const online = useOnline();
  const [start, setStart] = useState<MapStart | null>(null);
  const captionTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const saveTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const canvasRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    captionTimer.current = setTimeout(() => setCaptions(false), CAPTION_MS);
    (leafletModule ?? import("./map/LeafletMap.tsx")).then((m) => setLeaflet(() => m.default), (e) => {
      console.error("map failed to load:", e);
      setLoadFailed(true);
      // A map that will not come shows its error, not first tiles that look like a working map.
      firstTiles()?.remove();
    });
    return () => {
      clearTimeout(captionTimer.current);
      clearTimeout(saveTimer.current);
    };
  }, []);

  // The first view, once the location is known: a linked point, else the saved view, else me.
  useEffect(() => {
    if (!loc.ready || start) return;
    const canvas = canvasRef.current!;
    const first = firstMapView(location.hash, loc, near, { width: canvas.clientWidth, height: canvas.clientHeight });
    setStart(first);
    // The page's first tiles (islands/MapPreview.enhance.ts) stay under Leaflet's only when they show this view.
    if (firstTiles()?.dataset.view !== viewKey(first)) firstTiles()?.remove();
    const target = parseMapHash(location.hash);
    if (target) {
      setFocusId(target.profileId);
      setFly({ seq: 1, lat: target.lat, lon: target.lon, zoom: LINK_ZOOM });
    }
  }, [loc.ready]);

  useEffect(() => {
    const onHash = () => {
      const target = parseMapHash(location.hash);
      if (!target) return;
      setFocusId(target.profileId);
      setFly((f) => ({ seq: (f?.seq ?? 0) + 1, lat: target.lat, lon: target.lon, zoom: LINK_ZOOM }));
    };
    globalThis.addEventListener("hashchange", onHash);
    return () => globalThis.removeEventListener("hashchange", onHash);
  }, []);

  // Each GPS failure flashes its 'GPS: ' message once.
  useEffect(() => {
    if (loc.gpsFailures > 0 && loc.gpsNotice) flash(loc.gpsNotice);
  }, [loc.gpsFailures]);

  const onView = useCallback((box: ViewBox, zoom: number) => {
    setView(clampBox(box));
    clearTimeout(saveTimer.current);
    saveTimer.current = setTimeout(() => {
      try {
        keepLocally(VIEW_STORAGE_KEY, JSON.stringify({ ...box, zoom } satisfies SavedView));
      } catch { /* storage full or disabled */ }
    }, SAVE_VIEW_MS);
  }, []);

  const zoomedOut = view !== null && sectorsInBox(view) > MAP_MAX_SECTORS;
  const mapView = useMapView(view && !zoomedOut ? view : null, filter);
  const aggregates = useAggregates(zoomedOut);
  const rows = mapView.data?.rows ?? [];
  const tooMany = !zoomedOut && !!mapView.data?.tooMany;

  // Online dots for the nearest 50 in view (the presence call's limit).
  const presence = usePresence(zoomedOut || tooMany ? [] : rows.slice(0, 50).map(([id]) => id));
  const markers: MapMarker[] = zoomedOut || tooMany ? [] : rows
    // Spec §8: a profile with no lat is skipped.
    .filter(([, , lat, lon]) => typeof lat === "number" && typeof lon === "number")
    .map(([id, name, lat, lon, picId, chars, verified]) => ({
      id,
      lat,
      lon,
      name,
      picUrl: picId ? profilePicUrl(picId, 256, nsfw) : null,
      chars,
      online: presence[id]?.online,
      verified,
    }));
  const cells: MapCell[] = !zoomedOut || !view ? [] : (aggregates.data ?? [])
    .map((a) => ({
      latMin: a.centerLat - a.deltaLat / 2,
      latMax: a.centerLat + a.deltaLat / 2,
      lonMin: a.centerLon - a.deltaLon / 2,
      lonMax: a.centerLon + a.deltaLon / 2,
      count: a.count,
    }))
    .filter((c) =>
      c.latMax >= view.latMin && c.latMin <= view.latMax && c.lonMax >= view.lonMin && c.lonMin <= view.lonMax
    );

  const pressed = () => {
    setCaptions(true);
    clearTimeout(captionTimer.current);
    captionTimer.current = setTimeout(() => setCaptions(false), CAPTION_MS);
  };
  const gps = loc.type === "DEVICE_GPS";
  const toggleType = () => {
    pressed();
    loc.setType(gps ? "OVERRIDE" : "DEVICE_GPS");
    flash(gps ? TEXTS.walkMessage : TEXTS.gpsMessage);
  };
  const toggleHidden = () => {
    pressed();
    loc.setHidden(!loc.hide);
    flash(loc.hide ? TEXTS.visibleMessage : TEXTS.hidingMessage);
  };
  const recenter = () => {
    pressed();
    setFly((f) => ({ seq: (f?.seq ?? 0) + 1, lat: loc.lat, lon: loc.lon, zoom: RECENTER_ZOOM }));
  };
  const openProfile = useCallback((id: string) => location.assign(profileUrl(id)), []);
  const moved = useCallback((lat: number, lon: number) => loc.moveTo(lat, lon), [loc.moveTo]);

  const status = zoomedOut ? TEXTS.zoomIn : tooMany ? TEXTS.tooManyProfiles : null;
  const stale = loc.gpsNotice === TEXTS.gpsStale ? loc.gpsNotice : null;

  return (
    <div className={"map-page" + (captions ? " captions" : "")}>
      <div className="map-canvas" ref={canvasRef}>
        {Leaflet && start
          ? (
            <Leaflet
              attribution={attribution}
              start={start}
              me={{ lat: loc.lat, lon: loc.lon, draggable: !gps && !loc.paused, hidden: loc.hide }}
              markers={markers}
              focusId={focusId}
              cells={cells}
              fly={fly}
              onView={onView}
              onMeMoved={moved}
              onOpenProfile={openProfile}
              onTilesShown={leafletTilesShown}
              onTileLoaded={tileLoaded}
              onTileFailed={tileFailed}
            />
          )
          : <p className="map-loading">{loadFailed ? UI_TEXTS.mapNotLoaded : UI_TEXTS.mapLoading}</p>}
      </div>
      <div className="map-filter">
        <FilterPanel value={filter} onChange={setFilter} />
      </div>
      <div className="map-notes" aria-live="polite">
        {status && <p className="map-note map-status" role="status">{status}</p>}
        {stale && <p className="map-note">{stale}</p>}
        {message && <p className="map-note map-message" role="status">{message}</p>}
        {!online && (
          // Offline: the members of the last view (this device's copy of its answer) as a list.
          <div className="map-note map-offline" role="status">
            <p>{rows.length ? UI_TEXTS.mapOfflineList : UI_TEXTS.mapOfflineNone}</p>
            {rows.length > 0 && (
              <ul>
                {rows.map(([id, name, , , picId]) => (
                  <li key={id}>
                    <a href={profileUrl(id)}>
                      {picId ? <img src={profilePicUrl(picId, 256, nsfw)} alt="" /> : <span className="avatar" />}
                      <span className="name-cut">{name}</span>
                    </a>
                  </li>
                ))}
              </ul>
            )}
            <a href={LIST_VIEW}>{UI_TEXTS.seeMembersAsList}</a>
          </div>
        )}
        {online && tilesFailing && (
          <p className="map-note map-tiles-failed" role="alert">
            {UI_TEXTS.mapTilesFailed} <a href={LIST_VIEW}>{UI_TEXTS.seeMembersAsList}</a>
          </p>
        )}
      </div>
      <div className="map-controls map-left">
        <button
          type="button"
          className={"map-btn" + (gps ? " on" : "")}
          onClick={toggleType}
          aria-label={phrase("Location: {mode}", { mode: gps ? "GPS" : phrase("Walk") })}
          title={gps ? TEXTS.gpsMessage : TEXTS.walkMessage}
        >
          <Icon name={gps ? "gps" : "walk"} />
          <span className="map-btn-caption">{gps ? "GPS" : phrase("Walk")}</span>
        </button>
        <button
          type="button"
          className={"map-btn" + (loc.hide ? " on" : "")}
          onClick={toggleHidden}
          aria-label={`Visibility: ${loc.hide ? TEXTS.hiddenLabel : TEXTS.showingLabel}`}
        >
          <Icon name={loc.hide ? "hidden" : "showing"} />
          <span className="map-btn-caption">{loc.hide ? TEXTS.hiddenLabel : TEXTS.showingLabel}</span>
        </button>
        <button type="button" className="map-btn" onClick={recenter} aria-label={UI_TEXTS.recenterOnMe}>
          <Icon name="recenter" />
          <span className="map-btn-caption">{UI_TEXTS.recenter}</span>
        </button>
      </div>
      <div className="map-controls map-right">
        <a className="map-btn map-chat" href="/chat/broadcast" aria-label={UI_TEXTS.chat}>
          <Icon name="chat" />
          <span className="map-btn-caption">{UI_TEXTS.chat}</span>
        </a>
      </div>
    </div>
  );
}

export default function NearbyMap(props: NearbyMapProps) {
  return (
    <QueryProvider>
      <MapBody {...props} />
    </QueryProvider>
  );
}
