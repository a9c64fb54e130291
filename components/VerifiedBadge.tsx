/**
 * The Verified badge of 3 2 1 Identify: a check in a seal, named "Verified" for screen readers
 * (role img), with the explanation as its tooltip. One drawing for every place that shows it (the
 * map's markers, built without React, draw `VERIFIED_PATHS` too).
 */

import { VERIFIED_TEXTS } from "../domain/verified.ts";

/** The badge's drawing on a 24 × 24 box, as SVG path attributes. */
export const VERIFIED_PATHS: readonly Record<string, string>[] = [
  {
    fill: "#1d9bf0",
    d: "M12 1.5l2.6 1.9 3.2-.1 1 3 2.6 1.9-1 3 1 3-2.6 1.9-1 3-3.2-.1L12 22.5l-2.6-1.9-3.2.1-1-3L2.6 15.8l1-3-1-3 2.6-1.9 1-3 3.2.1z",
  },
  {
    fill: "none",
    stroke: "#fff",
    "stroke-width": "2.4",
    "stroke-linecap": "round",
    "stroke-linejoin": "round",
    d: "M7.5 12.3l3 3 6-6.3",
  },
];

/** The badge's accessible name in the language in use. */
export const VERIFIED_LABEL = () => VERIFIED_TEXTS.verified;

const reactProps = (p: Record<string, string>) =>
  Object.fromEntries(Object.entries(p).map(([k, v]) => [k.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()), v]));

export function VerifiedBadge({ size = 16 }: { size?: number }) {
  return (
    <svg
      className="verified-badge"
      role="img"
      aria-label={VERIFIED_TEXTS.verified}
      width={size}
      height={size}
      viewBox="0 0 24 24"
    >
      <title>{VERIFIED_TEXTS.verifiedNote}</title>
      {VERIFIED_PATHS.map((p, i) => <path key={i} {...reactProps(p)} />)}
    </svg>
  );
}
