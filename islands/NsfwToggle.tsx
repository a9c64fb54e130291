/** Home's NSFW toggle: 'Showing NSFW' / 'Hiding NSFW', remembered per device session. */

import { useEffect, useState } from "react";
import { TEXTS } from "../domain/texts.ts";

/** The sessionStorage key other islands read to choose the NSFW picture route. */
export const NSFW_KEY = "showNsfw";

/** True when this device session chose to see NSFW pictures. */
export function showsNsfw(): boolean {
  return typeof sessionStorage !== "undefined" && sessionStorage.getItem(NSFW_KEY) === "1";
}

export default function NsfwToggle() {
  const [on, setOn] = useState(false);
  useEffect(() => setOn(showsNsfw()), []);
  const flip = () => {
    const next = !on;
    sessionStorage.setItem(NSFW_KEY, next ? "1" : "0");
    setOn(next);
  };
  return (
    <button type="button" className={on ? "toggle on" : "toggle"} aria-pressed={on} onClick={flip}>
      {on ? TEXTS.showingNsfw : TEXTS.hidingNsfw}
    </button>
  );
}
