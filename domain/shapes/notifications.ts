/** In-app notifications (spec §3). */

/** A notification (spec §3); `count` is how many messages a conversation's notification stands for. */
export interface Notification {
  id: string;
  bodyText: string;
  url?: string;
  tsCreated: number;
  count?: number;
}
