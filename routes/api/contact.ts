/** POST /api/contactus-messages: a member writes to the operators. */

import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { tooMany } from "../errors.ts";
import { bodyOf } from "../validate.ts";
import { clientAddress, requireCaller } from "../middleware.ts";
import { saveContactMessage } from "../../kv/contact.ts";
import { hit } from "../../kv/ratelimit.ts";
import { answer } from "../answer.ts";

export const contact = new Hono<AppEnv>()
  .post("/contactus-messages", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "POST /api/contactus-messages");
    if (!(await hit("contactByAccount", caller.accountId)) || !(await hit("contactByAddress", clientAddress(c)))) {
      throw tooMany();
    }
    const m = await saveContactMessage({ accountId: caller.accountId }, body.name, body.message);
    return answer(c, "POST /api/contactus-messages", { id: m.id });
  });
