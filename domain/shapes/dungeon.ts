/** What Bad Boy Dungeon stores and answers: a member's stays, their appeal, and the page's view. */

import type { RestrictedAction } from "../dungeon.ts";

/** A member's appeal of a stay: once, decided by an admin, whose word is final. */
export interface Appeal {
  text: string;
  ts: number;
  status: "PENDING" | "UPHELD" | "REJECTED";
  tsDecided?: number;
}

/** One time-out of a member. */
export interface Stay {
  id: string;
  profileId: string;
  reportId: string;
  /** The report's reason (a minor one: domain/dungeon.ts MINOR_REASONS). */
  reason: string;
  /** The reported lines with every other member's name removed. */
  lines: string[];
  /** 1, 2 or 3: the stays that began within 90 days, this one included. */
  step: number;
  /** Who decided: a strong jury, or an admin. */
  decidedBy: "JURY" | "ADMIN";
  tsStart: number;
  /** When it ends (the quiz may bring it forward once). */
  until: number;
  restricts: RestrictedAction[];
  /** When the quiz shortened it, or null. */
  quizAt: number | null;
  appeal: Appeal | null;
  /** Ended before `until`: by an admin, or by an upheld appeal (then it counts for nothing). */
  ended: "ADMIN" | "APPEAL" | null;
  tsEnded: number | null;
}

/** The reform card: a stay as its member sees it (never who reported, never a juror). */
export type ReformCard = Omit<Stay, "profileId" | "reportId" | "appeal" | "decidedBy"> & {
  appeal: Pick<Appeal, "status" | "ts"> | null;
  /** In force now (false: over, or ended early). */
  active: boolean;
};

/** GET /api/games/dungeon: how many serve now, and the caller's own card (null for everyone else). */
export interface DungeonView {
  serving: number;
  card: ReformCard | null;
}

/** A stay as admins list it: in force, or with an appeal waiting. */
export interface DungeonAdminItem {
  stayId: string;
  profileId: string;
  name: string | null;
  reason: string;
  step: number;
  tsStart: number;
  until: number;
  active: boolean;
  appeal: Appeal | null;
}
