/** Admin calls: role counts and the 'Create 20 Users' test action. ADMIN role only. */

import { Hono } from "hono";
import * as z from "zod";
import type { AppEnv } from "../env.ts";
import { parseWith } from "../validate.ts";
import { requireAdmin } from "../middleware.ts";
import { createAccount, roleCounts } from "../../kv/accounts.ts";
import { randomToken } from "../../kv/ids.ts";

const NAMES = ["Alex", "Sam", "Jordan", "Robin", "Casey", "Drew", "Jamie", "Kai", "Lee", "Morgan", "Noa", "Quinn"];

export const admin = new Hono<AppEnv>()
  .get("/dashboard/userRoleCounts", async (c) => {
    requireAdmin(c);
    return c.json(await roleCounts());
  })
  .post("/testUsersCreate/:count", async (c) => {
    requireAdmin(c);
    const count = parseWith(z.coerce.number().int().min(1).max(100), c.req.param("count"));
    let created = 0;
    for (let i = 0; i < count; i++) {
      const tag = randomToken(6).toLowerCase().replace(/[^a-z0-9]/g, "x");
      const a = await createAccount({
        email: `test-${tag}@test.invalid`,
        name: `${NAMES[i % NAMES.length]} ${tag.slice(0, 4)}`,
        roles: ["USER", "TEST"],
      });
      if (a) created++;
    }
    return c.json({ created }, 201);
  });
