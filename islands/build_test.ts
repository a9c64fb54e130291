import assert from "node:assert/strict";
import { LEAFLET_UNUSED } from "./build.ts";

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
