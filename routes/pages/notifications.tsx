/** The notifications page. */

import { titleText } from "../../domain/texts.ts";
import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { renderPage } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import NotificationList from "../../islands/NotificationList.tsx";
import { listNotifications } from "../../kv/notifications.ts";

export async function notificationsPage(c: Context<AppEnv>) {
  const caller = c.get("caller")!;
  return renderPage(
    c,
    "Notifications",
    <section className="page">
      <h1>{titleText("Notifications")}</h1>
      <Island
        of={NotificationList}
        props={{ profileId: caller.profileId, notifications: await listNotifications(caller.profileId) }}
      />
    </section>,
  );
}
