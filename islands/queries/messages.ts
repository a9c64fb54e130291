/** Chat data: conversations, one conversation, Map Chat sectors, sending and read receipts. */

import { type RefObject, useCallback, useEffect, useMemo, useState } from "react";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, call, NAVIGATION } from "./api.ts";
import { type MemberEvent, useMemberEvents } from "./events.ts";
import { useServerData } from "./client.tsx";
import type { ApiAnswer } from "../../domain/contract.ts";
import { apiPath } from "../../domain/apiPath.ts";
import type { NewMessage } from "../../domain/shapes/messages.ts";
import { TYPING_SHOWS_MS, TypingTeller } from "../../domain/typing.ts";
import { LOOKING_EVERY_MS } from "../../domain/quietHours.ts";
import { sendThroughOutbox, whenDelivered } from "./outbox.ts";

/** A page of messages with the names and avatars of the members in it. */
export type MessagePage = ApiAnswer<"GET /api/messages/between/:a/:b">;
export type People = MessagePage["people"];

/** Conversations poll every 15 s when the live stream is down (spec §9). */
export const MESSAGES_POLL_MS = 15_000;
/** Recent chats refetch every 3 minutes (spec §9). */
export const RECENT_CHATS_REFETCH_MS = 180_000;

/** The events that change what chat lists show. */
const CHAT_EVENTS = new Set<MemberEvent["type"]>([
  "message",
  "read",
  "message-deleted",
  "conversation-deleted",
  "opened",
  "secret",
]);

/**
 * Keeps the queries under `key` live: a read receipt or a deletion is applied to the cached pages
 * at once, and every chat event refetches them too (a new message, whose text the event does not
 * carry; and a receipt, because a fetch already on its way, begun before the read, would otherwise
 * land after it and put the single check back until the next poll).
 */
function useLive(key: unknown[]) {
  const qc = useQueryClient();
  useMemberEvents(useCallback((e: MemberEvent) => {
    // Of a secret chat, only its start shows in chat lists (their lock); its messages do not.
    if (!CHAT_EVENTS.has(e.type) || (e.type === "secret" && e.what !== "chat")) return;
    if (e.type === "read") {
      const t = Date.now();
      qc.setQueriesData<MessagePage>({ queryKey: key }, (page) =>
        page && {
          ...page,
          items: page.items.map((m) =>
            m.recipientProfileId === e.by && !m.tsRecipientRead ? { ...m, tsRecipientRead: t } : m
          ),
        });
    }
    if (e.type === "message-deleted") {
      qc.setQueriesData<MessagePage>(
        { queryKey: key },
        (page) => page && { ...page, items: page.items.filter((m) => m.id !== e.id) },
      );
    }
    void qc.invalidateQueries({ queryKey: key });
  }, [qc, JSON.stringify(key)]));
}

/** "Your Conversations": the latest message per partner; `initial` is what the server rendered. */
export function useConversationsQuery(profileId: string, initial?: MessagePage) {
  useLive(["conversations"]);
  useServerData(["conversations", profileId], initial);
  return useQuery({
    queryKey: ["conversations", profileId],
    queryFn: () => call("GET /api/messages/most-recent-with/:profileId", { profileId }),
    refetchInterval: RECENT_CHATS_REFETCH_MS,
    meta: NAVIGATION,
  });
}

/** The newest messages between me and another member, live; `initial` is what the server rendered. */
export function useConversationQuery(me: string, other: string, initial?: MessagePage) {
  useLive(["conversation", me, other]);
  useServerData(["conversation", me, other], initial);
  return useQuery({
    queryKey: ["conversation", me, other],
    queryFn: () => call("GET /api/messages/between/:a/:b", { a: me, b: other }),
    refetchInterval: MESSAGES_POLL_MS,
    meta: NAVIGATION,
  });
}

/** Older messages of a conversation, before a message id. */
export function fetchOlder(me: string, other: string, beforeMessageId: string) {
  return call("GET /api/messages/between/:a/:b", { a: me, b: other }, { query: { beforeMessageId } });
}

/** Marks the other member's messages to me as read. */
export function markRead(other: string) {
  return call("PUT /api/messages/read/:other", { other });
}

/**
 * Sends a message; refreshes the lists it appears in. A private message goes through the device's
 * outbox (outbox.ts): without a connection it waits there, shown as pending, and the mutation
 * resolves with null.
 */
export function useSendMessageMutation() {
  const qc = useQueryClient();
  useEffect(() =>
    whenDelivered((m) => {
      const key = ["conversation", m.senderProfileId, m.recipientProfileId];
      // In the conversation at once (it replaces the pending bubble), then read again from the server.
      qc.setQueryData<MessagePage>(key, (page) =>
        page && { ...page, items: [m, ...page.items.filter((x) => x.id !== m.id)] });
      void qc.invalidateQueries({ queryKey: key });
      void qc.invalidateQueries({ queryKey: ["conversations"] });
    }), [qc]);
  return useMutation({
    // Not paused while offline (react-query's default): the outbox keeps the message meanwhile.
    networkMode: "always",
    mutationFn: (m: NewMessage) =>
      m.recipientProfileId
        ? sendThroughOutbox(m)
        : call("POST /api/message", {}, { json: { ...m, tsCreated: Date.now() } }),
    onSuccess: (_m, vars) => {
      if (!vars.recipientProfileId) void qc.invalidateQueries({ queryKey: ["broadcasts"] });
    },
  });
}

/** The 3 × 3 sectors around a sector "lat:lon" (spec §7: radius 1). */
function sectorsAround(sector: string): string[] {
  const [lat, lon] = sector.split(":").map(Number);
  const out: string[] = [];
  for (let dLat = -1; dLat <= 1; dLat++) {
    for (let dLon = -1; dLon <= 1; dLon++) {
      const la = lat + dLat;
      if (la < -90 || la > 89) continue;
      const lo = ((lon + dLon + 540) % 360) - 180;
      out.push(`${la}:${lo}`);
    }
  }
  return out;
}

/**
 * Map Chat: every sector around mine, asked side by side every 15 s and on focus, merged newest
 * first. A sector that does not answer leaves the others shown; the round fails only when none
 * answers. (One query for the nine, not react-query's `useQueries`: that would put its observer in
 * the scripts every page shares.)
 */
export function useBroadcastsQuery(sector: string | null, page: number) {
  const q = useQuery({
    queryKey: ["broadcasts", sector, page],
    queryFn: async () => {
      const pages = await Promise.allSettled(
        sectorsAround(sector ?? "").map((s) =>
          call("GET /api/messages/by-sector/:sector", { sector: s }, { query: { page } })
        ),
      );
      const answered = pages.flatMap((p) => p.status === "fulfilled" ? [p.value] : []);
      if (!answered.length) throw (pages[0] as PromiseRejectedResult).reason;
      return {
        items: answered.flatMap((p) => p.items).sort((a, b) => b.tsCreated - a.tsCreated),
        people: Object.assign({}, ...answered.map((p) => p.people)) as People,
        hasMore: answered.some((p) => p.hasMore),
      };
    },
    enabled: sector !== null,
    refetchInterval: MESSAGES_POLL_MS,
    refetchOnWindowFocus: true,
    placeholderData: keepPreviousData,
  });
  return {
    items: q.data?.items ?? [],
    people: q.data?.people ?? {},
    hasMore: q.data?.hasMore ?? false,
    loading: sector !== null && q.isPending,
  };
}

/** Deletes one message: for me, or for both sides ("unsend", its sender within 10 minutes). */
export function useDeleteMessageMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, scope }: { id: string; scope: "me" | "both" }) =>
      call("DELETE /api/message/:id", { id }, { query: { for: scope } }),
    onSuccess: (_, { id }) => {
      qc.setQueriesData<MessagePage>(
        { queryKey: ["conversation"] },
        (page) => page && { ...page, items: page.items.filter((m) => m.id !== id) },
      );
      void qc.invalidateQueries({ queryKey: ["conversations"] });
    },
  });
}

/** Deletes my whole conversation with a member from my list (it comes back if either writes again). */
export function useDeleteConversationMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (other: string) => call("DELETE /api/messages/with/:profileId", { profileId: other }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["conversations"] }),
  });
}

/** True while `other` is typing to me (their typing events, live). */
export function useTyping(other: string): boolean {
  const [until, setUntil] = useState(0);
  const [, tick] = useState(0);
  useMemberEvents(useCallback((e: MemberEvent) => {
    if (e.type === "typing" && e.from === other) setUntil(Date.now() + TYPING_SHOWS_MS);
    if (e.type === "message" && e.from === other) setUntil(0);
  }, [other]));
  useEffect(() => {
    if (!until) return;
    const t = setTimeout(() => tick((n) => n + 1), Math.max(0, until - Date.now()) + 50);
    return () => clearTimeout(t);
  }, [until]);
  return until > Date.now();
}

/**
 * Tells `other` I am typing (domain/typing.ts): `keystroke` at each change of the draft, `sent`
 * when a message leaves, so the first keystroke after it is told at once.
 */
export function useTellTyping(other: string): { keystroke: () => void; sent: (stored: Promise<unknown>) => void } {
  const teller = useMemo(
    () =>
      new TypingTeller(() =>
        void api(apiPath("POST /api/typing/:profileId", { profileId: other }), { method: "POST" }).catch(() => {})
      ),
    [other],
  );
  useEffect(() => () => teller.dispose(), [teller]);
  return useMemo(() => ({ keystroke: () => teller.keystroke(), sent: (p: Promise<unknown>) => teller.sent(p) }), [
    teller,
  ]);
}

/**
 * Tells the server I have the conversation with `other` in view (domain/quietHours.ts): every
 * LOOKING_EVERY_MS while the page is visible and the conversation (`shown`) is on screen, and that
 * I no longer do when it scrolls away, the page is hidden or left. Its messages show here live
 * meanwhile, so no push is sent for them.
 */
export function useLookingAt(other: string, shown: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const path = apiPath("POST /api/presence/looking", {});
    // One at a time, so that they arrive in the order said (a late "in view" would outlive a "left").
    let chain = Promise.resolve();
    const say = (at: string | null, leaving = false) => {
      if (!leaving) {
        chain = chain.then(() => api(path, { method: "POST", json: { at } }).then(() => {}, () => {}));
        return;
      }
      // A page being left gets no answer: a beacon, and a request kept alive past the page, are the
      // browser's to deliver after it (either may be dropped as the page goes; saying it twice is
      // harmless). The beacon's body is plain text (a JSON type is not allowed in one); the server
      // reads it as JSON.
      const body = JSON.stringify({ at });
      try {
        navigator.sendBeacon?.(path, body);
      } catch { /* no beacon here */ }
      void fetch(path, {
        method: "POST",
        body,
        headers: { "content-type": "application/json" },
        credentials: "same-origin",
        keepalive: true,
      }).catch(() => {});
    };
    let timer: ReturnType<typeof setInterval> | undefined;
    let saying = false;
    let left = false;
    const el = shown.current;
    const observed = !!el && typeof IntersectionObserver !== "undefined";
    // With an observer, nothing is said before it first tells whether the conversation is on screen.
    let inView = !observed;
    const update = () => {
      const looking = !left && document.visibilityState === "visible" && inView;
      if (looking === saying) return;
      saying = looking;
      clearInterval(timer);
      if (looking) {
        say(other);
        timer = setInterval(() => say(other), LOOKING_EVERY_MS);
      } else say(null, left || document.visibilityState !== "visible");
    };
    const io = observed
      ? new IntersectionObserver(([e]) => {
        inView = e.isIntersecting;
        update();
      })
      : null;
    if (el) io?.observe(el);
    update();
    // Leaving the page runs no React cleanup: the page says it as it goes.
    const leave = () => {
      left = true;
      update();
    };
    // Back from the back/forward cache: in view again.
    const back = (e: PageTransitionEvent) => {
      if (!e.persisted) return;
      left = false;
      update();
    };
    document.addEventListener("visibilitychange", update);
    addEventListener("pagehide", leave);
    addEventListener("pageshow", back);
    return () => {
      io?.disconnect();
      document.removeEventListener("visibilitychange", update);
      removeEventListener("pagehide", leave);
      removeEventListener("pageshow", back);
      clearInterval(timer);
      if (saying) say(null, true);
    };
  }, [other, shown]);
}

/** Opens a view-once message (once): the pictures to show full screen now. */
export function openViewOnce(id: string) {
  return call("POST /api/message/:id/open", { id });
}
