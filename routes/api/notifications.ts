/**
 * Notifications (spec §7): GET /api/notifications/{profileId}, DELETE /api/notification/{id};
 * push devices: POST/DELETE /api/push-subscriptions. The live stream of changes is
 * routes/api/events.ts.
 */

import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { badRequest, forbidden, notFound } from "../errors.ts";
import { bodyOf, idParam } from "../validate.ts";
import { requireCaller } from "../middleware.ts";
import { isDiscreet } from "../device.ts";
import { deleteNotification, listNotifications } from "../../kv/notifications.ts";
import { addPushSubscription, allowedEndpoint, removePushSubscription } from "../../kv/push.ts";
import { answer } from "../answer.ts";

export const notifications = new Hono<AppEnv>()
  .get("/notifications/:profileId", async (c) => {
    const caller = requireCaller(c);
    if (c.req.param("profileId") !== caller.profileId) throw forbidden();
    return answer(c, "GET /api/notifications/:profileId", await listNotifications(caller.profileId));
  })
  .delete("/notification/:id", async (c) => {
    const caller = requireCaller(c);
    if (!(await deleteNotification(caller.profileId, idParam(c, "id")))) throw notFound("No such notification.");
    return answer(c, "DELETE /api/notification/:id", { ok: true });
  })
  .post("/push-subscriptions", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "POST /api/push-subscriptions");
    if (!allowedEndpoint(body.endpoint)) throw badRequest("This push service is not supported.", "push_endpoint");
    // A device in discreet mode gets neutral notifications (workers/push.ts).
    const sub = await addPushSubscription(caller.accountId, {
      ...body,
      expirationTime: body.expirationTime ?? 0,
      ...(isDiscreet(c) ? { discreet: true } : {}),
    });
    return answer(c, "POST /api/push-subscriptions", sub);
  })
  .delete("/push-subscriptions/:id", async (c) => {
    const caller = requireCaller(c);
    if (!(await removePushSubscription(caller.accountId, idParam(c, "id")))) throw notFound("No such device.");
    return answer(c, "DELETE /api/push-subscriptions/:id", { ok: true });
  });
