/**
 * The facts of a nearby member on a card (profile list, swipe): age, height, weight, distance,
 * and the characteristics ('i'm so boring' when there are none, spec §3).
 */

import { characteristicLabel, NO_CHARACTERISTICS } from "../domain/characteristics.ts";
import { distanceText } from "../domain/format.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import type { ProfileBrief } from "../domain/shapes/briefs.ts";
import { phrase } from "../domain/phrases.ts";
import { TEXTS } from "../domain/texts.ts";
import { num } from "../domain/i18n.ts";
import { heightText, weightText } from "../domain/measures.ts";

/** The facts of a brief; empty fields are left out. */
export function BriefFacts({ brief }: { brief: ProfileBrief }) {
  const facts: { label: string; value: string }[] = [];
  if (brief.profileAge !== null) facts.push({ label: phrase("Age"), value: num(brief.profileAge) });
  if (brief.profileHeight) facts.push({ label: TEXTS.height, value: heightText(brief.profileHeight) });
  if (brief.profileWeight) facts.push({ label: TEXTS.weight, value: weightText(brief.profileWeight) });
  facts.push({ label: phrase("Distance"), value: distanceText(brief.distanceMeters) });
  return (
    <div className="brief-facts">
      <dl className="brief-fact-list">
        {facts.map((f) => (
          <div key={f.label} className="brief-fact">
            <dt>{f.label}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
      {brief.profileChars.length === 0
        ? <p className="brief-chars-none">{phrase(NO_CHARACTERISTICS)}</p>
        : (
          <ul className="brief-chars" aria-label={UI_TEXTS.characteristics}>
            {brief.profileChars.map((c) => <li key={c}>{characteristicLabel(c)}</li>)}
          </ul>
        )}
    </div>
  );
}
