/** Pictures as viewers see them, and the crops: the editor's box in pixels, a suggested crop in fractions. */

import type { ApiAnswer } from "../contract.ts";

/** What a viewer needs to show a picture: its id, flag, size and generation (`v` in URLs). */
export type PicInfo = ApiAnswer<"PUT /api/profile-pic/:id">;

/**
 * A crop box in pixels of the picture after `rotate`, and the rotation (degrees clockwise): the
 * editor's Save (`PUT /api/profile-pic/{id}/crop`, where a missing `rotate` reads as 0) and the
 * stored crop a picture's owner reads back.
 */
export type CropBox = NonNullable<ApiAnswer<"GET /api/profile/pic/:id">["crop"]>;

/** A suggested crop as fractions of the picture as it is now (its current generation). */
export type CropFractions = CropSuggestionView["box"];

/** A crop suggestion for a picture, as its owner sees it: never who made it. */
export type CropSuggestionView = ApiAnswer<"GET /api/games/photocrop/suggestions">["items"][number];

/** A picture to suggest a crop for. */
export type CropItem = NonNullable<ApiAnswer<"GET /api/games/photocrop/next">["item"]>;
