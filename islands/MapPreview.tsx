/**
 * The map's first tiles (islands/MapPreview.enhance.ts lays them out in the browser, without
 * React): an empty box under the map island, with the tiles' attribution. The map island takes
 * it away once Leaflet has drawn its own tiles over it, or at once when Leaflet opens elsewhere.
 */

import type { KnownLocation } from "./queries/location.ts";

export interface MapPreviewProps {
  profileId: string;
  /** The tiles' attribution, HTML (the page's constant, never member input). */
  attribution: string;
  /** The member's own last report, for a device that saved no location. */
  known: KnownLocation | null;
  /** The shown points of the nearest members: the first view shows them (islands/map/firstView.ts). */
  near: { lat: number; lon: number }[];
}

export default function MapPreview({ attribution }: MapPreviewProps) {
  return (
    <div className="map-preview">
      <div className="map-preview-attribution" dangerouslySetInnerHTML={{ __html: attribution }} />
    </div>
  );
}
