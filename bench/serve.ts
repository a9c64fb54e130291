/**
 * The app as `main.ts` serves it (the position index loaded and followed, sessions kept), for
 * bench/http.ts, with levers turned off by the environment so a run measures before and after
 * side by side: `SESSION_CACHE=0` reads every session from KV. Prints "listening on
 * http://localhost:PORT" like main.ts.
 */

import { createApp } from "../main.ts";
import { openKv } from "../kv/db.ts";
import { loadPositionIndex, startPositionSync } from "../kv/positions.ts";
import { startSessionCache } from "../kv/sessions.ts";

await openKv();
await loadPositionIndex();
startPositionSync();
if (Deno.env.get("SESSION_CACHE") !== "0") startSessionCache();
Deno.serve(
  {
    port: Number(Deno.env.get("PORT") ?? 0),
    onListen: ({ port }) => console.log(`listening on http://localhost:${port}`),
  },
  createApp().fetch,
);
