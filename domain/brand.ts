/** Brands by host name: name, colours and a rotating tagline. One config, read by the layout. */

/** A brand variant. */
export interface Brand {
  id: string;
  name: string;
  /** Accent colour (buttons, links) and the header background. */
  accent: string;
  header: string;
  taglines: readonly string[];
}

const BRANDS: Record<string, Brand> = {
  lambda: {
    id: "lambda",
    name: "Lambda",
    accent: "#c2185b",
    header: "#1d1330",
    taglines: [
      "Your people, nearby.",
      "Meet the neighbours you have been missing.",
      "Community first. Safety always.",
      "Run by the community, for the community.",
    ],
  },
  men: {
    id: "men",
    name: "Lambda Men",
    accent: "#1e88e5",
    header: "#0f1d33",
    taglines: ["Guys nearby, on your terms.", "Find your crowd tonight.", "Your location stays yours."],
  },
  women: {
    id: "women",
    name: "Lambda Women",
    accent: "#8e24aa",
    header: "#2a1033",
    taglines: ["Women nearby, on your terms.", "Find your circle.", "Your location stays yours."],
  },
};

/** Host prefixes of the brand variants; any other host gets the default brand. */
const HOSTS: [RegExp, string][] = [
  [/^(men|gay)\./, "men"],
  [/^(women|lesbian)\./, "women"],
];

/** The brand of a host name. */
export function brandFor(hostname: string): Brand {
  const hit = HOSTS.find(([re]) => re.test(hostname));
  return BRANDS[hit?.[1] ?? "lambda"];
}

/** The tagline of the moment: it rotates every minute. */
export function taglineOf(brand: Brand, at = Date.now()): string {
  return brand.taglines[Math.floor(at / 60_000) % brand.taglines.length];
}

/**
 * Titles that say what the app is for, and the plain ones discreet mode shows instead (menu,
 * home card, top bar, heading): a glance at the screen names nothing.
 */
const DISCREET_TITLES: Record<string, string> = { "Gaydar Map": "Map" };

/** The English title (a key of the title catalogue) a page or card shows: its plain one in discreet mode. */
export function discreetTitle(english: string, discreet: boolean | undefined): string {
  return discreet ? DISCREET_TITLES[english] ?? english : english;
}
