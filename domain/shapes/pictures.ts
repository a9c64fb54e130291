/** Pictures as viewers see them, and the crops: the editor's box in pixels, a suggested crop in fractions. */

/** What a viewer needs to show a picture: its id, flag, size and generation (`v` in URLs). */
export interface PicInfo {
  id: string;
  nsfw: boolean;
  width: number;
  height: number;
  v: string;
  /** Present while the first served size is being made (it is served meanwhile, scaled on the fly). */
  processing?: true;
}

/**
 * A crop box in pixels of the picture after `rotate`, and the rotation (degrees clockwise): the
 * editor's Save (`PUT /api/profile-pic/{id}/crop`, where a missing `rotate` reads as 0) and the
 * stored crop a picture's owner reads back.
 */
export interface CropBox {
  x: number;
  y: number;
  width: number;
  height: number;
  rotate: number;
}

/** A suggested crop as fractions of the picture as it is now (its current generation). */
export interface CropFractions {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A crop suggestion for a picture, as its owner sees it: never who made it. */
export interface CropSuggestionView {
  id: string;
  picId: string;
  ownerProfileId: string;
  /** The generation the suggestion was made on: a newer crop makes it stale. */
  gen: string;
  /** The picture's pixel size in that generation. */
  width: number;
  height: number;
  box: CropFractions;
  tsCreated: number;
}

/** A picture to suggest a crop for. */
export interface CropItem {
  picId: string;
  profileId: string;
  profileName: string;
  width: number;
  height: number;
  gen: string;
}
