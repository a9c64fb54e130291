/**
 * The fields of a brief (spec §3 ProfileBrief, as domain/contract.ts writes it) in the order of a
 * row of the compact by-bounds answer (`form=rows`): zod-free, so the islands may read it.
 */
export const BRIEF_FIELDS = [
  "profileId",
  "profileName",
  "profileAge",
  "profileChars",
  "profileWeight",
  "profileHeight",
  "profilePicIds",
  "lat",
  "lon",
  "distanceMeters",
  "tsUpdated",
  "isNew",
  "verified",
] as const;
