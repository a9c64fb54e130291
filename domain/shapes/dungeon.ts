/**
 * What Bad Boy Dungeon stores and answers: a member's stays, their appeal, and the page's view.
 * Every one is an answer of the contract (domain/contractDungeon.ts), so its type is inferred from
 * there; a stay is stored as admins are answered it.
 */

import type { ApiAnswer } from "../contract.ts";

/** One time-out of a member, as stored and as admins see it. */
export type Stay = ApiAnswer<"PUT /api/admin/dungeon/appeals/:stayId">;

/** A member's appeal of a stay: once, decided by an admin, whose word is final. */
export type Appeal = NonNullable<Stay["appeal"]>;

/** GET /api/games/dungeon: how many serve now, and the caller's own card (null for everyone else). */
export type DungeonView = ApiAnswer<"GET /api/games/dungeon">;

/** The reform card: a stay as its member sees it (never who reported, never a juror). */
export type ReformCard = NonNullable<DungeonView["card"]>;

/** A stay as admins list it: in force, or with an appeal waiting. */
export type DungeonAdminItem = ApiAnswer<"GET /api/admin/dungeon">["items"][number];
