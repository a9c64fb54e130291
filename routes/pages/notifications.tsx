/** The notifications page. */

import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { titledPage } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import NotificationList from "../../islands/NotificationList.tsx";
import { listNotifications } from "../../kv/notifications.ts";

export async function notificationsPage(c: Context<AppEnv>) {
  const caller = c.get("caller")!;
  return titledPage(
    c,
    "Notifications",
    <Island
      of={NotificationList}
      props={{ profileId: caller.profileId, notifications: await listNotifications(caller.profileId) }}
    />,
  );
}
