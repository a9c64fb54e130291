/**
 * The app as `main.ts` serves it (the position index loaded and followed, sessions kept), for
 * bench/http.ts, with levers turned off by the environment so a run measures before and after
 * side by side: `KEPT_READS=0` reads every session, account, block list and withdrawal from KV
 * (kv/kept.ts); `GROUP_COMMIT=0` commits each like, message and read alone (kv/groupCommit.ts). Prints "listening on
 * http://localhost:PORT" like main.ts.
 */

import { createApp } from "../main.ts";
import { openKv } from "../kv/db.ts";
import { loadPositionIndex, startPositionSync } from "../kv/positions/mod.ts";
import { startKeptReads } from "../kv/kept.ts";
import { setGroupCommit } from "../kv/groupCommit.ts";
import { keepConfigReads } from "../config/config.ts";

// Exits on SIGINT so a `--cpu-prof` run writes its profile (bench/http.ts --cpu-prof).
Deno.addSignalListener("SIGINT", () => Deno.exit(0));
// As main.ts serves: each environment variable read once.
keepConfigReads();
await openKv();
await loadPositionIndex();
startPositionSync();
if (Deno.env.get("KEPT_READS") !== "0") startKeptReads();
if (Deno.env.get("GROUP_COMMIT") === "0") setGroupCommit(false);
Deno.serve(
  {
    port: Number(Deno.env.get("PORT") ?? 0),
    onListen: ({ port }) => console.log(`listening on http://localhost:${port}`),
  },
  createApp().fetch,
);
