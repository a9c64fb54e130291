/** POST /api/contactus-messages: a member writes to the operators. */

import { Hono } from "hono";
import * as z from "zod";
import type { AppEnv } from "../env.ts";
import { tooMany } from "../errors.ts";
import { jsonBody } from "../validate.ts";
import { clientAddress, requireCaller } from "../middleware.ts";
import { MAX_TEXT, TEXTS } from "../../domain/texts.ts";
import { saveContactMessage } from "../../kv/contact.ts";
import { hit } from "../../kv/ratelimit.ts";
import { answer } from "../answer.ts";

export const contactBody = z.object({
  name: z.string().trim().min(1, TEXTS.contactNameRequired).max(200),
  message: z.string().trim().min(1, "Please write a message.").max(MAX_TEXT),
});

export const contact = new Hono<AppEnv>()
  .post("/contactus-messages", async (c) => {
    const caller = requireCaller(c);
    const body = await jsonBody(c, contactBody);
    if (!(await hit("contactByAccount", caller.accountId)) || !(await hit("contactByAddress", clientAddress(c)))) {
      throw tooMany();
    }
    const m = await saveContactMessage({ accountId: caller.accountId }, body.name, body.message);
    return answer(c, "POST /api/contactus-messages", { id: m.id });
  });
