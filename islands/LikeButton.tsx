/**
 * Like / Remove Like (spec §2 Profile view, §4) on a profile or on one of its pictures. The label
 * follows the shared cache at once; a failed call puts the old state back.
 */

import { Heart, Hourglass } from "../components/icons.ts";
import { QueryProvider } from "./queries/client.tsx";
import {
  type LikeType,
  type ProfileLike,
  toggled,
  usePicLikeMutation,
  usePicLikeQuery,
  useProfileLikeMutation,
  useProfileLikeQuery,
} from "./queries/likes.ts";
import { type Queued, useQueuedWrite } from "./queries/outbox.ts";
import { QueuedFailure } from "./queries/QueuedFailure.tsx";
import { TEXTS } from "../domain/texts.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";

export type LikeButtonProps =
  | { kind: "profile"; like: ProfileLike }
  | {
    kind: "pic";
    likerProfileId: string;
    profilePicProfileId: string;
    profilePicId: string;
    likeType: LikeType;
  };

/** The viewer's picture likes as a picture screen (the carousel) gets them, to show a Like button per picture. */
export interface CarouselLikes {
  likerProfileId: string;
  byPic: Record<string, LikeType>;
}

function Button(
  { likeType, onToggle, failed, queued }: {
    likeType: LikeType;
    onToggle: () => void;
    /** Why the last change was refused (the server's words, e.g. a time-out's end), or null. */
    failed: string | null;
    queued: Queued | undefined;
  },
) {
  const liked = likeType === "LIKE";
  return (
    <span className="like-button">
      <button type="button" className={liked ? "like on" : "like"} aria-pressed={liked} onClick={onToggle}>
        <Heart className="icon" aria-hidden="true" fill={liked ? "currentColor" : "none"} />{" "}
        {liked ? TEXTS.removeLike : TEXTS.like}
      </button>
      {failed !== null && <span className="error" role="alert">{failed || UI_TEXTS.notSavedTryAgain}</span>}
      <QueuedState queued={queued} />
    </span>
  );
}

/** A like waiting on this device for a connection, or refused later, with a retry. */
function QueuedState({ queued }: { queued: Queued | undefined }) {
  if (!queued) return null;
  if (!queued.failed) {
    return (
      <span className="like-queued" role="status" title={UI_TEXTS.writeWaiting}>
        <Hourglass className="icon" aria-hidden="true" />
        <span className="visually-hidden">{UI_TEXTS.writeWaiting}</span>
      </span>
    );
  }
  return <QueuedFailure queued={queued} as="span" className="like-failed" />;
}

/** The like type a queued write sets, while it waits. */
const queuedLikeType = (q: Queued | undefined): LikeType | undefined =>
  q && !q.failed ? q.json?.likeType as LikeType : undefined;

function ProfileLikeButton({ like }: { like: ProfileLike }) {
  const { data } = useProfileLikeQuery(like.likerProfileId, like.likedProfileId, like);
  const save = useProfileLikeMutation();
  const queued = useQueuedWrite("PUT /api/profile-like", {
    likerProfileId: like.likerProfileId,
    likedProfileId: like.likedProfileId,
  });
  const likeType = queuedLikeType(queued) ?? data?.likeType ?? "UNDETERMINED";
  return (
    <Button
      likeType={likeType}
      failed={save.isError ? save.error?.message ?? "" : null}
      queued={queued}
      onToggle={() =>
        save.mutate({
          likerProfileId: like.likerProfileId,
          likedProfileId: like.likedProfileId,
          likeType: toggled(likeType),
        })}
    />
  );
}

function PicLikeButton(props: Extract<LikeButtonProps, { kind: "pic" }>) {
  const { likerProfileId, profilePicProfileId, profilePicId } = props;
  const { data } = usePicLikeQuery(likerProfileId, profilePicProfileId, profilePicId, props.likeType);
  const save = usePicLikeMutation();
  const queued = useQueuedWrite("PUT /api/profile-pic-like", { likerProfileId, profilePicId });
  const likeType = queuedLikeType(queued) ?? data ?? "UNDETERMINED";
  return (
    <Button
      likeType={likeType}
      failed={save.isError ? save.error?.message ?? "" : null}
      queued={queued}
      onToggle={() => save.mutate({ likerProfileId, profilePicProfileId, profilePicId, likeType: toggled(likeType) })}
    />
  );
}

export default function LikeButton(props: LikeButtonProps) {
  return (
    <QueryProvider>
      {props.kind === "profile" ? <ProfileLikeButton like={props.like} /> : <PicLikeButton {...props} />}
    </QueryProvider>
  );
}
