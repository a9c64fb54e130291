import assert from "node:assert/strict";
import { LEAFLET_UNUSED } from "./build.ts";
import type { Manifest } from "./buildOutput.ts";
import { sharedBuild } from "../tests/islands_build.ts";

Deno.test("build - Leaflet's attachments of what the map never uses are found, each whole (a Leaflet upgrade that moves them fails here)", () => {
  const source = Deno.readTextFileSync(new URL("../node_modules/leaflet/dist/leaflet-src.esm.js", import.meta.url));
  const found = [...source.matchAll(LEAFLET_UNUSED)].map((m) => m[0].split(/\r?\n/)[0]);
  assert.deepEqual(found, [
    "Control.Layers = Layers;",
    "Control.Scale = Scale;",
    "control.layers = layers;",
    "control.scale = scale;",
    "Marker.include(PointToGeoJSON);",
    "Circle.include(PointToGeoJSON);",
    "CircleMarker.include(PointToGeoJSON);",
    "Polyline.include({",
    "Polygon.include({",
    "LayerGroup.include({",
    "TileLayer.WMS = TileLayerWMS;",
    "tileLayer.wms = tileLayerWMS;",
    "(this.options.preferCanvas && canvas(options)) || ",
  ]);
  // Each block left out is a whole statement: what is left still parses.
  const rest = source.replace(LEAFLET_UNUSED, "");
  assert.doesNotThrow(() => new Function(rest.replace(/^export \{[^}]*\};?/m, "").replace(/^import .*$/gm, "")));
});

Deno.test("build - a member's main screens start few module files: small shared chunks are grouped (islands/chunkGroups.ts)", async () => {
  const dir = await sharedBuild();
  const manifest: Manifest = JSON.parse(await Deno.readTextFile(`${dir}/manifest.json`));
  const files = (islands: string[]) =>
    new Set(islands.flatMap((n) => [manifest.islands[n].js, ...manifest.islands[n].preload])).size;
  // Each file is a request, a parse and a compile in the browser. Before any grouping: 36, 40, 31
  // and 43; before the modules loaded with import() took the group, the tab bar's chunks of any
  // size joined it, and the header's script stopped sharing one with the tab bar: 27, 31, 23 and 43
  // (and the login page's 7).
  assert.ok(files(["Header", "TabBar", "ProfileTiles"]) <= 19, "the grid");
  assert.ok(files(["Header", "TabBar", "SwipeDeck"]) <= 23, "swipe");
  assert.ok(files(["Header", "TabBar", "NearbyMap", "MapPreview"]) <= 15, "the map");
  const profile = ["Header", "TabBar", "ProfileView", "LikeButton", "NotesPanel", "ActionsPanel", "Conversation"];
  assert.ok(files(profile) <= 35, "a member's profile");
  // Enhanced islands (no React) are not given the group: the login page stays small.
  assert.equal(files(["Header", "LoginForm"]), 5);
});

Deno.test("build - React, React DOM and the query client are one file on every hydrated screen, also what is loaded with import()", async () => {
  const dir = await sharedBuild();
  const manifest: Manifest = JSON.parse(await Deno.readTextFile(`${dir}/manifest.json`));
  const hydrated = Object.entries(manifest.islands).filter(([, a]) => !a.enhanced);
  // The files every hydrated island loads: one of them holds React DOM's client, and it is the only
  // one over 100 KB (minified) that all of them share.
  const shared = hydrated.map(([, a]) => new Set([a.js, ...a.preload]))
    .reduce((all, s) => new Set([...all].filter((f) => s.has(f))));
  const big = [...shared].filter((f) => Deno.statSync(`${dir}/${f.slice("/static/build/".length)}`).size > 100_000);
  assert.equal(big.length, 1, [...shared].join(", "));
  const text = await Deno.readTextFile(`${dir}/${big[0].slice("/static/build/".length)}`);
  for (const marker of ["hydrateRoot", "useSyncExternalStore", "QueryClient"]) assert.ok(text.includes(marker), marker);
});
