/**
 * The discovery filter (spec §5 map filters), one component for tiles, swipe, the profile list
 * and the map: the characteristics by category (every one ticked must be present) and the four
 * like filters. It holds no state: the island passes the value and gets every change back.
 */

import { CHARACTERISTIC_CATEGORIES } from "../domain/characteristics.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import { IDENTIFY_TEXTS } from "../domain/identify.ts";
import { VerifiedBadge } from "./VerifiedBadge.tsx";
import type { LikeFilter } from "../domain/shapes/briefs.ts";

export type { LikeFilter };

/** The four like filters of spec §5 with their labels, in the API's `likes=` names. */
export const LIKE_FILTERS: readonly { id: LikeFilter; label: string }[] = [
  { id: "likedMyProfile", label: "Liked my Profile" },
  { id: "likedMyPics", label: "Liked my Pics" },
  { id: "iLikedProfile", label: "I liked their Profile" },
  { id: "iLikedPics", label: "I liked their Pics" },
];

/** What a discovery query is filtered by: stored characteristic values and like filters. */
export interface BriefFilter {
  chars: string[];
  likes: LikeFilter[];
  /** Only members who show the Verified badge. */
  verified?: boolean;
}

/** No filter: everybody nearby. */
export const NO_FILTER: BriefFilter = { chars: [], likes: [] };

const LIKE_IDS: ReadonlySet<string> = new Set(LIKE_FILTERS.map((l) => l.id));

/** A filter from untrusted input (local storage): unknown like names dropped, lists de-duplicated. */
export function cleanFilter(raw: unknown): BriefFilter {
  const f = (raw ?? {}) as { chars?: unknown; likes?: unknown };
  const list = (x: unknown) =>
    Array.isArray(x) ? [...new Set(x.filter((v): v is string => typeof v === "string"))] : [];
  const out: BriefFilter = {
    chars: list(f.chars),
    likes: list(f.likes).filter((l): l is LikeFilter => LIKE_IDS.has(l)),
  };
  if ((f as { verified?: unknown }).verified === true) out.verified = true;
  return out;
}

/** The query parameters of a filter (`chars=top,bottom&likes=iLikedProfile`), empty ones left out. */
export function filterParams(f: BriefFilter): URLSearchParams {
  const p = new URLSearchParams();
  if (f.chars.length) p.set("chars", [...f.chars].sort().join(","));
  if (f.likes.length) p.set("likes", [...f.likes].sort().join(","));
  if (f.verified) p.set("verified", "1");
  return p;
}

/** How many filters are on. */
export function filterCount(f: BriefFilter): number {
  return f.chars.length + f.likes.length + (f.verified ? 1 : 0);
}

function toggle<T>(list: readonly T[], item: T, on: boolean): T[] {
  return on ? (list.includes(item) ? [...list] : [...list, item]) : list.filter((x) => x !== item);
}

export interface FilterPanelProps {
  value: BriefFilter;
  onChange: (next: BriefFilter) => void;
  /** Open on first render (closed by default, to leave the screen to the profiles). */
  open?: boolean;
}

/** The filter as a collapsible panel: a 'Filter' summary with the count, then the choices. */
export function FilterPanel({ value, onChange, open = false }: FilterPanelProps) {
  const count = filterCount(value);
  return (
    <details className="filter-panel" open={open}>
      <summary>
        Filter{count > 0 && <span className="filter-count" aria-label={`${count} on`}>{count}</span>}
      </summary>
      <div className="filter-body">
        <label className="chip chip-verified">
          <input
            type="checkbox"
            checked={value.verified === true}
            onChange={(e) => {
              const { verified: _, ...rest } = value;
              onChange(e.currentTarget.checked ? { ...rest, verified: true } : rest);
            }}
          />
          <VerifiedBadge /> {IDENTIFY_TEXTS.verifiedOnly}
        </label>
        <fieldset className="filter-group">
          <legend>{UI_TEXTS.likes}</legend>
          {LIKE_FILTERS.map((l) => (
            <label key={l.id} className="chip">
              <input
                type="checkbox"
                checked={value.likes.includes(l.id)}
                onChange={(e) => onChange({ ...value, likes: toggle(value.likes, l.id, e.currentTarget.checked) })}
              />
              {l.label}
            </label>
          ))}
        </fieldset>
        {CHARACTERISTIC_CATEGORIES.map((cat) => (
          <fieldset key={cat.name} className="filter-group">
            <legend>{cat.name}</legend>
            {cat.items.map((it) => (
              <label key={it.value} className="chip">
                <input
                  type="checkbox"
                  checked={value.chars.includes(it.value)}
                  onChange={(e) =>
                    onChange({ ...value, chars: toggle(value.chars, it.value, e.currentTarget.checked) })}
                />
                {it.label}
              </label>
            ))}
          </fieldset>
        ))}
        <div className="row">
          <button type="button" onClick={() => onChange(NO_FILTER)} disabled={count === 0}>
            {UI_TEXTS.clearFilter}
          </button>
        </div>
      </div>
    </details>
  );
}
