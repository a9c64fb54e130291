/**
 * Help my Photos: members suggest a crop of nearby members' public pictures; the owner sees the
 * suggestions without their suggester, and a suggestion the owner uses earns its suggester a
 * volunteer credit.
 */

import { kv } from "../db.ts";
import { keys } from "../keys.ts";
import { now } from "../clock.ts";
import { newId } from "../ids.ts";
import { addNotification, notificationOf } from "../notifications.ts";
import { CROP_ASPECT } from "../../domain/pictures.ts";
import { creditOps, creditState, getCredits } from "./credits.ts";
import { nearbyPictures } from "./deck.ts";
import type { CropBox, CropFractions, CropItem, CropSuggestionView } from "../../domain/shapes/pictures.ts";
import type { Credited } from "../../domain/shapes/games.ts";

/** A suggestion keeps at least this share of the picture's width or height. */
export const MIN_CROP_SHARE = 0.25;

/** A crop suggestion as stored: with who made it, which its owner is never told. */
export interface CropSuggestion extends CropSuggestionView {
  suggesterProfileId: string;
}

/**
 * Why a box is refused (null: fine): inside the picture, at least MIN_CROP_SHARE of one side,
 * and at the crop aspect within 2% in pixels of a `width` × `height` picture.
 */
export function cropProblem(b: CropFractions, width: number, height: number): string | null {
  if (b.x < 0 || b.y < 0 || b.x + b.width > 1.0001 || b.y + b.height > 1.0001) {
    return "The box must lie inside the picture.";
  }
  if (Math.max(b.width, b.height) < MIN_CROP_SHARE) return "The box is too small.";
  const aspect = (b.width * width) / (b.height * height);
  if (Math.abs(aspect / CROP_ASPECT - 1) > 0.02) return `The box must be ${CROP_ASPECT * 5}:5 (portrait).`;
  return null;
}

/** The nearest public picture `viewer` has not suggested a crop for (nor skipped on this page). */
export async function nextCropItem(viewer: string, skip: ReadonlySet<string> = new Set()): Promise<CropItem | null> {
  const deck = (await nearbyPictures(viewer, 10 + skip.size, (picId) => keys.cropSuggested(viewer, picId)))
    .filter((c) => !skip.has(c.picId)).slice(0, 10);
  const pics = await kv().getMany<{ width: number; height: number; gen: string }[]>(deck.map((c) => keys.pic(c.picId)));
  for (const [j, c] of deck.entries()) {
    const pic = pics[j].value;
    if (pic) return { ...c, width: pic.width, height: pic.height, gen: pic.gen };
  }
  return null;
}

/**
 * Stores a suggestion once per suggester and picture, with the owner's notification, in one
 * atomic; null if already made. A suggestion earns nothing until its owner uses it
 * (`acceptCropSuggestion`).
 */
export async function suggestCrop(
  suggester: string,
  owner: string,
  pic: { id: string; gen: string; width: number; height: number },
  box: CropFractions,
): Promise<(Credited & { suggestion: CropSuggestion }) | null> {
  const picId = pic.id;
  const s: CropSuggestion = {
    id: newId(),
    picId,
    ownerProfileId: owner,
    suggesterProfileId: suggester,
    gen: pic.gen,
    width: pic.width,
    height: pic.height,
    box,
    tsCreated: now(),
  };
  for (let attempt = 0; attempt < 10; attempt++) {
    const done = await kv().get(keys.cropSuggested(suggester, picId));
    if (done.versionstamp !== null) return null;
    const op = kv().atomic().check(done)
      .set(keys.cropSuggested(suggester, picId), s.id)
      .set(keys.cropSuggestion(owner, s.id), s);
    addNotification(op, owner, notificationOf("cropSuggested", "/games/photocrop"));
    if ((await op.commit()).ok) return { suggestion: s, credited: false, credits: await getCredits(suggester) };
  }
  throw new Error("crop suggestion kept conflicting");
}

/** The suggestions for `owner`'s pictures, newest first (at most 50). */
export async function listCropSuggestions(owner: string): Promise<CropSuggestion[]> {
  const out: CropSuggestion[] = [];
  for await (
    const e of kv().list<CropSuggestion>({ prefix: keys.cropSuggestionsOf(owner) }, { reverse: true, limit: 50 })
  ) out.push(e.value);
  return out;
}

/** One of `owner`'s suggestions, or null. */
export async function getCropSuggestion(owner: string, id: string): Promise<CropSuggestion | null> {
  return (await kv().get<CropSuggestion>(keys.cropSuggestion(owner, id))).value;
}

/** Removes a suggestion (dismissed, or no longer fitting). */
export async function removeCropSuggestion(owner: string, id: string): Promise<void> {
  await kv().delete(keys.cropSuggestion(owner, id));
}

/**
 * After the owner used a suggestion's crop: removes the suggestion and credits its suggester, in
 * one atomic checked against the suggestion, so a suggestion earns once however often "Use" is
 * sent. False when it was already gone (nothing credited).
 */
export async function acceptCropSuggestion(owner: string, id: string): Promise<boolean> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const entry = await kv().get<CropSuggestion>(keys.cropSuggestion(owner, id));
    if (!entry.value) return false;
    const credit = await creditState(entry.value.suggesterProfileId);
    const op = kv().atomic().check(entry).delete(entry.key);
    creditOps(op, credit);
    if ((await op.commit()).ok) return true;
  }
  throw new Error("crop acceptance kept conflicting");
}

/**
 * The crop box in pixels of the turned upload that a suggestion means: the fractions of the
 * current master mapped into the current crop (or the whole upload when uncropped), turned alike.
 */
export function suggestionToBox(
  pic: { crop: CropBox | null; sourceWidth: number; sourceHeight: number },
  box: CropFractions,
): Required<CropBox> {
  const base = pic.crop ?? { x: 0, y: 0, width: pic.sourceWidth, height: pic.sourceHeight, rotate: 0 };
  const rotate = base.rotate ?? 0;
  const turned = rotate % 180 === 0
    ? { w: pic.sourceWidth, h: pic.sourceHeight }
    : { w: pic.sourceHeight, h: pic.sourceWidth };
  const x = Math.max(0, Math.round(base.x + box.x * base.width));
  const y = Math.max(0, Math.round(base.y + box.y * base.height));
  const width = Math.max(1, Math.min(turned.w - x, Math.round(box.width * base.width)));
  const height = Math.max(1, Math.min(turned.h - y, Math.round(box.height * base.height)));
  return { x, y, width, height, rotate };
}
