/**
 * Pure geometry of positions: great-circle distances, the spec's 1-degree sectors ("lat:lon"),
 * and the location-privacy grid that turns a reported (true) point into the shown point
 * everybody else sees (design.md, "Location privacy").
 *
 * The shown point: the fixed grid below cuts the globe into cells of about `cellMeters`
 * (default 1 km) on each side: rows of equal latitude height, and in each row as many columns as
 * make the cells about square in metres (narrower in degrees towards the poles). A member is shown
 * at one point inside the cell holding their true point, chosen by HMAC-SHA256(server secret,
 * member id + cell), so it is the same point on every query and for every viewer (no fresh noise
 * to average away), and unpredictable without the secret. Hysteresis: a member keeps their cell
 * until the true point is more than `hysteresis` (default 20 %) of a cell beyond its edge, so GPS
 * jitter across an edge does not flip the shown point back and forth and trace the edge.
 */

import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { writeAscii } from "./ascii.ts";

/** Mean earth radius (IUGG), metres. */
export const EARTH_RADIUS_M = 6_371_008.8;
/** Metres per degree of latitude (and of longitude at the equator). */
export const METERS_PER_DEGREE = EARTH_RADIUS_M * Math.PI / 180;
/** Default edge of a privacy cell, metres. */
export const DEFAULT_CELL_METERS = 1000;
/** Default hysteresis: how far (fraction of a cell) past the edge a member must be to change cell. */
export const DEFAULT_HYSTERESIS = 0.2;

const RAD = Math.PI / 180;

/** Bad coordinates, sector keys or paging: the API maps it to 400. */
export class GeoInputError extends Error {
  readonly status = 400;
  readonly code = "bad_request";
  constructor(message: string) {
    super(message);
    this.name = "GeoInputError";
  }
}

/** A latitude/longitude box in degrees, edges included. */
export interface Bounds {
  latMin: number;
  lonMin: number;
  latMax: number;
  lonMax: number;
}

/** A point in degrees. */
export interface LatLon {
  lat: number;
  lon: number;
}

/** Great-circle distance in metres (haversine). */
export function haversineMeters(
  lat1: number,
  lon1: number,
  lat2: number,
  lon2: number,
): number {
  const s1 = Math.sin((lat2 - lat1) * RAD / 2);
  const s2 = Math.sin((lon2 - lon1) * RAD / 2);
  const a = s1 * s1 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * s2 * s2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * A distance as members are shown it, in whole metres: the shown positions are far coarser, and
 * every screen that shows one member's distance (a tile, a card, the profile) then shows the same.
 */
export function shownMeters(meters: number): number {
  return Math.round(meters);
}

/** True for a finite latitude in [-90, 90]. */
export function isLat(x: unknown): x is number {
  return typeof x === "number" && Number.isFinite(x) && x >= -90 && x <= 90;
}

/** True for a finite longitude in [-180, 180]. */
export function isLon(x: unknown): x is number {
  return typeof x === "number" && Number.isFinite(x) && x >= -180 && x <= 180;
}

/** Throws `GeoInputError` unless `lat`/`lon` are finite and in range. */
export function assertLatLon(
  lat: unknown,
  lon: unknown,
  what = "position",
): asserts lat is number {
  if (!isLat(lat)) {
    throw new GeoInputError(`${what}: latitude must be a number in [-90, 90]`);
  }
  if (!isLon(lon)) {
    throw new GeoInputError(`${what}: longitude must be a number in [-180, 180]`);
  }
}

/** A longitude wrapped into [-180, 180). */
export function normalizeLon(lon: number): number {
  if (lon >= -180 && lon < 180) return lon;
  const x = ((lon + 180) % 360 + 360) % 360 - 180;
  return x === 180 ? -180 : x;
}

/** The 1-degree sector of a point, `"lat:lon"` of the floors (latitude 90 falls in row 89). */
export function sectorKey(lat: number, lon: number): string {
  return `${Math.min(89, Math.floor(lat))}:${Math.floor(normalizeLon(lon))}`;
}

const SECTOR_RE = /^(-?\d{1,3}):(-?\d{1,3})$/;

/** The south-west corner of a sector key; throws `GeoInputError` for a malformed or out-of-range key. */
export function parseSectorKey(key: string): LatLon {
  const m = typeof key === "string" ? SECTOR_RE.exec(key) : null;
  if (!m) {
    throw new GeoInputError(`sector must look like "33:-112", got ${JSON.stringify(key)}`);
  }
  const lat = Number(m[1]);
  const lon = Number(m[2]);
  if (lat < -90 || lat > 89 || lon < -180 || lon > 179) {
    throw new GeoInputError(`sector ${key} is out of range (lat -90..89, lon -180..179)`);
  }
  return { lat: lat === 0 ? 0 : lat, lon: lon === 0 ? 0 : lon };
}

/** The box of a sector (south and west edges belong to it, north and east to the next). */
export function sectorBounds(key: string): Bounds {
  const { lat, lon } = parseSectorKey(key);
  return { latMin: lat, lonMin: lon, latMax: lat + 1, lonMax: lon + 1 };
}

/** A cell of the privacy grid: row from the south pole, column from longitude -180. */
export interface GridCell {
  row: number;
  col: number;
}

/** The fixed privacy grid: cells of about `cellMeters` square (see the top comment). */
export class PrivacyGrid {
  /** Cell edge, metres. */
  readonly cellMeters: number;
  /** Row height, degrees of latitude. */
  readonly rowDeg: number;
  /** Number of rows from pole to pole. */
  readonly rows: number;
  /** Fraction of a cell past the edge before a member changes cell. */
  readonly hysteresis: number;
  readonly #cols = new Map<number, number>();

  constructor(
    cellMeters = DEFAULT_CELL_METERS,
    hysteresis = DEFAULT_HYSTERESIS,
  ) {
    if (!(cellMeters >= 50 && cellMeters <= 100_000)) {
      throw new RangeError("cellMeters must be in [50, 100000]");
    }
    if (!(hysteresis >= 0 && hysteresis <= 1)) {
      throw new RangeError("hysteresis must be in [0, 1]");
    }
    this.cellMeters = cellMeters;
    this.hysteresis = hysteresis;
    this.rowDeg = cellMeters / METERS_PER_DEGREE;
    this.rows = Math.ceil(180 / this.rowDeg);
  }

  /** Columns in a row: about square cells, at least one. */
  colsInRow(row: number): number {
    let n = this.#cols.get(row);
    if (n === undefined) {
      const south = -90 + row * this.rowDeg;
      const north = Math.min(90, south + this.rowDeg);
      const mid = (south + north) / 2;
      n = Math.max(1, Math.round(360 * Math.cos(mid * RAD) / this.rowDeg));
      this.#cols.set(row, n);
    }
    return n;
  }

  /** Column width of a row, degrees of longitude. */
  colDeg(row: number): number {
    return 360 / this.colsInRow(row);
  }

  /** The cell holding a point. */
  cellOf(lat: number, lon: number): GridCell {
    const row = Math.max(0, Math.min(this.rows - 1, Math.floor((lat + 90) / this.rowDeg)));
    const n = this.colsInRow(row);
    const col = Math.max(0, Math.min(n - 1, Math.floor((normalizeLon(lon) + 180) / (360 / n))));
    return { row, col };
  }

  /** The box of a cell. */
  bounds(cell: GridCell): Bounds {
    const latMin = -90 + cell.row * this.rowDeg;
    const w = this.colDeg(cell.row);
    const lonMin = -180 + cell.col * w;
    return { latMin, lonMin, latMax: Math.min(90, latMin + this.rowDeg), lonMax: lonMin + w };
  }

  /** The centre of a cell. */
  center(cell: GridCell): LatLon {
    const b = this.bounds(cell);
    return { lat: (b.latMin + b.latMax) / 2, lon: normalizeLon((b.lonMin + b.lonMax) / 2) };
  }

  /** True when the point lies in the cell grown by `margin` cells on every side. */
  contains(cell: GridCell, lat: number, lon: number, margin = 0): boolean {
    const b = this.bounds(cell);
    const mLat = margin * this.rowDeg;
    if (lat < b.latMin - mLat || lat > b.latMax + mLat) return false;
    const w = b.lonMax - b.lonMin;
    const mLon = margin * w;
    // Offset east of the cell's west edge, wrapped so that the cell and its margin are contiguous.
    const d = ((lon - (b.lonMin - mLon)) % 360 + 360) % 360;
    return d <= w + 2 * mLon;
  }

  /**
   * The cell a member is shown in after reporting (lat, lon), given the cell they were shown in
   * before: the old cell while the point is within `hysteresis` cells of it, else the point's cell.
   */
  next(
    previous: GridCell | null | undefined,
    lat: number,
    lon: number,
  ): GridCell {
    if (
      previous && previous.row >= 0 && previous.row < this.rows &&
      previous.col >= 0 &&
      previous.col < this.colsInRow(previous.row) &&
      this.contains(previous, lat, lon, this.hysteresis)
    ) {
      return { row: previous.row, col: previous.col };
    }
    return this.cellOf(lat, lon);
  }
}

type Hmac = ReturnType<typeof hmac.create>;
const utf8 = new TextEncoder();
let lastSecret: string | undefined;
let lastKeyed: Hmac | undefined;
/** The HMAC each point of a string secret is computed in: the keyed state copied in, no allocation. */
let work: Hmac | undefined;
/** The message's bytes when it is ASCII (ids are), written here without a call out of JavaScript. */
const message = new Uint8Array(256);
const mac = new Uint8Array(32);

/**
 * An HMAC-SHA256 keyed with `secret`, ready for one message: the keyed state is made once per
 * secret and copied for each point (keying hashes two blocks, and a key made anew on every call
 * cost a position write more than the rest of its preparation).
 */
function keyed(secret: string | Uint8Array): Hmac {
  // Bytes may be changed in place by their owner: a key of their own each time.
  if (typeof secret !== "string") return hmac.create(sha256, secret);
  if (secret !== lastSecret || lastKeyed === undefined) {
    lastKeyed = hmac.create(sha256, utf8.encode(secret));
    lastSecret = secret;
  }
  // Synchronous from here to its digest (shownPoint), so one working copy serves every call.
  work = lastKeyed._cloneInto(work);
  return work;
}

/** The UTF-8 bytes of `text`: in the shared buffer when it is short ASCII, else newly encoded. */
function messageBytes(text: string): Uint8Array {
  return writeAscii(text, message) ? message.subarray(0, text.length) : utf8.encode(text);
}

/**
 * The shown point of a member in a cell: fixed per (secret, member, grid, cell), spread evenly
 * over the cell. Two 32-bit fractions of HMAC-SHA256 place it.
 */
export function shownPoint(
  secret: string | Uint8Array,
  profileId: string,
  grid: PrivacyGrid,
  cell: GridCell,
): LatLon {
  keyed(secret).update(messageBytes(`shown-v1|${grid.cellMeters}|${cell.row}|${cell.col}|${profileId}`))
    .digestInto(mac);
  const u = ((mac[0] << 24) | (mac[1] << 16) | (mac[2] << 8) | mac[3]) >>> 0;
  const v = ((mac[4] << 24) | (mac[5] << 16) | (mac[6] << 8) | mac[7]) >>> 0;
  const b = grid.bounds(cell);
  return {
    lat: b.latMin + u / 2 ** 32 * (b.latMax - b.latMin),
    lon: normalizeLon(b.lonMin + v / 2 ** 32 * (b.lonMax - b.lonMin)),
  };
}
