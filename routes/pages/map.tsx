/** The map page (/search/map): the full-screen NearbyMap island over its first tiles (MapPreview). */

import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { renderPage, safetyNoticeFor } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import NearbyMap from "../../islands/NearbyMap.tsx";
import MapPreview from "../../islands/MapPreview.tsx";
import { knownLocation } from "../../kv/positions/mod.ts";
import { nearestPoints } from "../../kv/briefs.ts";
import { config } from "../../config/config.ts";
import { titleText } from "../../domain/texts.ts";
import { discreetTitle } from "../../domain/brand.ts";
import { isDiscreet } from "../device.ts";

export async function mapPage(c: Context<AppEnv>) {
  const caller = c.get("caller")!;
  // The member's own record only: it seeds the reporter on a device that saved no location.
  // The nearest members' shown points: the map opens zoomed so that they show (islands/map/firstView.ts).
  const [known, near] = await Promise.all([knownLocation(caller.profileId), nearestPoints(caller.profileId)]);
  // The tiles come from this app's /tiles (routes/tiles.ts); the page never names the tile host.
  // Their attribution stays on the map (the tile host's licence asks for it wherever they show).
  const props = { profileId: caller.profileId, attribution: config.tileAttribution, known, near };
  const title = discreetTitle("Gaydar Map", isDiscreet(c));
  return renderPage(
    c,
    title,
    <section className="map-section">
      <h1 className="visually-hidden">{titleText(title)}</h1>
      {await safetyNoticeFor(c)}
      {/* The first tiles, under the map until Leaflet has drawn its own. */}
      <Island of={MapPreview} props={props} />
      <Island of={NearbyMap} props={props} />
    </section>,
    { bodyClass: "map-body" },
  );
}
