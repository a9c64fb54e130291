/**
 * 'Your Conversations' (spec §2 Personal chat): the latest message per partner, newest first, as
 * messengers show it: the avatar, the name and when ("2 min", "Yesterday"), two lines of the
 * message; a conversation with unread messages in bold with their count. A conversation can be
 * deleted from the list (it comes back when either side writes again). A lock beside the name
 * says a secret chat is there too (that it exists; nothing of what it holds).
 */

import { Camera, LockKeyhole } from "../components/icons.ts";
import { QueryProvider } from "./queries/client.tsx";
import { type MessagePage, useConversationsQuery, useDeleteConversationMutation } from "./queries/messages.ts";
import { BriefPicture } from "../components/BriefPicture.tsx";
import { ChatTime } from "../components/Time.tsx";
import { useUnreadByPartner } from "./queries/notifications.ts";
import { SCREEN_TEXTS } from "../domain/screenTexts.ts";
import { profileUrl, shortName } from "../domain/format.ts";
import { TEXTS } from "../domain/texts.ts";
import { FEEL_TEXTS } from "../domain/feelTexts.ts";
import { MODERATION_TEXTS } from "../domain/moderation.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";

interface Props {
  profileId: string;
  /** The first page, rendered by the server. */
  initial: MessagePage;
}

function List({ profileId, initial }: Props) {
  const { data, isPending, isFetching, isError, refetch } = useConversationsQuery(profileId, initial);
  const remove = useDeleteConversationMutation();
  const counts = useUnreadByPartner(profileId);
  const secret = new Set(data?.secretWith);
  if (isPending) return <p className="loading" role="status">{UI_TEXTS.loading}</p>;
  if (isError && !data) {
    return (
      <div className="stack" role="alert">
        <p className="error">{UI_TEXTS.listNotLoaded}</p>
        <button type="button" onClick={() => refetch()} disabled={isFetching}>{FEEL_TEXTS.retry}</button>
      </div>
    );
  }
  if (!data || data.items.length === 0) {
    // What to do next, with its button.
    return (
      <div className="empty-state">
        <p className="empty">{TEXTS.noConversations}</p>
        <a className="button primary" href="/search/tile">{FEEL_TEXTS.findPeople}</a>
      </div>
    );
  }
  return (
    <>
      {isFetching && <p className="loading small" role="status">{UI_TEXTS.loading}</p>}
      <ul className="list conversations">
        {data.items.map((m) => {
          const mine = m.senderProfileId === profileId;
          const other = mine ? m.recipientProfileId! : m.senderProfileId;
          const who = data.people[other];
          const name = who?.profileName ?? "Member";
          // Unread: their latest message not read yet, or messages the notifications still count.
          const count = counts[other] ?? 0;
          const unread = count > 0 || (!mine && !m.tsRecipientRead);
          return (
            <li key={other} className={unread ? "unread" : undefined}>
              <a className="conversation-item" href={profileUrl(other, "chat")}>
                <span className="avatar">
                  <BriefPicture picId={who?.picId ?? undefined} name={name} scale={256} nsfw={false} />
                </span>
                <span className="conversation-text">
                  <span className="conversation-top">
                    <strong className="conversation-name">
                      {shortName(name)}
                      {secret.has(other) && (
                        <LockKeyhole
                          className="icon secret-marker"
                          role="img"
                          aria-label={SCREEN_TEXTS.secretChatMarker}
                        >
                          <title>{SCREEN_TEXTS.secretChatMarker}</title>
                        </LockKeyhole>
                      )}
                    </strong>
                    <small className="when">
                      <ChatTime ts={m.tsCreated} />
                    </small>
                  </span>
                  <span className="conversation-bottom">
                    <span className="snippet">
                      {mine && <span className="checks">{m.tsRecipientRead ? "✓✓" : "✓"}</span>}
                      {mine && <span className="snippet-you">{SCREEN_TEXTS.you}</span>}
                      {m.held && !mine ? MODERATION_TEXTS.spamHeld : m.bodyText ||
                        (m.profilePicIds.length > 0 && (
                          <>
                            <Camera className="icon" aria-hidden="true" /> {SCREEN_TEXTS.picture}
                          </>
                        ))}
                    </span>
                    {unread && (
                      <span className="unread-count" role="img" aria-label={SCREEN_TEXTS.unread(count || 1)}>
                        {count > 0 ? (count > 99 ? "99+" : count) : ""}
                      </span>
                    )}
                  </span>
                </span>
              </a>
              <button
                type="button"
                className="conversation-delete"
                aria-label={`${TEXTS.deleteConversation} with ${name}`}
                disabled={remove.isPending}
                onClick={() => confirm(TEXTS.deleteConversationConfirm) && remove.mutate(other)}
              >
                ×
              </button>
            </li>
          );
        })}
      </ul>
    </>
  );
}

export default function Conversations(props: Props) {
  return (
    <QueryProvider>
      <List {...props} />
    </QueryProvider>
  );
}
