/**
 * What a discovery answer is written from, as numbers (decision 0192): each member's brief fields
 * as one version number, and each answer's signature, so that the answer's compressed bytes can be
 * kept for a viewer's view and sent again while its signature stays the same (routes/keptAnswers.ts):
 * the map refetches its view every 15 s, and a view in which nobody changed is the same text.
 *
 * A signature describes the answer's JSON exactly: two answers of one route and address with equal
 * signatures are the same text. It holds, in order, every member's version and every figure of the
 * answer that is not from their profile (shown point, distance, time of the point, age, new mark).
 */

import { KEPT } from "./kept.ts";
import { setNewest } from "../domain/newest.ts";
import type { Profile } from "../domain/shapes/profiles.ts";

/**
 * The profile fields a brief or a map row is made from (kv/briefs.ts `briefOf`, `mapView`; the
 * Verified badge reads the pictures and the verified ones): a change of any other field (a
 * description, a setting) leaves a member's version as it was.
 */
function briefBasis(p: Profile): string {
  return JSON.stringify([
    p.id,
    p.profilename,
    p.birthdate,
    p.characteristics,
    p.weight,
    p.height,
    p.profilePicIds,
    p.verifiedPicIds ?? null,
    p.tsCreated ?? null,
  ]);
}

/**
 * Each member's version, by profile id, with the basis it was given for: a record read again
 * unchanged (its basis compared once) keeps its version, so views made from it stay the same.
 */
const versions = new Map<string, { basis: string; version: number }>();
/**
 * What a page's signature reads of a record (`recordFacts`): its version, and when the member made
 * their profile (`-Infinity`: not known), which with the time judged at tells the new mark.
 */
export interface RecordFacts {
  readonly version: number;
  readonly created: number;
}

/**
 * The facts of each record object they were asked for: a kept record is one object until it
 * expires or is forgotten (kv/kept.ts), a few seconds, and a page asks the version of each of its
 * hundreds of members. Looked up by the object, no id string is hashed or compared (measured
 * several times cheaper than by id, decision 0198); a record read anew is a new object, looked up
 * by id once. The facts are objects of one shape: a page's signature reads them, not the records
 * (read from the store with their own sets of fields, slower to read a field of, decision 0205).
 */
const byRecord = new WeakMap<Profile, RecordFacts>();
let lastVersion = 0;

/** `p`'s version and the time they made their profile (`RecordFacts`). */
export function recordFacts(p: Profile): RecordFacts {
  const known = byRecord.get(p);
  if (known !== undefined) return known;
  const e = versions.get(p.id);
  const basis = briefBasis(p);
  let version: number;
  if (e !== undefined && e.basis === basis) version = e.version;
  else {
    version = ++lastVersion;
    setNewest(versions, p.id, { basis, version }, KEPT.profile.max);
  }
  const facts: RecordFacts = { version, created: p.tsCreated ?? -Infinity };
  byRecord.set(p, facts);
  return facts;
}

/** `p`'s version: the same number while the fields a brief or a map row shows of them stay the same. */
export function briefVersion(p: Profile): number {
  return recordFacts(p).version;
}

/**
 * An answer not made yet, with the signature it will have (undefined: it is not signed): a route
 * sends the bytes kept for that signature, and makes the answer only when none are (decision 0205).
 * Made at once when made, a plain object: `JSON.stringify` keeps its fast path (decision 0198).
 */
export class Unmade<T> {
  constructor(readonly signature: Float64Array | undefined, readonly make: () => T) {}

  /** The answer `f` makes of this one's, one for one (the same page as rows): signed the same. */
  as<U>(f: (made: T) => U): Unmade<U> {
    return new Unmade(this.signature, () => f(this.make()));
  }

  /** The answer made now, signed (`answerSignature` gives its signature). */
  made(): T {
    const answer = this.make();
    if (this.signature !== undefined) signatures.set(answer as object, this.signature);
    return answer;
  }
}

/** The signature of each answer signed by kv/briefs.ts, by answer. */
const signatures = new WeakMap<object, Float64Array>();

/** Signs `answer` with `signature` (see the top of this file); returns `answer`. */
export function signAnswer<T extends object>(answer: T, signature: Float64Array): T {
  signatures.set(answer, signature);
  return answer;
}

/** `answer`'s signature, if kv/briefs.ts signed it when it made it. */
export function answerSignature(answer: unknown): Float64Array | undefined {
  return typeof answer === "object" && answer !== null ? signatures.get(answer) : undefined;
}

/** An answer made from a signed one, one for one (the same page as rows): signed as it is. */
export function signedAs<T extends object>(answer: T, from: object): T {
  const s = signatures.get(from);
  if (s !== undefined) signatures.set(answer, s);
  return answer;
}

/** Whether two signatures are the same. */
export function sameSignature(a: Float64Array, b: Float64Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
