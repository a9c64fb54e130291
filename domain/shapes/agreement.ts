/**
 * The shapes of this folder agree with the API contract (domain/contract.ts), checked by the type
 * checker (`deno check domain/`): a field added, removed or changed on one side and not the other
 * fails the check. Types only; nothing imports this module.
 *
 * Two answers differ on purpose or by history, and are checked as they stand: a picture like's
 * `other` is always present in the store though the contract allows it to be absent, and a
 * notification's `url` is optional in the store though the contract requires it (checked one way:
 * the contract's answer reads as a `Notification`).
 */

import type { ApiAnswer } from "../contract.ts";
import type { BriefsPage } from "./briefs.ts";
import type { CropItem, CropSuggestionView, PicInfo } from "./pictures.ts";
import type { Profile, ProfileView } from "./profiles.ts";
import type { Message, MessagePage } from "./messages.ts";
import type { PicLikeItem, ProfileLike, ProfileLikeItem, ProfilePicLike } from "./likes.ts";
import type { ProfileNote } from "./notes.ts";
import type { Notification } from "./notifications.ts";
import type { PositionAggregate } from "./positions.ts";
import type { AuditEntry, MemberFile, MemberHit, ModAction, ModNote, QueueItem, ReportCase } from "./moderation.ts";
import type { Page } from "./paging.ts";
import type { ArbItem, Credited, GptItem, GptTally, RatingCard, VolunteerStatus } from "./games.ts";
import type { ArbCase } from "./moderation.ts";
import type { IdAdminItem, IdentifyStatus, JudgeDeal } from "./identify.ts";
import type { HotKeepBestView, HotPair, HotTestView } from "./hotOrNot.ts";

/** True when each of A and B is assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** True when A is assignable to B. */
type Reads<A, B> = [A] extends [B] ? true : false;
type Holds<T extends true> = T;

export type ShapesAgreeWithContract = [
  Holds<Same<ApiAnswer<"GET /api/profile-briefs/nearest">, BriefsPage>>,
  Holds<Same<ApiAnswer<"PUT /api/profile-pic/:id">, PicInfo>>,
  Holds<Same<ApiAnswer<"GET /api/profile/:id">, ProfileView>>,
  Holds<Same<ApiAnswer<"GET /api/admin/members/:profileId">["profile"], Profile>>,
  Holds<Same<ApiAnswer<"POST /api/message">, Message>>,
  Holds<Same<ApiAnswer<"GET /api/messages/between/:a/:b">, MessagePage>>,
  Holds<Same<ApiAnswer<"PUT /api/profile-like">, ProfileLike>>,
  Holds<Same<ApiAnswer<"PUT /api/profile-pic-like">, ProfilePicLike>>,
  Holds<Same<ApiAnswer<"GET /api/profile-likes/by-liker/:profileId">, Page<ProfileLikeItem>>>,
  Holds<
    Same<
      ApiAnswer<"GET /api/profile-pic-likes/by-liker-profileid/:profileId">,
      Page<Omit<PicLikeItem, "other"> & { other?: PicLikeItem["other"] }>
    >
  >,
  Holds<Same<ApiAnswer<"PUT /api/profile-note">, ProfileNote>>,
  Holds<Same<ApiAnswer<"GET /api/profile-notes">, Page<ProfileNote>>>,
  Holds<Reads<ApiAnswer<"GET /api/notifications/:profileId">, Notification[]>>,
  Holds<Same<ApiAnswer<"GET /api/profile-positions/aggregates">, PositionAggregate[]>>,
  Holds<Same<ApiAnswer<"POST /api/admin/members/:profileId/actions">, ModAction>>,
  Holds<Same<ApiAnswer<"POST /api/admin/members/:profileId/notes">, ModNote>>,
  Holds<Same<ApiAnswer<"GET /api/admin/audit">["items"][number], AuditEntry>>,
  Holds<Same<ApiAnswer<"GET /api/admin/moderation/queue">["items"][number], QueueItem>>,
  Holds<Same<ApiAnswer<"GET /api/admin/members">["items"][number], MemberHit>>,
  Holds<Same<ApiAnswer<"GET /api/admin/members/:profileId">, MemberFile>>,
  Holds<Same<ApiAnswer<"GET /api/admin/reports">["items"][number], ReportCase>>,
  Holds<Same<NonNullable<ApiAnswer<"GET /api/games/photocrop/next">["item"]>, CropItem>>,
  Holds<Same<ApiAnswer<"GET /api/games/photocrop/suggestions">["items"][number], CropSuggestionView>>,
  Holds<Same<ApiAnswer<"GET /api/games/volunteer">, VolunteerStatus>>,
  Holds<Same<ApiAnswer<"GET /api/games/gptbuster/next">, { item: GptItem | null; credits: number }>>,
  Holds<Same<ApiAnswer<"PUT /api/games/gptbuster/:profileId">, { tally: GptTally } & Credited>>,
  Holds<Same<ApiAnswer<"GET /api/games/ratinggame/deck">, { items: RatingCard[]; credits: number }>>,
  Holds<Same<ApiAnswer<"GET /api/games/arbitration/next">, { item: ArbItem | null; credits: number }>>,
  Holds<Same<ApiAnswer<"PUT /api/games/arbitration/:reportId">, { case: ArbCase } & Credited>>,
  Holds<Same<ApiAnswer<"GET /api/games/identify">, { status: IdentifyStatus; credits: number }>>,
  Holds<Same<ApiAnswer<"GET /api/games/identify/next">, JudgeDeal & { credits: number }>>,
  Holds<Same<ApiAnswer<"GET /api/admin/games/identify">, { items: IdAdminItem[] }>>,
  Holds<Same<ApiAnswer<"GET /api/games/hotornot/next">, { item: HotPair | null; credits: number }>>,
  Holds<Same<ApiAnswer<"GET /api/games/hotornot/tests/:testId">, { test: HotTestView }>>,
  Holds<Same<ApiAnswer<"PUT /api/games/hotornot/keep-best">, { keepBest: HotKeepBestView }>>,
];
