import assert from "node:assert/strict";
import { install } from "@sinonjs/fake-timers";
import {
  DEFAULT_CITY,
  GPS_MIN_MOVE_M,
  LocationReporter,
  metersBetween,
  RANDOM_SPREAD_DEG,
  REPORT_DEBOUNCE_MS,
} from "./location.ts";
import { EVENTS } from "./api.ts";
import { LOCATION_STORAGE_KEY } from "./savedLocation.ts";
import { TEXTS } from "../../domain/texts.ts";
import { replaced } from "../../tests/replaced.ts";

/**
 * The browser around the reporter: storage, the API, the device's geolocation and the clock, all
 * fake, for one test (`using`: the real ones come back at its end).
 */
function fakeBrowser() {
  const clock = install({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  const store = new Map<string, string>();
  const puts: { path: string; body: Record<string, unknown> }[] = [];
  const watch = {
    ok: null as PositionCallback | null,
    fail: null as PositionErrorCallback | null,
    options: null as PositionOptions | null,
    cleared: 0,
  };
  const globals = replaced(globalThis, {
    localStorage: {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    },
    fetch: (input: string | URL | Request, init?: RequestInit) => {
      const path = String(input);
      if (init?.method === "PUT") puts.push({ path, body: JSON.parse(String(init.body)) });
      return Promise.resolve(
        new Response(JSON.stringify({ ok: true }), { headers: { "content-type": "application/json" } }),
      );
    },
  });
  const device = replaced(navigator, {
    geolocation: {
      watchPosition(ok: PositionCallback, fail: PositionErrorCallback, options: PositionOptions) {
        Object.assign(watch, { ok, fail, options });
        return 7;
      },
      clearWatch: () => void watch.cleared++,
    },
  });
  const fix = (lat: number, lon: number) =>
    watch.ok!({ coords: { latitude: lat, longitude: lon }, timestamp: Date.now() } as GeolocationPosition);
  return {
    store,
    puts,
    watch,
    fix,
    /** The page's clock moved on by `ms`, the timers due by then run. */
    later: (ms: number) => clock.tickAsync(ms),
    /** Past the report's debounce: what was to be sent by then has been. */
    settle: () => clock.tickAsync(REPORT_DEBOUNCE_MS + 150),
    [Symbol.dispose]() {
      clock.uninstall();
      device[Symbol.dispose]();
      globals[Symbol.dispose]();
    },
  };
}

Deno.test("location - a newcomer starts at a random point near Phoenix, saved, and reported once after 1 s", async () => {
  using b = fakeBrowser();
  const r = new LocationReporter();
  r.start("me", null);
  const s = r.state;
  assert.equal(s.ready, true);
  assert.equal(s.type, "RANDOM");
  assert.ok(Math.abs(s.lat - DEFAULT_CITY.lat) <= RANDOM_SPREAD_DEG);
  assert.ok(Math.abs(s.lon - DEFAULT_CITY.lon) <= RANDOM_SPREAD_DEG);
  assert.equal(JSON.parse(b.store.get(LOCATION_STORAGE_KEY)!).lat, s.lat);
  r.moveTo(33.5, -112.1);
  await b.later(REPORT_DEBOUNCE_MS / 2);
  r.moveTo(33.6, -112.2);
  assert.equal(b.puts.length, 0, "debounced");
  await b.later(REPORT_DEBOUNCE_MS - 1);
  assert.equal(b.puts.length, 0, "the debounce starts again at each move");
  await b.later(1);
  assert.equal(b.puts.length, 1);
  assert.equal(b.puts[0].path, "/api/profile-position/me");
  assert.deepEqual(b.puts[0].body, {
    profileId: "me",
    overrideLat: 33.6,
    overrideLon: -112.2,
    use: "OVERRIDE",
    hide: false,
  });
  assert.equal(r.state.reported, 1);
  r.setHidden(true);
  await b.settle();
  assert.equal(b.puts[1].body.hide, true);
  // The next page on this device starts where this one left off.
  const next = new LocationReporter();
  next.start("me", { lat: 1, lon: 1, use: "OVERRIDE", hide: false });
  assert.deepEqual([next.state.type, next.state.lat, next.state.lon, next.state.hide], [
    "OVERRIDE",
    33.6,
    -112.2,
    true,
  ]);
  const other = new LocationReporter();
  other.start("someone-else", { lat: 10, lon: 20, use: "OVERRIDE", hide: false });
  assert.deepEqual([other.state.lat, other.state.lon], [10, 20], "another member's saved location is not used");
  await b.settle();
});

Deno.test("location - GPS moves under 25 m are not reflected, farther ones are, and reported as DEVICE_GPS", async () => {
  using b = fakeBrowser();
  const r = new LocationReporter();
  r.start("me", { lat: 33.4, lon: -112, use: "OVERRIDE", hide: false });
  r.setType("DEVICE_GPS");
  assert.deepEqual(b.watch.options, { maximumAge: 15_000, timeout: 10_000, enableHighAccuracy: true });
  b.fix(33.45, -112.07);
  assert.deepEqual([r.state.lat, r.state.lon], [33.45, -112.07]);
  const near = 33.45 + 0.0001; // about 11 m north
  assert.ok(metersBetween({ lat: 33.45, lon: -112.07 }, { lat: near, lon: -112.07 }) < GPS_MIN_MOVE_M);
  b.fix(near, -112.07);
  assert.equal(r.state.lat, 33.45, "jitter is not reflected");
  b.fix(33.451, -112.07); // about 110 m
  assert.equal(r.state.lat, 33.451);
  await b.settle();
  assert.equal(b.puts.length, 1);
  assert.equal(b.puts[0].body.use, "DEVICE_GPS");
  assert.equal(b.puts[0].body.gpsLat, 33.451);
  assert.equal(typeof b.puts[0].body.gpsTimestamp, "number");
  r.setType("OVERRIDE");
  assert.equal(b.watch.cleared, 1, "Walk stops the watch");
  await b.settle();
  assert.deepEqual(b.puts[1].body, {
    profileId: "me",
    overrideLat: 33.451,
    overrideLon: -112.07,
    use: "OVERRIDE",
    hide: false,
  });
});

Deno.test("location - a GPS failure falls back to override with 'GPS: ' and the spec's text", async () => {
  const cases: [number, string][] = [
    [1, TEXTS.geoDenied],
    [2, TEXTS.geoUnavailable],
    [3, TEXTS.geoTimeout],
    [42, TEXTS.geoOther],
  ];
  for (const [code, text] of cases) {
    using b = fakeBrowser();
    const r = new LocationReporter();
    r.start("me", { lat: 33.4, lon: -112, use: "DEVICE_GPS", hide: false });
    assert.equal(r.state.type, "DEVICE_GPS");
    b.watch.fail!({ code } as GeolocationPositionError);
    assert.equal(r.state.type, "OVERRIDE");
    assert.equal(r.state.gpsNotice, `GPS: ${text}`);
    assert.equal(r.state.gpsFailures, 1);
    assert.equal(b.watch.cleared, 1);
    await b.settle();
    assert.equal(b.puts.at(-1)?.body.use, "OVERRIDE");
  }
});

Deno.test("location - a 401 anywhere pauses reporting for the rest of the page", async () => {
  using b = fakeBrowser();
  const r = new LocationReporter();
  r.start("me", { lat: 33.4, lon: -112, use: "OVERRIDE", hide: false });
  globalThis.dispatchEvent(new Event(EVENTS.pauseLocation));
  assert.equal(r.state.paused, true);
  r.moveTo(33.5, -112.1);
  r.refresh();
  await b.settle();
  assert.equal(b.puts.length, 0);
});
