/**
 * The location reporter of spec §4 and §9: where this member says they are, reported with
 * `PUT /api/profile-position/{profileId}` (debounced 1 s). One reporter per page, shared by every
 * island that calls `useLocation` (map, tiles, swipe, list), so there is one GPS watch and one
 * stream of reports.
 *
 * Types: RANDOM (the default: a point within 0.05 degrees of Phoenix, drawn once and kept),
 * OVERRIDE (the member dragged their marker: Walk) and DEVICE_GPS (watchPosition). The server
 * knows OVERRIDE and DEVICE_GPS; a random point is reported as an override. The last location is
 * saved in local storage and restored on the next page; without one, the member's own record
 * from the server (handed in by the page, or asked for) is used, then a fresh random point.
 *
 * GPS: a new fix is taken only when it moved more than 25 m or 300 s passed since the last one
 * taken (the spec leaves the threshold open), so a resting phone does not report its jitter. A
 * GPS error switches back to OVERRIDE at the current point and sets the notice 'GPS: ' plus the
 * spec §8 text; no fix for over 2 minutes sets the notice 'GPS: ...'. A 401 from any call
 * (`EVENTS.pauseLocation`) pauses reporting for the rest of the page.
 */

import { useEffect, useSyncExternalStore } from "react";
import { call, EVENTS, keepLocally } from "./api.ts";
import { TEXTS } from "../../domain/texts.ts";
import { DEFAULT_CITY, RANDOM_SPREAD_DEG, randomDefaultPoint } from "../../domain/defaultPlace.ts";
import { LOCATION_STORAGE_KEY, type LocationType, readSaved, validPoint as valid } from "./savedLocation.ts";

/** The first default city and the spread of the random default (spec §9), shared with the server. */
export { DEFAULT_CITY, RANDOM_SPREAD_DEG };
/** Device location watch (spec §9): max age 15 s, timeout 10 s, high accuracy. */
export const GPS_WATCH_OPTIONS: PositionOptions = { maximumAge: 15_000, timeout: 10_000, enableHighAccuracy: true };
/** A GPS fix is taken past this move (metres) ... */
export const GPS_MIN_MOVE_M = 25;
/** ... or this long after the last one taken. */
export const GPS_REFRESH_MS = 300_000;
/** No fix for this long shows 'GPS: ...' (spec §8). */
export const GPS_STALE_MS = 120_000;
/** Reports are debounced (spec §9). */
export const REPORT_DEBOUNCE_MS = 1000;

/** The location as the islands see it. */
export interface LocationState {
  /** False on the server and until the reporter started in the browser. */
  ready: boolean;
  type: LocationType;
  lat: number;
  lon: number;
  hide: boolean;
  /** 'GPS: ' plus an error, or 'GPS: ...' while the fix is stale; null when all is well. */
  gpsNotice: string | null;
  /** Counts GPS failures, so a screen can flash the notice once per failure. */
  gpsFailures: number;
  /** True after a 401: nothing is reported any more on this page. */
  paused: boolean;
  /** Counts the reports the server accepted on this page: a change means the lists may differ. */
  reported: number;
}

/** What the page knows of the member's own last report (their own record, never anyone else's). */
export interface KnownLocation {
  lat: number;
  lon: number;
  use: "OVERRIDE" | "DEVICE_GPS";
  hide: boolean;
}

/** The spec §8 text of a geolocation error code. */
function geolocationErrorText(code: number): string {
  switch (code) {
    case 1:
      return TEXTS.geoDenied;
    case 2:
      return TEXTS.geoUnavailable;
    case 3:
      return TEXTS.geoTimeout;
    default:
      return TEXTS.geoOther;
  }
}

/** Metres between two points (haversine; enough for the 25 m threshold). */
export function metersBetween(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const r = Math.PI / 180;
  const s1 = Math.sin((b.lat - a.lat) * r / 2), s2 = Math.sin((b.lon - a.lon) * r / 2);
  const h = s1 * s1 + Math.cos(a.lat * r) * Math.cos(b.lat * r) * s2 * s2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}

const SERVER_STATE: LocationState = {
  ready: false,
  type: "RANDOM",
  lat: DEFAULT_CITY.lat,
  lon: DEFAULT_CITY.lon,
  hide: false,
  gpsNotice: null,
  gpsFailures: 0,
  paused: false,
  reported: 0,
};

/** The page's one reporter (see the top comment). Islands use it through `useLocation`. */
export class LocationReporter {
  #state: LocationState = SERVER_STATE;
  #listeners = new Set<() => void>();
  #profileId: string | null = null;
  #watchId: number | null = null;
  /** The last GPS fix taken (reported), and when any fix last arrived. */
  #taken: { lat: number; lon: number; at: number } | null = null;
  #lastFixAt = 0;
  #gpsTimestamp: number | null = null;
  #reportTimer: ReturnType<typeof setTimeout> | undefined;
  #staleTimer: ReturnType<typeof setInterval> | undefined;
  #pause = () => this.pause();

  /** The current state (a new object after every change). */
  get state(): LocationState {
    return this.#state;
  }

  subscribe = (fn: () => void): () => void => {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  };

  #set(patch: Partial<LocationState>): void {
    this.#state = { ...this.#state, ...patch };
    for (const fn of this.#listeners) fn();
  }

  /**
   * Starts reporting for `profileId` (once per page; later calls are no-ops). `known` is the
   * member's own last report if the page rendered it (null: none); left out, it is asked for.
   */
  start(profileId: string, known?: KnownLocation | null): void {
    if (this.#profileId !== null) return;
    this.#profileId = profileId;
    globalThis.addEventListener(EVENTS.pauseLocation, this.#pause);
    const saved = readSaved(profileId);
    if (saved || known !== undefined) {
      this.#begin(saved ?? known ?? null);
      return;
    }
    call("GET /api/profile-position/:profileId", { profileId }).then(
      (own) => this.#begin(own),
      () => this.#begin(null), // 404: nothing reported in the last 26 h
    );
  }

  /** Begins at a saved location (`type`) or a server record (`use`), else at a random point. */
  #begin(from: { lat: number; lon: number; hide: boolean; type?: LocationType; use?: LocationType } | null): void {
    const type = from?.type ?? from?.use;
    const at = from && type && valid(from.lat, from.lon)
      ? { type, lat: from.lat, lon: from.lon, hide: from.hide === true }
      : { type: "RANDOM" as const, ...randomDefaultPoint(), hide: false };
    this.#set({ ready: true, ...at });
    this.#save();
    if (at.type === "DEVICE_GPS") this.#watch();
    // Report at once (debounced): it renews the 26 h validity and places a newcomer.
    this.#schedule();
  }

  /** Walk: the member put themselves at (lat, lon). Stops the GPS. */
  moveTo(lat: number, lon: number): void {
    if (!valid(lat, lon)) return;
    this.#unwatch();
    this.#set({ type: "OVERRIDE", lat, lon, gpsNotice: null });
    this.#changed();
  }

  /** Switches between Walk (OVERRIDE, at the current point) and GPS. */
  setType(type: "OVERRIDE" | "DEVICE_GPS"): void {
    if (type === "OVERRIDE") {
      this.#unwatch();
      this.#set({ type, gpsNotice: null });
    } else {
      this.#set({ type, gpsNotice: null });
      this.#watch();
    }
    this.#changed();
  }

  /** Hides or shows the member to others. */
  setHidden(hide: boolean): void {
    this.#set({ hide });
    this.#changed();
  }

  /** Reports the current location again (debounced), keeping its type: e.g. after a broadcast. */
  refresh(): void {
    if (this.#state.ready) this.#schedule();
  }

  /** Stops reporting for the rest of the page (after a 401). */
  pause(): void {
    clearTimeout(this.#reportTimer);
    this.#unwatch();
    this.#set({ paused: true });
  }

  #changed(): void {
    this.#save();
    this.#schedule();
  }

  #save(): void {
    if (!this.#profileId) return;
    const { type, lat, lon, hide } = this.#state;
    try {
      keepLocally(LOCATION_STORAGE_KEY, JSON.stringify({ profileId: this.#profileId, type, lat, lon, hide }));
    } catch { /* storage full or disabled: the location lasts for this page */ }
  }

  #schedule(): void {
    if (this.#state.paused || !this.#profileId) return;
    clearTimeout(this.#reportTimer);
    this.#reportTimer = setTimeout(() => this.#report(), REPORT_DEBOUNCE_MS);
  }

  async #report(): Promise<void> {
    const id = this.#profileId;
    if (this.#state.paused || !id) return;
    const { type, lat, lon, hide } = this.#state;
    const gps = type === "DEVICE_GPS";
    const body = gps
      ? { profileId: id, gpsLat: lat, gpsLon: lon, gpsTimestamp: this.#gpsTimestamp, use: "DEVICE_GPS", hide }
      : { profileId: id, overrideLat: lat, overrideLon: lon, use: "OVERRIDE", hide };
    try {
      await call("PUT /api/profile-position/:profileId", { profileId: id }, { json: body });
      this.#set({ reported: this.#state.reported + 1 });
    } catch (e) {
      // A 401 pauses through the event; anything else waits for the next change.
      console.warn("location report failed:", e instanceof Error ? e.message : e);
    }
  }

  #watch(): void {
    if (this.#watchId !== null || this.#state.paused) return;
    const geo = typeof navigator === "undefined" ? undefined : navigator.geolocation;
    if (!geo) {
      this.#fail(0);
      return;
    }
    this.#lastFixAt = Date.now();
    this.#taken = null;
    this.#watchId = geo.watchPosition((p) => this.#fix(p), (e) => this.#fail(e.code), GPS_WATCH_OPTIONS);
    this.#staleTimer = setInterval(() => {
      const stale = Date.now() - this.#lastFixAt > GPS_STALE_MS;
      if (stale && this.#state.gpsNotice === null) this.#set({ gpsNotice: TEXTS.gpsStale });
    }, 5000);
  }

  #unwatch(): void {
    if (this.#watchId !== null) navigator.geolocation.clearWatch(this.#watchId);
    this.#watchId = null;
    clearInterval(this.#staleTimer);
  }

  #fix(p: GeolocationPosition): void {
    const at = Date.now();
    this.#lastFixAt = at;
    if (this.#state.gpsNotice === TEXTS.gpsStale) this.#set({ gpsNotice: null });
    const next = { lat: p.coords.latitude, lon: p.coords.longitude };
    if (!valid(next.lat, next.lon)) return;
    const last = this.#taken;
    if (last && metersBetween(last, next) <= GPS_MIN_MOVE_M && at - last.at < GPS_REFRESH_MS) return;
    this.#taken = { ...next, at };
    this.#gpsTimestamp = Math.round(p.timestamp);
    this.#set({ lat: next.lat, lon: next.lon });
    this.#changed();
  }

  #fail(code: number): void {
    this.#unwatch();
    this.#set({
      type: "OVERRIDE",
      gpsNotice: TEXTS.gpsPrefix + geolocationErrorText(code),
      gpsFailures: this.#state.gpsFailures + 1,
    });
    this.#changed();
  }
}

let reporter: LocationReporter | undefined;

/** The page's reporter. */
export function locationReporter(): LocationReporter {
  reporter ??= new LocationReporter();
  return reporter;
}

/**
 * The member's location, reported while the page is open. Call it from every logged-in island
 * that shows nearby members; `known` is the member's own last report from the server, if the page
 * has it (null when it has none; left out, the reporter asks the server). Render nothing
 * location-dependent while `ready` is false (server and hydration).
 */
export function useLocation(profileId: string, known?: KnownLocation | null) {
  const r = locationReporter();
  useEffect(() => r.start(profileId, known), [r, profileId]);
  const state = useSyncExternalStore(r.subscribe, () => r.state, () => SERVER_STATE);
  return {
    ...state,
    moveTo: (lat: number, lon: number) => r.moveTo(lat, lon),
    setType: (t: "OVERRIDE" | "DEVICE_GPS") => r.setType(t),
    setHidden: (h: boolean) => r.setHidden(h),
    refresh: () => r.refresh(),
  };
}
