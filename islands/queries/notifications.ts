/** Notifications data: the member's list, live, and deleting one. */

import { useCallback, useEffect, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "./api.ts";
import { useServerData } from "./client.tsx";
import { type MemberEvent, useMemberEvents } from "./events.ts";
import type { Notification } from "../../domain/shapes/notifications.ts";

/** Fallback polling when the live stream is down (spec §9 messages poll every 15 s). */
export const NOTIFICATIONS_POLL_MS = 15_000;

const key = (profileId: string) => ["notifications", profileId];

/**
 * The member's notifications, refreshed live and by polling. The server's list seeds the cache
 * (useServerData): a list restored from the device's cache, older than the page, would make
 * hydration show something other than what the server rendered.
 */
export function useNotificationsQuery(profileId: string, initial: Notification[]) {
  const qc = useQueryClient();
  const refresh = useCallback(
    (e: MemberEvent) => e.type === "notifications" && void qc.invalidateQueries({ queryKey: key(profileId) }),
    [qc, profileId],
  );
  useMemberEvents(refresh);
  useServerData(key(profileId), initial);
  return useQuery({
    queryKey: key(profileId),
    queryFn: () => call("GET /api/notifications/:profileId", { profileId }),
    refetchInterval: NOTIFICATIONS_POLL_MS,
    refetchOnWindowFocus: true,
  });
}

/** Deletes a notification, removing it from the list at once. */
export function useDeleteNotificationMutation(profileId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call("DELETE /api/notification/:id", { id }),
    onMutate: (id) => qc.setQueryData<Notification[]>(key(profileId), (list) => list?.filter((n) => n.id !== id) ?? []),
    onSettled: () => qc.invalidateQueries({ queryKey: key(profileId) }),
  });
}

/** Unread counts for the tab bar: messages in unread conversations, and new likes; live. */
export function useUnreadCounts(profileId: string): { chats: number; likes: number } {
  const qc = useQueryClient();
  useMemberEvents(useCallback(
    (e: MemberEvent) => e.type === "notifications" && void qc.invalidateQueries({ queryKey: key(profileId) }),
    [qc, profileId],
  ));
  const { data = [] } = useQuery({
    queryKey: key(profileId),
    queryFn: () => call("GET /api/notifications/:profileId", { profileId }),
    refetchInterval: NOTIFICATIONS_POLL_MS,
  });
  return unreadCounts(data);
}

/** The tab bar's unread counts in a member's notifications: messages in unread conversations, and new likes. */
export function unreadCounts(list: readonly Notification[]): { chats: number; likes: number } {
  let chats = 0, likes = 0;
  for (const n of list) {
    if (n.url?.endsWith("#chat")) chats += n.count ?? 1;
    else if (n.url?.startsWith("/likes/")) likes++;
  }
  return { chats, likes };
}

/**
 * Unread messages per conversation partner (from the "N new messages" notifications, whose url
 * is the partner's `/profile/{id}#chat`); empty until hydrated, as the server renders none.
 */
export function useUnreadByPartner(profileId: string): Record<string, number> {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const { data = [] } = useQuery({
    queryKey: key(profileId),
    queryFn: () => call("GET /api/notifications/:profileId", { profileId }),
    refetchInterval: NOTIFICATIONS_POLL_MS,
  });
  const by: Record<string, number> = {};
  if (!hydrated) return by;
  for (const n of data) {
    const m = n.url?.match(/^\/profile\/([^/#?]+)#chat$/);
    if (m) by[decodeURIComponent(m[1])] = (by[decodeURIComponent(m[1])] ?? 0) + (n.count ?? 1);
  }
  return by;
}
