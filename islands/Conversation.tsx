/**
 * The chat area of a profile (spec §2: the conversation view is on the profile screen): the
 * messages with that member, oldest at the top, older ones on demand, live, read when shown. A
 * tapped message can be deleted for me, or unsent (mine, within 10 minutes). Opened as
 * /profile/{id}#chat it is a full-height screen (static/css/chat.css, `.chat:target`): a header
 * with their avatar, name, presence and a way back to the profile, the messages, the composer.
 */

import { type ComponentType, Fragment, useEffect, useRef, useState } from "react";
import { DayDivider, RunTime, timelineOf } from "../components/ChatTimeline.tsx";
import { ChevronLeft, LockKeyhole, UserRound } from "../components/icons.ts";
import { QueryProvider } from "./queries/client.tsx";
import {
  fetchOlder,
  markRead,
  type MessagePage,
  openViewOnce,
  useConversationQuery,
  useDeleteMessageMutation,
  useLookingAt,
  useSendMessageMutation,
  useTellTyping,
  useTyping,
} from "./queries/messages.ts";
import { usePresence } from "./queries/presence.ts";
import { dropQueued, type QueuedMessage, retryQueued, useQueued } from "./queries/outbox.ts";
import { Composer, type ComposerPic } from "../components/Composer.tsx";
import { MessageBubble } from "../components/MessageBubble.tsx";
import { SeenAgo } from "../components/Time.tsx";
import { BriefPicture } from "../components/BriefPicture.tsx";
import { OnlineDot } from "../components/OnlineDot.tsx";
import { VerifiedBadge } from "../components/VerifiedBadge.tsx";
import { SCREEN_TEXTS } from "../domain/screenTexts.ts";
import { TEXTS } from "../domain/texts.ts";
import { profilePicUrl } from "../domain/format.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import type { Message } from "../domain/shapes/messages.ts";
import { phrase } from "../domain/phrases.ts";
import { SECRET_TEXTS } from "../domain/secretChats.ts";
import type { SecretChatProps } from "./secret/SecretChat.tsx";

export interface ConversationProps {
  me: string;
  other: string;
  otherName: string;
  /** Their first public picture, for the header's avatar. */
  otherPicId?: string;
  /** They show the Verified badge (3 2 1 Identify). */
  otherVerified?: boolean;
  /** My pictures I may attach (private ones become visible to the recipient). */
  myPics: ComposerPic[];
  /** The newest page, rendered by the server. */
  initial: MessagePage;
  /** The viewer is where being gay is a crime (the safety mode): the screen suggests a secret chat. */
  suggestSecret?: boolean;
}

function Chat({ me, other, otherName, otherPicId, otherVerified, myPics, initial, suggestSecret }: ConversationProps) {
  const { data, isPending } = useConversationQuery(me, other, initial);
  const [older, setOlder] = useState<Message[]>([]);
  const [olderMore, setOlderMore] = useState<boolean | null>(null);
  const send = useSendMessageMutation();
  const remove = useDeleteMessageMutation();
  const presence = usePresence([other])[other];
  const typing = useTyping(other);
  const queued = useQueued(me, other);
  const tellTyping = useTellTyping(other);
  const [viewing, setViewing] = useState<string[] | null>(null);
  const [openError, setOpenError] = useState("");
  const list = useRef<HTMLDivElement>(null);
  useLookingAt(other, list);
  // The secret chat's screen and its cryptography load only when it is opened (decision 0165).
  const [Secret, setSecret] = useState<ComponentType<SecretChatProps> | null>(null);

  const newest = data?.items ?? [];
  const all = dedupe([...newest, ...older]).reverse();
  const hasMore = olderMore ?? data?.hasMore ?? false;
  // Days and times in the reader's zone once hydrated (UTC on the server and at hydration).
  const [local, setLocal] = useState(false);
  useEffect(() => setLocal(true), []);
  const timeline = timelineOf(all, local);
  // Their newest unread message: each new one that arrives while the conversation is open is read
  // (the page keeps its copy as it was, so a flag "some unread" would not change for the next).
  const unreadFromThem = newest.find((m) => m.senderProfileId === other && !m.tsRecipientRead)?.id;

  useEffect(() => {
    if (unreadFromThem && document.visibilityState === "visible") void markRead(other).catch(() => {});
  }, [unreadFromThem, other]);
  // The newest message in view: the list scrolls itself, never the page (which opens at its top).
  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [newest[0]?.id, queued.length]);
  // Opened as a full screen from the profile (#chat), the list grew: the newest in view again.
  useEffect(() => {
    const onHash = () => {
      if (location.hash !== "#chat") return;
      requestAnimationFrame(() => {
        const el = list.current;
        if (el) el.scrollTop = el.scrollHeight;
      });
    };
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, []);

  async function loadOlder() {
    const oldest = all[0];
    if (!oldest) return;
    const page: MessagePage = await fetchOlder(me, other, oldest.id);
    setOlder((o) => [...o, ...page.items]);
    setOlderMore(page.hasMore);
  }

  return (
    <section className="chat" id="chat" aria-label={phrase("Chat with {name}", { name: otherName })}>
      <header className="chat-head">
        <a className="chat-back" href="/chat/personal" aria-label={TEXTS.conversationsTitle}>
          <ChevronLeft className="icon" aria-hidden="true" />
        </a>
        <a className="chat-who" href="#top" title={SCREEN_TEXTS.backToProfile}>
          <span className="avatar">
            <BriefPicture picId={otherPicId} name={otherName} scale={256} nsfw={false} />
          </span>
          <span className="chat-who-text">
            <h2 className="badged">
              <OnlineDot online={presence?.online && !typing} />
              <span className="name-cut">{otherName}</span>
              {otherVerified && <VerifiedBadge />}
            </h2>
            <span className={typing ? "presence typing" : "presence"} aria-live="polite">
              {typing ? TEXTS.typing : presence?.online ? TEXTS.onlineNow : presence?.lastSeen
                ? (
                  <>
                    {TEXTS.lastSeen} <SeenAgo ts={presence.lastSeen} />
                  </>
                )
                : null}
            </span>
          </span>
        </a>
        {/* On a phone the word gives way to its icon (the name then has the room); the link keeps its name. */}
        <a className="chat-profile-link" href="#top" aria-label={SCREEN_TEXTS.viewProfile}>
          <UserRound className="icon" aria-hidden="true" />
          <span className="chat-profile-text">{SCREEN_TEXTS.viewProfile}</span>
        </a>
        {!Secret && (
          <button
            type="button"
            className="link-button secret-start"
            aria-label={SECRET_TEXTS.startSecretChat}
            onClick={async () => {
              const m = await import("./secret/SecretChat.tsx");
              setSecret(() => m.default);
            }}
          >
            <LockKeyhole className="icon" aria-hidden="true" />
            <span className="secret-start-text">{SECRET_TEXTS.startSecretChat}</span>
          </button>
        )}
      </header>
      {suggestSecret && !Secret && <p className="notice secret-suggest">{SECRET_TEXTS.suggest}</p>}
      {Secret ? <Secret me={me} other={other} typing={tellTyping} /> : (
        <>
          <div className="messages" role="log" aria-live="polite" ref={list}>
            {hasMore && <button type="button" onClick={loadOlder}>{UI_TEXTS.loadOlder}</button>}
            {isPending && <p className="loading" role="status">{UI_TEXTS.loading}</p>}
            {!isPending && all.length === 0 && queued.length === 0 && <p className="empty">{UI_TEXTS.noMessagesYet}</p>}
            {all.map((m, i) => (
              <Fragment key={m.id}>
                {timeline[i].newDay && <DayDivider ts={m.tsCreated} local={local} />}
                {timeline[i].runTime && <RunTime ts={m.tsCreated} local={local} />}
                <MessageBubble
                  grouped={timeline[i].grouped}
                  m={m}
                  mine={m.senderProfileId === me}
                  onDelete={(scope) => {
                    setOlder((o) => o.filter((x) => x.id !== m.id));
                    remove.mutate({ id: m.id, scope });
                  }}
                  onOpen={async () => {
                    setOpenError("");
                    try {
                      setViewing((await openViewOnce(m.id)).picIds);
                    } catch (e) {
                      setOpenError(e instanceof Error ? e.message : String(e));
                    }
                  }}
                />
              </Fragment>
            ))}
            {queued.map((q) => <QueuedBubble key={q.key} q={q} />)}
          </div>
          {openError && <p className="error" role="alert">{openError}</p>}
          {viewing && (
            <div className="view-once-viewer" role="dialog" aria-modal="true" aria-label={TEXTS.viewOnce}>
              {viewing.map((id) => <img key={id} src={profilePicUrl(id, 1024)} alt={TEXTS.viewOnce} />)}
              <button type="button" className="primary" autoFocus onClick={() => setViewing(null)}>
                {UI_TEXTS.close}
              </button>
            </div>
          )}
          <Composer
            placeholder={phrase("Message {name}", { name: otherName })}
            pics={myPics}
            busy={send.isPending}
            onTyping={tellTyping.keystroke}
            onSend={(bodyText, profilePicIds, viewOnce) => {
              const stored = send.mutateAsync({
                senderProfileId: me,
                recipientProfileId: other,
                bodyText,
                profilePicIds,
                viewOnce,
              });
              tellTyping.sent(stored);
              return stored;
            }}
          />
        </>
      )}
    </section>
  );
}

function dedupe(list: Message[]): Message[] {
  const seen = new Set<string>();
  return list.filter((m) => !seen.has(m.id) && seen.add(m.id));
}

export default function Conversation(props: ConversationProps) {
  return (
    <QueryProvider>
      <Chat {...props} />
    </QueryProvider>
  );
}

/** A message still on this device: waiting for a connection, or refused, with a retry. */
function QueuedBubble({ q }: { q: QueuedMessage }) {
  return (
    <div className={q.failed ? "bubble mine queued failed" : "bubble mine queued"}>
      <p className="bubble-body">
        <span className="text" dir="auto">{q.message.bodyText}</span>
        <span className="queued-state" role="status">
          {q.failed ? `${UI_TEXTS.messageNotSent}: ${q.failed}` : UI_TEXTS.messageWaiting}
        </span>
      </p>
      {q.failed && (
        <span className="queued-actions">
          <button type="button" className="link-button" onClick={() => void retryQueued(q.key)}>
            {UI_TEXTS.sendAgain}
          </button>
          <button type="button" className="link-button" onClick={() => dropQueued(q.key)}>
            {UI_TEXTS.discardMessage}
          </button>
        </span>
      )}
    </div>
  );
}
