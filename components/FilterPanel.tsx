/**
 * The discovery filter (spec §5 map filters), one component for tiles, swipe, the profile list
 * and the map: the characteristics by category (every one ticked must be present), the four
 * like filters, an age range, a distance and yes-or-no toggles. It holds no state: the island passes the value and gets every change back.
 */

import { CHARACTERISTIC_CATEGORIES } from "../domain/characteristics.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import { VERIFIED_TEXTS } from "../domain/verified.ts";
import { FEEL_TEXTS } from "../domain/feelTexts.ts";
import { formatDistance } from "../domain/format.ts";
import type { LikeFilter } from "../domain/shapes/briefs.ts";
import { phrase } from "../domain/phrases.ts";

export type { LikeFilter };

/** The four like filters of spec §5 with their labels, in the API's `likes=` names. */
export const LIKE_FILTERS: readonly { id: LikeFilter; label: string }[] = [
  {
    id: "likedMyProfile",
    get label() {
      return phrase("Liked my Profile");
    },
  },
  {
    id: "likedMyPics",
    get label() {
      return phrase("Liked my Pics");
    },
  },
  {
    id: "iLikedProfile",
    get label() {
      return phrase("I liked their Profile");
    },
  },
  {
    id: "iLikedPics",
    get label() {
      return phrase("I liked their Pics");
    },
  },
];

/**
 * Yes-or-no filters of the sheet, in the API's names (`online=1`, `pics=1`). A feature adds its
 * own here (with its API parameter) and the sheet shows it with the others.
 */
export const FILTER_TOGGLES: readonly { id: FilterToggle; label: () => string }[] = [
  { id: "online", label: () => FEEL_TEXTS.onlineNow },
  { id: "pics", label: () => FEEL_TEXTS.withPictures },
  { id: "verified", label: () => VERIFIED_TEXTS.verifiedOnly },
];
export type FilterToggle = "online" | "pics" | "verified";

/** Distances the sheet offers, in kilometres. */
export const FILTER_KMS = [1, 2, 5, 10, 25, 50, 100] as const;
export const MIN_AGE = 18, MAX_AGE = 99;

/**
 * What a discovery query is filtered by: stored characteristic values, like filters, and where
 * set an age range, a distance (km) and the yes-or-no toggles.
 */
export interface BriefFilter {
  chars: string[];
  likes: LikeFilter[];
  ageMin?: number;
  ageMax?: number;
  km?: number;
  toggles?: FilterToggle[];
}

/** No filter: everybody nearby. */
export const NO_FILTER: BriefFilter = { chars: [], likes: [] };

const LIKE_IDS: ReadonlySet<string> = new Set(LIKE_FILTERS.map((l) => l.id));
const TOGGLE_IDS: ReadonlySet<string> = new Set(FILTER_TOGGLES.map((t) => t.id));

const age = (x: unknown) =>
  typeof x === "number" && Number.isInteger(x) && x >= MIN_AGE && x <= MAX_AGE ? x : undefined;

/** A filter from untrusted input (local storage): unknown names and values dropped, lists de-duplicated. */
export function cleanFilter(raw: unknown): BriefFilter {
  const f = (raw ?? {}) as Record<string, unknown>;
  const list = (x: unknown) =>
    Array.isArray(x) ? [...new Set(x.filter((v): v is string => typeof v === "string"))] : [];
  const out: BriefFilter = {
    chars: list(f.chars),
    likes: list(f.likes).filter((l): l is LikeFilter => LIKE_IDS.has(l)),
  };
  const ageMin = age(f.ageMin), ageMax = age(f.ageMax);
  if (ageMin !== undefined) out.ageMin = ageMin;
  if (ageMax !== undefined) out.ageMax = ageMax;
  if ((FILTER_KMS as readonly unknown[]).includes(f.km)) out.km = f.km as number;
  const toggles = list(f.toggles).filter((t): t is FilterToggle => TOGGLE_IDS.has(t));
  if (toggles.length) out.toggles = toggles;
  return out;
}

/** The query parameters of a filter (`chars=top,bottom&likes=iLikedProfile&age=25-40&km=5&online=1`), empty ones left out. */
export function filterParams(f: BriefFilter): URLSearchParams {
  const p = new URLSearchParams();
  if (f.chars.length) p.set("chars", [...f.chars].sort().join(","));
  if (f.likes.length) p.set("likes", [...f.likes].sort().join(","));
  if (f.ageMin !== undefined || f.ageMax !== undefined) p.set("age", `${f.ageMin ?? ""}-${f.ageMax ?? ""}`);
  if (f.km !== undefined) p.set("km", String(f.km));
  for (const t of [...(f.toggles ?? [])].sort()) p.set(t, "1");
  return p;
}

/** How many filters are on. */
export function filterCount(f: BriefFilter): number {
  return f.chars.length + f.likes.length + Number(f.ageMin !== undefined || f.ageMax !== undefined) +
    Number(f.km !== undefined) + (f.toggles?.length ?? 0);
}

function toggle<T>(list: readonly T[], item: T, on: boolean): T[] {
  return on ? (list.includes(item) ? [...list] : [...list, item]) : list.filter((x) => x !== item);
}

export interface FilterPanelProps {
  value: BriefFilter;
  onChange: (next: BriefFilter) => void;
  /** Open on first render (closed by default, to leave the screen to the profiles). */
  open?: boolean;
  /**
   * Writes a distance choice (metres): `formatDistance` unless the island has the server's texts
   * (DiscoveryFrame, islands/queries/briefs.ts `distanceTexts`).
   */
  distance?: (meters: number) => string;
}

/** A number from an age field: within 18..99, or undefined (empty, or not yet a whole age). */
function ageInput(v: string): number | undefined {
  return age(Number(v)) ?? undefined;
}

/**
 * The filter: one button (with how many are on) that opens a sheet, from the bottom on phones:
 * age range, distance, the toggles (online now, with pictures, and any a feature adds), the like
 * filters and the tags by category. Every change applies at once; 'Show results' closes the sheet.
 */
export function FilterPanel({ value, onChange, open = false, distance = formatDistance }: FilterPanelProps) {
  const count = filterCount(value);
  const toggles = value.toggles ?? [];
  return (
    <details className="filter-panel" open={open}>
      <summary className="filter-button">
        <span className="icon filter-icon" aria-hidden="true" />
        <span className="filter-label">{phrase("Filter")}</span>
        {count > 0 && <span className="filter-count" aria-label={`${count} on`}>{count}</span>}
      </summary>
      <div className="filter-body" role="group" aria-label={FEEL_TEXTS.filters}>
        <fieldset className="filter-group filter-age">
          <legend>{FEEL_TEXTS.age}</legend>
          <label>
            {FEEL_TEXTS.ageFrom}
            <input
              type="number"
              inputMode="numeric"
              min={MIN_AGE}
              max={MAX_AGE}
              value={value.ageMin ?? ""}
              onChange={(e) => onChange({ ...value, ageMin: ageInput(e.currentTarget.value) })}
            />
          </label>
          <label>
            {FEEL_TEXTS.ageTo}
            <input
              type="number"
              inputMode="numeric"
              min={MIN_AGE}
              max={MAX_AGE}
              value={value.ageMax ?? ""}
              onChange={(e) => onChange({ ...value, ageMax: ageInput(e.currentTarget.value) })}
            />
          </label>
        </fieldset>
        <label className="filter-group filter-distance">
          {FEEL_TEXTS.distance}
          <select
            value={value.km ?? ""}
            onChange={(e) =>
              onChange({ ...value, km: e.currentTarget.value ? Number(e.currentTarget.value) : undefined })}
          >
            <option value="">{FEEL_TEXTS.anyDistance}</option>
            {FILTER_KMS.map((km) => (
              <option key={km} value={km}>
                {FEEL_TEXTS.within(distance(km * 1000))}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="filter-group">
          <legend className="visually-hidden">{FEEL_TEXTS.filters}</legend>
          {FILTER_TOGGLES.map((t) => (
            <label key={t.id} className="chip">
              <input
                type="checkbox"
                checked={toggles.includes(t.id)}
                onChange={(e) => onChange({ ...value, toggles: toggle(toggles, t.id, e.currentTarget.checked) })}
              />
              {t.label()}
            </label>
          ))}
        </fieldset>
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
        <div className="row filter-actions">
          <button type="button" onClick={() => onChange(NO_FILTER)} disabled={count === 0}>
            {UI_TEXTS.clearFilter}
          </button>
          <button
            type="button"
            className="primary"
            onClick={(e) => e.currentTarget.closest("details")?.removeAttribute("open")}
          >
            {FEEL_TEXTS.showResults}
          </button>
        </div>
      </div>
    </details>
  );
}
