/**
 * The request shapes of domain/shapes/ (what the islands send) are what the routes' zod schemas
 * take: the type checker proves every value of a shape is a valid input type of its schema, and
 * each test parses one such value with the schema, so a route that tightens its body, renames a
 * field or drops one fails here, not on a member's screen.
 */

import assert from "node:assert/strict";
import type * as z from "zod";
import type { PicLikeChange, ProfileLikeChange } from "../domain/shapes/likes.ts";
import type { NewMessage } from "../domain/shapes/messages.ts";
import type { ReportInput } from "../domain/shapes/reports.ts";
import type { CropBox, CropFractions } from "../domain/shapes/pictures.ts";
import type { ProfileChange } from "../domain/shapes/profiles.ts";
import type { ProfileNote } from "../domain/shapes/notes.ts";
import type { ArbDecision, ArbVerdict, GptVerdict } from "../domain/shapes/games.ts";
import { picLikeBody, profileLikeBody } from "../routes/api/likes.ts";
import { messageBody } from "../routes/api/messages.ts";
import { reportBody } from "../routes/api/reports.ts";
import { cropBody } from "../routes/api/pictures.ts";
import { arbBody, cropBody as suggestionBody, decisionBody, gptBody } from "../routes/api/games.ts";
import { profileBody } from "../routes/api/profiles.ts";
import { noteBody } from "../routes/api/notes.ts";
import { newId } from "../kv/ids.ts";

/** `T` is a valid input of `S` (checked by the type checker where it is used). */
type Takes<S extends z.ZodType, T> = [T] extends [z.input<S>] ? true : false;
type Holds<T extends true> = T;

export type RequestsAgree = [
  Holds<Takes<typeof profileLikeBody, ProfileLikeChange>>,
  Holds<Takes<typeof picLikeBody, PicLikeChange>>,
  Holds<Takes<typeof messageBody, NewMessage>>,
  Holds<Takes<typeof reportBody, ReportInput>>,
  Holds<Takes<typeof cropBody, CropBox>>,
  Holds<Takes<typeof suggestionBody, CropFractions & { gen: string }>>,
  Holds<Takes<typeof profileBody, ProfileChange & { id?: string }>>,
  Holds<Takes<typeof noteBody, Pick<ProfileNote, "authorProfileId" | "aboutProfileId" | "bodyText" | "privateTags">>>,
  Holds<Takes<typeof gptBody, { verdict: GptVerdict }>>,
  Holds<Takes<typeof arbBody, { verdict: ArbVerdict }>>,
  Holds<Takes<typeof decisionBody, { decision: ArbDecision }>>,
];

const a = newId();
const b = newId();

Deno.test("requests - a like, a picture like, a message and a report as the islands send them are accepted", () => {
  const like: ProfileLikeChange = { likerProfileId: a, likedProfileId: b, likeType: "LIKE", blocked: true };
  assert.deepEqual(profileLikeBody.parse(like), like);
  const picLike: PicLikeChange = { likerProfileId: a, profilePicId: b, profilePicProfileId: b, likeType: "DISLIKE" };
  assert.deepEqual(picLikeBody.parse(picLike), picLike);
  const message: NewMessage = { senderProfileId: a, recipientProfileId: b, bodyText: "Hi", profilePicIds: [] };
  assert.deepEqual(messageBody.parse(message), message);
  const report: ReportInput = { reportedProfileId: b, reason: "spam", text: "Sells things" };
  assert.deepEqual(reportBody.parse(report), report);
});

Deno.test("requests - the crop, a suggested crop and a profile change as the islands send them are accepted", () => {
  const box: CropBox = { x: 0, y: 10, width: 80, height: 100, rotate: 90 };
  assert.deepEqual(cropBody.parse(box), box);
  const suggestion = { gen: "g1", x: 0.1, y: 0.1, width: 0.5, height: 0.5 } satisfies CropFractions & { gen: string };
  assert.deepEqual(suggestionBody.parse(suggestion), suggestion);
  const change: ProfileChange = { profilename: "Sam", characteristics: ["bear"] };
  assert.deepEqual(profileBody.parse(change), change);
});

Deno.test("requests - an unknown swipe's ERROR is no like type: the API takes only LIKE, DISLIKE and UNDETERMINED", () => {
  const up = { likerProfileId: a, likedProfileId: b, likeType: "ERROR" };
  assert.equal(profileLikeBody.safeParse(up).success, false);
});
