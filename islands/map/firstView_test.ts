import assert from "node:assert/strict";
import { replaced } from "../../tests/replaced.ts";
import {
  firstMapView,
  FIT_MIN_ZOOM,
  fitZoom,
  markerSize,
  projectPx,
  START_ZOOM,
  TILE_PX,
  tilesAt,
  tileUrl,
  VIEW_STORAGE_KEY,
} from "./firstView.ts";

const OSM = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";

/** The slippy-map tile of a point (the OpenStreetMap wiki's formula, independent of `projectPx`). */
function slippyTile(lat: number, lon: number, z: number) {
  const n = 2 ** z, r = lat * Math.PI / 180;
  return {
    x: Math.floor((lon + 180) / 360 * n),
    y: Math.floor((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2 * n),
  };
}

Deno.test("map first view - the tiles cover the box, the centre's tile holds the centre's pixel", () => {
  const view = { lat: 33.4484, lon: -112.074, zoom: START_ZOOM };
  for (const [w, h] of [[390, 716], [1280, 720], [1, 1], [257, 513]]) {
    const tiles = tilesAt(view, w, h, OSM, false);
    // Every pixel of the box is under exactly one tile.
    const area = tiles.reduce((a, t) => {
      const x = Math.max(0, Math.min(w, t.left + TILE_PX) - Math.max(0, t.left));
      const y = Math.max(0, Math.min(h, t.top + TILE_PX) - Math.max(0, t.top));
      return a + x * y;
    }, 0);
    assert.equal(area, w * h, `${w}x${h} covered once`);
    for (const t of tiles) {
      assert.ok(t.left < w && t.top < h && t.left > -TILE_PX && t.top > -TILE_PX, "no tile out of view");
    }
    // The tile under the box's centre is the centre's slippy tile, at the centre's pixel within it.
    const c = slippyTile(view.lat, view.lon, START_ZOOM);
    const under = tiles.find((t) =>
      t.left <= w / 2 && w / 2 < t.left + TILE_PX && t.top <= h / 2 && h / 2 < t.top + TILE_PX
    );
    assert.equal(under?.url, `https://tile.openstreetmap.org/13/${c.x}/${c.y}.png`);
    const p = projectPx(view.lat, view.lon, START_ZOOM);
    assert.ok(Math.abs(w / 2 - under!.left - (p.x - c.x * TILE_PX)) <= 0.5, "centre pixel in x");
    assert.ok(Math.abs(h / 2 - under!.top - (p.y - c.y * TILE_PX)) <= 0.5, "centre pixel in y");
  }
});

Deno.test("map first view - addresses as Leaflet fills them: wrapped columns, no rows off the world, subdomains", () => {
  // Across the antimeridian at zoom 2: columns wrap round to 0..3, rows stop at the poles.
  const tiles = tilesAt({ lat: 80, lon: 179.9, zoom: 2 }, 1024, 1024, "{z}/{x}/{y}", false);
  const cols = new Set(tiles.map((t) => Number(t.url.split("/")[1])));
  const rows = new Set(tiles.map((t) => Number(t.url.split("/")[2])));
  assert.deepEqual([...cols].sort(), [0, 1, 2, 3]);
  assert.ok([...rows].every((y) => y >= 0 && y < 4));
  assert.equal(
    tileUrl("https://{s}.tile.example/{z}/{x}/{-y}{r}.png", 5, 3, 4, true),
    "https://c.tile.example/4/5/12@2x.png",
  );
  assert.equal(
    tileUrl("https://{s}.tile.example/{z}/{x}/{y}{r}.png", 1, 1, 4, false),
    "https://c.tile.example/4/1/1.png",
  );
  assert.equal(tileUrl("{s}/{unknown}", 0, 0, 0, false), "a/{unknown}");
});

Deno.test("map first view - a linked point, else the saved view, else me at the start zoom", () => {
  const store = new Map<string, string>();
  using _storage = replaced(globalThis, {
    localStorage: {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    },
  });
  const me = { lat: 33.4, lon: -112 };
  assert.deepEqual(firstMapView("", me), { ...me, zoom: START_ZOOM });
  store.set(VIEW_STORAGE_KEY, JSON.stringify({ latMin: 1, lonMin: 2, latMax: 3, lonMax: 4, zoom: 9 }));
  assert.deepEqual(firstMapView("", me), { lat: 2, lon: 3, zoom: 9 });
  assert.deepEqual(firstMapView("#profileId=x&lat=10&lng=20", me), { lat: 10, lon: 20, zoom: START_ZOOM });
  store.set(VIEW_STORAGE_KEY, JSON.stringify({ latMin: 1, lonMin: 2, latMax: 3, lonMax: 4 }));
  assert.deepEqual(firstMapView("#lat=x", me), { box: { latMin: 1, lonMin: 2, latMax: 3, lonMax: 4 } });
  store.set(VIEW_STORAGE_KEY, "{not json");
  assert.deepEqual(firstMapView("", me), { ...me, zoom: START_ZOOM });
});

Deno.test("map first view - zoomed out just enough that the nearest members' faces show whole, never in past the start zoom", () => {
  const me = { lat: 33.4484, lon: -112.074 };
  // Twelve members 2 to 13 km around: at zoom 13 a 390 × 700 px map shows about ±3 km across.
  const near = Array.from({ length: 12 }, (_, i) => ({
    lat: me.lat + (0.02 + 0.01 * i) * Math.sin(i * 2.4),
    lon: me.lon + (0.02 + 0.01 * i) * Math.cos(i * 2.4),
  }));
  for (const [w, h] of [[390, 700], [320, 530]]) {
    const z = fitZoom(me, near, w, h);
    assert.ok(z < START_ZOOM && z >= FIT_MIN_ZOOM, `${w}x${h}: zoomed out (${z})`);
    const edge = markerSize(w, h, near.length);
    // Each face `reach` px from the middle at most, each way.
    const within = (zoom: number, reach: number) =>
      near.every((p) => {
        const c = projectPx(me.lat, me.lon, zoom), q = projectPx(p.lat, p.lon, zoom);
        return Math.abs(q.x - c.x) + reach <= w / 2 && Math.abs(q.y - c.y) + reach <= h / 2;
      });
    assert.ok(within(z, edge), `${w}x${h}: every face whole at ${z}, with half a face to spare`);
    assert.ok(!within(z + 1, edge), `${w}x${h}: one zoom deeper, one would come to the edge`);
  }
  // Members close by, or none: the start zoom.
  assert.equal(fitZoom(me, [{ lat: me.lat + 0.001, lon: me.lon }], 390, 700), START_ZOOM);
  assert.equal(fitZoom(me, [], 390, 700), START_ZOOM);
  assert.deepEqual(firstMapView("", me, near, { width: 390, height: 700 }), {
    ...me,
    zoom: fitZoom(me, near, 390, 700),
  });
  assert.deepEqual(firstMapView("", me), { ...me, zoom: START_ZOOM });
});
