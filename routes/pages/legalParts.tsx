/** What the About page of every language is made of (routes/pages/legal.tsx and its languages). */

import type { ReactElement } from "react";

export const OSM = <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>;
export const LEAFLET = <a href="https://leafletjs.com">Leaflet</a>;
export const UNSPLASH = <a href="https://unsplash.com">Unsplash</a>;

/** The About page's words in one language; `About` lays them out the same for every language. */
export interface AboutText {
  /** What follows the brand's name in the first sentence. */
  intro: string;
  valuesTitle: string;
  /** Each value: its name, then what it means. */
  values: [string, string][];
  volunteersTitle: string;
  volunteers: string;
  thanksTitle: string;
  /** Each thanks: the words before its link, the link, the words after. */
  thanks: [string, ReactElement, string][];
}
