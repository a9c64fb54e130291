/**
 * Height and weight as a reader sees them: members type them freely ("6'1\"", "185 cm", "116 lb",
 * "80 kg"), and a profile shows both in one system, the reader's (feet and inches, pounds in
 * English; centimetres and kilograms in every other language, as distances: domain/format.ts).
 * A value that reads as no known length or weight is shown as it was typed.
 */

import { intlLocale, numberFormat } from "./i18n.ts";
import { unitsOf } from "./format.ts";

/** Centimetres in one inch. */
const CM_PER_INCH = 2.54;
/** Kilograms in one pound. */
const KG_PER_POUND = 0.45359237;
/** Heights and weights a person has; outside these a typed value is shown as typed. */
const HEIGHT_CM = { min: 50, max: 275 };
const WEIGHT_KG = { min: 20, max: 400 };

function number(text: string): number {
  return Number(text.replace(",", "."));
}

/** A typed height in centimetres ("181 cm", "1,81 m", "6'1\"", "6 ft 1 in", "73 in"), or null. */
export function parseHeight(text: string | undefined | null): number | null {
  const t = (text ?? "").trim().toLowerCase();
  let cm: number | null = null;
  let m: RegExpMatchArray | null;
  if ((m = t.match(/^(\d{2,3}(?:[.,]\d+)?)\s*(?:cm|centimet(?:er|re)s?)$/))) cm = number(m[1]);
  else if ((m = t.match(/^(\d(?:[.,]\d{1,2})?)\s*(?:m|met(?:er|re)s?)$/))) cm = number(m[1]) * 100;
  else if (
    (m = t.match(
      /^(\d)\s*(?:'|′|’|ft|feet|foot)\s*(?:(\d{1,2}(?:[.,]\d)?)\s*(?:"|″|”|''|in|inch|inches)?)?$/,
    ))
  ) cm = (Number(m[1]) * 12 + (m[2] ? number(m[2]) : 0)) * CM_PER_INCH;
  else if ((m = t.match(/^(\d{2}(?:[.,]\d)?)\s*(?:"|″|in|inch|inches)$/))) cm = number(m[1]) * CM_PER_INCH;
  return cm !== null && cm >= HEIGHT_CM.min && cm <= HEIGHT_CM.max ? cm : null;
}

/** A typed weight in kilograms ("80 kg", "116 lb", "255 lbs", "80 kilos"), or null. */
export function parseWeight(text: string | undefined | null): number | null {
  const t = (text ?? "").trim().toLowerCase();
  let kg: number | null = null;
  let m: RegExpMatchArray | null;
  if ((m = t.match(/^(\d{2,3}(?:[.,]\d+)?)\s*(?:kg|kgs|kilos?|kilograms?|kilogrammes?)$/))) kg = number(m[1]);
  else if ((m = t.match(/^(\d{2,3}(?:[.,]\d+)?)\s*(?:lb|lbs|pounds?)$/))) kg = number(m[1]) * KG_PER_POUND;
  return kg !== null && kg >= WEIGHT_KG.min && kg <= WEIGHT_KG.max ? kg : null;
}

function unit(value: number, unit: "centimeter" | "kilogram" | "pound"): string {
  return numberFormat(intlLocale(), { style: "unit", unit, unitDisplay: "short", maximumFractionDigits: 0 })
    .format(Math.round(value));
}

/** A typed height in the reader's system ("6'1\"" or "185 cm"); as typed when it reads as no height. */
export function heightText(text: string, units = unitsOf()): string {
  const cm = parseHeight(text);
  if (cm === null) return text;
  if (units === "metric") return unit(cm, "centimeter");
  const inches = Math.round(cm / CM_PER_INCH);
  return `${Math.floor(inches / 12)}'${inches % 12}"`;
}

/** A typed weight in the reader's system ("255 lb" or "116 kg"); as typed when it reads as no weight. */
export function weightText(text: string, units = unitsOf()): string {
  const kg = parseWeight(text);
  if (kg === null) return text;
  return units === "metric" ? unit(kg, "kilogram") : unit(kg / KG_PER_POUND, "pound");
}
