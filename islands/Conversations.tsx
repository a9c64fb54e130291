/**
 * 'Your Conversations' (spec §2 Personal chat): the latest message per partner, newest first; a
 * conversation can be deleted from the list (it comes back when either side writes again).
 */

import { QueryProvider } from "./queries/client.tsx";
import { type MessagePage, useConversationsQuery, useDeleteConversationMutation } from "./queries/messages.ts";
import { BriefPicture } from "../components/BriefPicture.tsx";
import { Time } from "../components/Time.tsx";
import { shortName } from "../domain/format.ts";
import { TEXTS } from "../domain/texts.ts";
import { MODERATION_TEXTS } from "../domain/moderation.ts";

interface Props {
  profileId: string;
  /** The first page, rendered by the server. */
  initial: MessagePage;
}

function List({ profileId, initial }: Props) {
  const { data, isPending, isFetching } = useConversationsQuery(profileId, initial);
  const remove = useDeleteConversationMutation();
  if (isPending) return <p className="loading" role="status">Loading...</p>;
  if (!data || data.items.length === 0) return <p className="empty">{TEXTS.noConversations}</p>;
  return (
    <>
      {isFetching && <p className="loading small" role="status">Loading...</p>}
      <ul className="list conversations">
        {data.items.map((m) => {
          const mine = m.senderProfileId === profileId;
          const other = mine ? m.recipientProfileId! : m.senderProfileId;
          const who = data.people[other];
          const name = who?.profileName ?? "Member";
          return (
            <li key={other}>
              <a className="conversation-item" href={`/profile/${other}#chat`}>
                <span className="avatar">
                  <BriefPicture picId={who?.picId ?? undefined} name={name} scale={256} nsfw={false} />
                </span>
                <span className="conversation-text">
                  <strong>{shortName(name)}</strong>
                  <span className="snippet">
                    {mine && <span className="checks">{m.tsRecipientRead ? "✓✓" : "✓"}</span>}
                    {m.held && !mine
                      ? MODERATION_TEXTS.spamHeld
                      : m.bodyText || (m.profilePicIds.length ? "📷 Picture" : "")}
                  </span>
                </span>
                <small className="when">
                  <Time ts={m.tsCreated} />
                </small>
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
