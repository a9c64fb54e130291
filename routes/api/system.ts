/** Health and version: GET /api/ping, GET /api/version. */

import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { backendVersion } from "../../config/version.ts";

export const system = new Hono<AppEnv>()
  .get("/ping", (c) => c.json({ pong: true, ts: Date.now() }))
  .get("/version", (c) => c.json(backendVersion()));
