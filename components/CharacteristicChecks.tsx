/** The characteristics as chips to tick, one group per category (onboarding and the profile editor). */

import { CHARACTERISTIC_CATEGORIES } from "../domain/characteristics.ts";

export function CharacteristicChecks(
  { chosen, onToggle }: { chosen: readonly string[]; onToggle: (value: string, on: boolean) => void },
) {
  return (
    <div className="char-groups">
      {CHARACTERISTIC_CATEGORIES.map((cat) => (
        <fieldset key={cat.name}>
          <legend>{cat.name}</legend>
          {cat.items.map((item) => (
            <label key={item.value} className="check chip-check">
              <input
                type="checkbox"
                checked={chosen.includes(item.value)}
                onChange={(e) => onToggle(item.value, e.target.checked)}
              />
              {item.label}
            </label>
          ))}
        </fieldset>
      ))}
    </div>
  );
}
