/**
 * The secret chat screen (docs/secret-chats.md), loaded on demand by the conversation
 * (islands/Conversation.tsx): it says the chat is secret, warns before a chat starts that its
 * history lives only on the member's devices, shows the safety code to compare in person, and sends and shows
 * messages encrypted on this device. New messages, receipts and device requests arrive live: the
 * member's event stream (islands/queries/events.ts, already open for the conversation) says which
 * chat changed, and the screen fetches its ciphertexts then; a slow poll stays as the fallback.
 */

import { useCallback, useEffect, useRef, useState } from "react";
// Already loaded by every island: imported here so that the chunk React and React DOM share stays
// one file. Without it the build splits React DOM off into a chunk of its own, and every page
// (the map's included) loads one more file, about 0.4 KB more (decision 0165).
import "react-dom";
import { ImagePlus, LockKeyhole } from "../../components/icons.ts";
import { Composer } from "../../components/Composer.tsx";
import { Time } from "../../components/Time.tsx";
import { SECRET_TEXTS } from "../../domain/secretChats.ts";
import { UI_TEXTS } from "../../domain/uiTexts.ts";
import type { DeviceIdentity } from "./mls.ts";
import {
  approve,
  askToJoin,
  ensureDevice,
  type Entry,
  evictRemoved,
  findChat,
  flush,
  type OpenChat,
  openChat,
  receive,
  report,
  send,
  sendPicture,
  start,
  unsend,
  viewedOnce,
} from "./client.ts";
import { pictureBytes } from "./pictures.ts";
import type { PictureRef } from "../../domain/secretPictures.ts";
import { type MemberEvent, useMemberEvents } from "../queries/events.ts";

/** How often an open secret chat looks for new messages when no live event said so (spec §9: 15 s). */
const POLL_MS = 15_000;

export interface SecretChatProps {
  me: string;
  other: string;
  /** Tells the other member that this one is typing (as the conversation does). */
  typing?: { keystroke: () => void; sent: (stored: Promise<unknown>) => void };
}

type Phase =
  | { kind: "loading" }
  /** No chat on this device yet: what it means is said before the member starts one. */
  | { kind: "confirm"; device: DeviceIdentity; otherDevice: boolean; chatId?: string; asked?: boolean }
  | { kind: "ready"; device: DeviceIdentity; open: OpenChat }
  | { kind: "failed"; message: string; device?: DeviceIdentity };

/**
 * A picture of the chat, decrypted on this device: from its store, or fetched, checked against the
 * hash its message carried and opened; shown from a local object URL (never the server's bytes).
 */
function SecretPicture({ chatId, picture }: { chatId: string; picture: PictureRef }) {
  const [url, setUrl] = useState<string | null>(null);
  const [gone, setGone] = useState(false);
  useEffect(() => {
    let made: string | null = null;
    let stop = false;
    pictureBytes(chatId, picture).then((bytes) => {
      if (stop) return;
      made = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: picture.type }));
      setUrl(made);
    }, () => !stop && setGone(true));
    return () => {
      stop = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [chatId, picture.id]);
  if (gone) return <span className="pic-gone">{SECRET_TEXTS.pictureGone}</span>;
  return (
    <span
      className="secret-picture"
      style={{ aspectRatio: `${picture.width} / ${picture.height}` }}
      role={url ? undefined : "status"}
      aria-busy={!url}
    >
      {url && <img src={url} alt={SECRET_TEXTS.picture} width={picture.width} height={picture.height} />}
    </span>
  );
}

export default function SecretChat({ me, other, typing }: SecretChatProps) {
  const [phase, setPhase] = useState<Phase>({ kind: "loading" });
  const [history, setHistory] = useState<Entry[]>([]);
  const [readUpTo, setReadUpTo] = useState<string | null>(null);
  const [safety, setSafety] = useState<{ code: string; changed: boolean } | null>(null);
  /** A device of this member asking to join, shown on a device already in the chat. */
  const [asking, setAsking] = useState<string | null>(null);
  const [error, setError] = useState("");
  /** A picture is being redrawn, encrypted and sent. */
  const [sendingPicture, setSendingPicture] = useState(false);
  /** The next picture is sent as view once. */
  const [once, setOnce] = useState(false);
  /** A view-once picture of theirs, open now: closing it deletes it from this device. */
  const [viewing, setViewing] = useState<Entry | null>(null);
  const list = useRef<HTMLDivElement>(null);
  /** Looks again now: what the screen's current phase looks for (set by the effect below). */
  const look = useRef<((chatId: string) => void) | null>(null);
  useMemberEvents(useCallback((e: MemberEvent) => {
    if (e.type === "secret") look.current?.(e.chatId);
  }, []));

  /** Opens the chat this device has with them, or asks before starting one. */
  async function begin() {
    setPhase({ kind: "loading" });
    let device: DeviceIdentity | undefined;
    try {
      if (!("indexedDB" in globalThis) || !crypto.subtle) throw new Error(SECRET_TEXTS.unsupported);
      device = await ensureDevice(me);
      const found = await findChat(other);
      const opened = found ? await openChat(me, device, found) : undefined;
      if (!opened || opened === "other-device") {
        const asked = found?.pending.some((d) => d.deviceId === device!.deviceId);
        setPhase({ kind: "confirm", device, otherDevice: opened === "other-device", chatId: found?.id, asked });
        return;
      }
      setHistory(opened.history);
      setPhase({ kind: "ready", device, open: opened });
    } catch (e) {
      setPhase({ kind: "failed", message: e instanceof Error ? e.message : String(e), device });
    }
  }

  /** Starts a new secret chat (the member confirmed, having read that the history lives only on devices). */
  async function startNew(device: DeviceIdentity) {
    setPhase({ kind: "loading" });
    try {
      const opened = await start(device, other);
      setHistory(opened.history);
      setPhase({ kind: "ready", device, open: opened });
    } catch (e) {
      setPhase({ kind: "failed", message: e instanceof Error ? e.message : String(e), device });
    }
  }

  useEffect(() => void begin(), [me, other]);

  // While open: new messages every POLL_MS, and a look for a chat the other member starts meanwhile.
  useEffect(() => {
    if (phase.kind === "failed" || phase.kind === "confirm") {
      let busy = false;
      const find = async () => {
        if (!phase.device || busy) return;
        busy = true;
        try {
          const found = await findChat(other).catch(() => undefined);
          const opened = found && await openChat(me, phase.device, found).catch(() => undefined);
          if (opened && opened !== "other-device") {
            setHistory(opened.history);
            setPhase({ kind: "ready", device: phase.device, open: opened });
          }
        } finally {
          busy = false;
        }
      };
      // A chat the other member starts, or this device's approval, is told live.
      look.current = () => void find();
      const t = setInterval(find, POLL_MS);
      return () => {
        look.current = null;
        clearInterval(t);
      };
    }
    if (phase.kind !== "ready") return;
    let stop = false;
    const tick = async () => {
      try {
        // What was typed offline goes first, when the device is online.
        if (navigator.onLine !== false) await flush(phase.open.chat.id, phase.device);
        const r = await receive(phase.open.chat.id, phase.device);
        if (stop) return;
        setHistory([...r.history]);
        setReadUpTo(r.otherReadUpTo);
        setSafety((old) => ({ code: r.safety, changed: (old?.changed ?? false) || r.safetyChanged }));
        const chat = await findChat(other);
        if (stop) return;
        // Devices logged out since: removed from the chat's group here, if this device stays in it.
        if (chat?.id === phase.open.chat.id) {
          const code = await evictRemoved(chat.id, phase.device, chat).catch(() => undefined);
          if (code && !stop) setSafety({ code, changed: true });
        }
        setAsking(
          chat?.pending.find((d) => d.profileId === me && d.deviceId !== phase.device.deviceId)?.deviceId ?? null,
        );
      } catch { /* offline a moment: the next tick tries again */ }
    };
    void tick();
    look.current = (chatId) => chatId === phase.open.chat.id && void tick();
    const t = setInterval(tick, POLL_MS);
    // Back online: send what waits and look for what came meanwhile, at once.
    addEventListener("online", tick);
    return () => {
      stop = true;
      look.current = null;
      clearInterval(t);
      removeEventListener("online", tick);
    };
  }, [phase]);

  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [history.length]);

  return (
    <div className="secret-chat" data-phase={phase.kind}>
      <div className="secret-head">
        <LockKeyhole className="icon" aria-hidden="true" />
        <div>
          <h3>{SECRET_TEXTS.secretChat}</h3>
          <p className="secret-notice">{SECRET_TEXTS.secretNotice}</p>
        </div>
      </div>
      {phase.kind === "loading" && <p className="loading" role="status">{SECRET_TEXTS.starting}</p>}
      {phase.kind === "failed" && <p className="error secret-error" role="alert">{phase.message}</p>}
      {phase.kind === "confirm" && (
        <div className="secret-confirm">
          {phase.otherDevice && <p className="notice">{SECRET_TEXTS.otherDevice}</p>}
          <p className="hint secret-history-note">{SECRET_TEXTS.loseHistory}</p>
          {phase.asked ? <p className="notice" role="status">{SECRET_TEXTS.waitingApproval}</p> : (
            <>
              {phase.otherDevice && phase.chatId && (
                <button
                  type="button"
                  className="primary"
                  onClick={async () => {
                    try {
                      await askToJoin(phase.chatId!, phase.device);
                      setPhase({ ...phase, asked: true });
                    } catch (e) {
                      setError(e instanceof Error ? e.message : String(e));
                    }
                  }}
                >
                  {SECRET_TEXTS.askToJoin}
                </button>
              )}
              <button
                type="button"
                className={phase.otherDevice ? "" : "primary"}
                onClick={() => void startNew(phase.device)}
              >
                {SECRET_TEXTS.startSecretChat}
              </button>
            </>
          )}
        </div>
      )}
      {phase.kind === "ready" && (
        <>
          <p className="secret-safety">
            {SECRET_TEXTS.safetyCode}:{" "}
            <code className="safety-code" dir="ltr">{safety?.code ?? phase.open.safety}</code>
            <span className="hint">{SECRET_TEXTS.safetyCodeHint}</span>
          </p>
          {(phase.open.safetyChanged || safety?.changed) && (
            <p className="notice secret-devices-changed" role="status">{SECRET_TEXTS.devicesChanged}</p>
          )}
          {asking && (
            <p className="notice secret-asking">
              {SECRET_TEXTS.newDeviceAsks}{" "}
              <button
                type="button"
                className="primary"
                onClick={async () => {
                  setError("");
                  try {
                    const code = await approve(phase.open.chat.id, phase.device, asking);
                    setSafety({ code, changed: false });
                    setAsking(null);
                  } catch (e) {
                    setError(e instanceof Error ? e.message : String(e));
                  }
                }}
              >
                {SECRET_TEXTS.addNewDevice}
              </button>
            </p>
          )}
          <p className="hint secret-history-note">{SECRET_TEXTS.loseHistory}</p>
          <div className="messages secret-messages" role="log" aria-live="polite" ref={list}>
            {history.length === 0 && <p className="empty">{UI_TEXTS.noMessagesYet}</p>}
            {history.map((m) => (
              <div key={m.id} className={`bubble secret${m.mine ? " mine" : ""}${m.pending ? " pending" : ""}`}>
                <p className="bubble-body">
                  {m.unsent && (
                    <span className="hint secret-unsent">
                      {m.mine ? SECRET_TEXTS.unsentMine : SECRET_TEXTS.unsentTheirs}
                    </span>
                  )}
                  {m.picture && !m.picture.once && <SecretPicture chatId={phase.open.chat.id} picture={m.picture} />}
                  {m.picture?.once && m.mine && (
                    <span className="secret-once">
                      {SECRET_TEXTS.viewOnceSent}
                      {m.viewed && <>· {SECRET_TEXTS.viewed}</>}
                    </span>
                  )}
                  {m.picture?.once && !m.mine && (
                    <button
                      type="button"
                      className="secret-once-open"
                      onClick={() => setViewing(m)}
                    >
                      {SECRET_TEXTS.viewOnceOpen}
                    </button>
                  )}
                  {m.viewed && !m.mine && (
                    <span className="secret-once">{SECRET_TEXTS.viewOnceSent} · {SECRET_TEXTS.viewed}</span>
                  )}
                  {(m.unreadable || m.text) && (
                    <span className="text" dir="auto">{m.unreadable ? SECRET_TEXTS.cannotOpen : m.text}</span>
                  )}
                  <Time ts={m.ts} />
                  {m.mine && !m.pending && !m.failed && (
                    <span className="checks" aria-label={readUpTo && readUpTo >= m.id ? UI_TEXTS.read : UI_TEXTS.sent}>
                      {readUpTo && readUpTo >= m.id ? "✓✓" : "✓"}
                    </span>
                  )}
                  {m.pending && <span className="hint secret-queued">{SECRET_TEXTS.queued}</span>}
                  {m.failed && <span className="error secret-not-sent">{SECRET_TEXTS.notSent}: {m.failed}</span>}
                </p>
                {m.mine && !m.pending && !m.failed && !m.unsent && (
                  <button
                    type="button"
                    className="link-button"
                    onClick={async () => {
                      setError("");
                      try {
                        setHistory([...await unsend(phase.open.chat.id, phase.device, m)]);
                      } catch (e) {
                        setError(e instanceof Error ? e.message : String(e));
                      }
                    }}
                  >
                    {SECRET_TEXTS.unsend}
                  </button>
                )}
                {!m.mine && !m.unreadable && !m.unsent && !m.viewed && (
                  m.reported ? <span className="hint">{SECRET_TEXTS.reported}</span> : (
                    <button
                      type="button"
                      className="link-button"
                      onClick={async () => {
                        setError("");
                        try {
                          setHistory([...await report(phase.open.chat.id, m)]);
                        } catch (e) {
                          setError(e instanceof Error ? e.message : String(e));
                        }
                      }}
                    >
                      {SECRET_TEXTS.report}
                    </button>
                  )
                )}
              </div>
            ))}
          </div>
          {error && <p className="error" role="alert">{error}</p>}
          {viewing?.picture && (
            <div className="secret-viewing" role="dialog" aria-label={SECRET_TEXTS.viewOnceSent}>
              <SecretPicture chatId={phase.open.chat.id} picture={viewing.picture} />
              <button
                type="button"
                className="primary"
                onClick={async () => {
                  const seen = viewing;
                  setViewing(null);
                  setHistory([...await viewedOnce(phase.open.chat.id, phase.device, seen)]);
                }}
              >
                {SECRET_TEXTS.close}
              </button>
            </div>
          )}
          <div className="secret-tools">
            <label className="check secret-once-check">
              <input type="checkbox" checked={once} onChange={(e) => setOnce(e.target.checked)} />{" "}
              {SECRET_TEXTS.viewOnce}
            </label>
            <label className={`button secret-picture-button${sendingPicture ? " busy" : ""}`}>
              <ImagePlus className="icon" aria-hidden="true" />
              <span>{sendingPicture ? SECRET_TEXTS.sendingPicture : SECRET_TEXTS.sendPicture}</span>
              <input
                type="file"
                accept="image/*"
                className="visually-hidden"
                disabled={sendingPicture}
                onChange={async (e) => {
                  const input = e.currentTarget;
                  const file = input.files?.[0];
                  if (!file) return;
                  setError("");
                  setSendingPicture(true);
                  try {
                    setHistory([...await sendPicture(phase.open.chat.id, phase.device, file, once)]);
                    setOnce(false);
                  } catch (err) {
                    setError(err instanceof Error ? err.message : String(err));
                  } finally {
                    setSendingPicture(false);
                    input.value = "";
                  }
                }}
              />
            </label>
          </div>
          {once && <p className="hint secret-once-hint">{SECRET_TEXTS.viewOnceHint}</p>}
          <Composer
            placeholder={SECRET_TEXTS.placeholder}
            busy={false}
            onTyping={typing?.keystroke}
            onSend={async (text) => {
              setError("");
              const stored = send(phase.open.chat.id, phase.device, text);
              typing?.sent(stored);
              setHistory([...await stored]);
            }}
          />
        </>
      )}
    </div>
  );
}
