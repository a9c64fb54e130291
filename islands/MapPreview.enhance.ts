/**
 * The map's first tiles, laid out before React and Leaflet have run (islands/MapPreview.tsx
 * renders their box): at the view the map island will open (islands/map/firstView.ts, the same
 * choice: a linked point, the saved view, this device's saved location, the member's own last
 * report), the tiles Leaflet will draw there, at the same places. They are the same addresses, so
 * Leaflet's tiles come from the browser's cache. Without a location (a newcomer's random point is
 * drawn by the island) or with a saved box and no zoom (Leaflet fits it), the box is taken away.
 */

import type { Enhancement } from "./enhance.ts";
import type { MapPreviewProps } from "./MapPreview.tsx";
import { APP_TILE_URL, firstMapView, TILE_PX, tilesAt, viewKey } from "./map/firstView.ts";
import { readSaved } from "./queries/savedLocation.ts";

const enhanceMapPreview: Enhancement<MapPreviewProps> = (root, { profileId, known, near }) => {
  const box = root.querySelector<HTMLElement>(".map-preview");
  if (!box) return;
  const me = readSaved(profileId) ?? known;
  const width = box.clientWidth, height = box.clientHeight;
  const view = me ? firstMapView(location.hash, me, near, { width, height }) : null;
  if (!view || "box" in view || !width || !height) return box.remove();
  const tiles = document.createDocumentFragment();
  for (const t of tilesAt(view, width, height, APP_TILE_URL, devicePixelRatio > 1)) {
    const img = document.createElement("img");
    img.alt = "";
    // Asked for at once, not held back behind the page's scripts as images are while they load.
    img.fetchPriority = "high";
    // A tile that fails leaves the map's background, not the browser's broken-picture sign (as Leaflet's do).
    img.onerror = () => img.remove();
    img.src = t.url;
    img.width = img.height = TILE_PX;
    img.style.left = `${t.left}px`;
    img.style.top = `${t.top}px`;
    tiles.append(img);
  }
  box.dataset.view = viewKey(view);
  box.prepend(tiles);
};

export default enhanceMapPreview;
