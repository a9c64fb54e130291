/** The NSFW choice of this device session, for islands that show other members' pictures. */

import { useEffect, useState } from "react";
import { showsNsfw } from "./NsfwToggle.tsx";

/**
 * False on the server and at hydration (so the markup matches), then the member's choice of
 * Showing NSFW / Hiding NSFW on home.
 */
export function useShowsNsfw(): boolean {
  const [on, setOn] = useState(false);
  useEffect(() => setOn(showsNsfw()), []);
  return on;
}
