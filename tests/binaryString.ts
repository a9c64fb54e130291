/**
 * `fc.string({ unit: "binary", ... })` as fast-check makes it, value for value, without the four seconds of CPU
 * its first use in a process costs.
 *
 * fast-check's "binary" unit is `mapToConstant` over every code point but the surrogates. When a string
 * arbitrary is made, fast-check asks the unit, through `canShrinkWithoutContext`, whether each of its
 * "dangerous strings" (`__proto__`, `constructor`, …) is made of units it can produce. Those strings become
 * slices that biased runs put into generated strings. That question builds a map from each of the unit's
 * 1,112,064 values back to its index, once a process, in about four seconds. The unit here is the same
 * `mapToConstant` (the same entries, so the same values from the same random draws). It answers that question
 * from the code point itself. So the slices, and every generated string, are the same.
 */

import fc from "fast-check";

/** The entries of fast-check's binary unit: every code point below the surrogates, then every one above. */
const BELOW_SURROGATES = { num: 0xd800, build: (i: number) => String.fromCodePoint(i) };
const ABOVE_SURROGATES = { num: 0x110000 - 0xe000, build: (i: number) => String.fromCodePoint(0xe000 + i) };

/** One code point, not a surrogate: exactly what the binary unit produces. */
function isBinaryUnit(value: unknown): value is string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2) return false;
  const cp = value.codePointAt(0)!;
  return String.fromCodePoint(cp) === value && (cp < 0xd800 || cp >= 0xe000);
}

/** The binary unit: fast-check's own `mapToConstant` for generating and shrinking, this file's check for the rest. */
class BinaryUnit extends fc.Arbitrary<string> {
  readonly #inner = fc.mapToConstant(BELOW_SURROGATES, ABOVE_SURROGATES);
  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<string> {
    return this.#inner.generate(mrng, biasFactor);
  }
  canShrinkWithoutContext(value: unknown): value is string {
    return isBinaryUnit(value);
  }
  shrink(value: string, context: unknown): fc.Stream<fc.Value<string>> {
    return this.#inner.shrink(value, context);
  }
}

const unit = new BinaryUnit();

/** `fc.string({ unit: "binary", ...constraints })`: the same strings, made cheaply. */
export function binaryString(constraints: Omit<fc.StringConstraints, "unit"> = {}): fc.Arbitrary<string> {
  return fc.string({ ...constraints, unit });
}
