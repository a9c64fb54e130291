/** Notifications (spec §2): body and time; a click goes to its url and deletes it; a delete icon. */

import { Trash2 } from "../components/icons.ts";
import { QueryProvider } from "./queries/client.tsx";
import { useDeleteNotificationMutation, useNotificationsQuery } from "./queries/notifications.ts";
import { Time } from "../components/Time.tsx";
import { TEXTS } from "../domain/texts.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import type { Notification } from "../domain/shapes/notifications.ts";

interface Props {
  profileId: string;
  notifications: Notification[];
}

function List({ profileId, notifications }: Props) {
  // The server's list seeds the query's cache, so it is there from the first render.
  const { data = notifications } = useNotificationsQuery(profileId, notifications);
  const del = useDeleteNotificationMutation(profileId);
  if (data.length === 0) return <p className="empty">{TEXTS.notificationsNone}</p>;
  return (
    <ul className="list notifications">
      {data.map((n) => (
        <li key={n.id} className="row between">
          <button
            type="button"
            className="link-like"
            onClick={async () => {
              await del.mutateAsync(n.id).catch(() => {});
              if (n.url) location.assign(n.url);
            }}
          >
            <span>{n.bodyText}</span>
            <small>
              <Time ts={n.tsCreated} />
            </small>
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label={UI_TEXTS.deleteNotification}
            onClick={() => del.mutate(n.id)}
          >
            <Trash2 className="icon" aria-hidden="true" />
          </button>
        </li>
      ))}
    </ul>
  );
}

export default function NotificationList(props: Props) {
  return (
    <QueryProvider>
      <List {...props} />
    </QueryProvider>
  );
}
