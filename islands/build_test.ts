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
  // Each file is a request, a parse and a compile in the browser; before grouping: 36, 40 and 31.
  assert.ok(files(["Header", "TabBar", "ProfileTiles"]) <= 28, "the grid");
  assert.ok(files(["Header", "TabBar", "SwipeDeck"]) <= 32, "swipe");
  assert.ok(files(["Header", "TabBar", "NearbyMap", "MapPreview"]) <= 24, "the map");
  // Enhanced islands (no React) are not given the group: the login page stays small.
  assert.equal(files(["Header", "LoginForm"]), 7);
});
