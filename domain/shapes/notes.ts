/** A member's private notes about other profiles. */

/** A member's private note and tags about another profile. */
export interface ProfileNote {
  authorProfileId: string;
  aboutProfileId: string;
  bodyText: string;
  privateTags: string[];
  /** 0 when nothing is stored. */
  tsUpdated: number;
}
