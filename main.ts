/** Assembles the app: middleware, the API sub-apps, static files and pages. */

import { Hono } from "hono";
import { compress } from "hono/compress";
import type { AppEnv } from "./routes/env.ts";
import { openPerAddress, originCheck, securityHeaders, session, toErrorResponse } from "./routes/middleware.ts";
import { metricsRoute, requestTelemetry } from "./routes/telemetry.ts";
import { errorBody } from "./routes/errors.ts";
import { account } from "./routes/api/account.ts";
import { apiDocsRoute } from "./routes/openapi.ts";
import { bodyLimit, JSON_BODY_LIMIT, UPLOAD_BODY_TIMEOUT_MS } from "./routes/bodylimit.ts";
import { system } from "./routes/api/system.ts";
import { auth } from "./routes/api/auth.ts";
import { passkeys } from "./routes/api/passkeys.ts";
import { safety } from "./routes/api/safety.ts";
import { presence } from "./routes/api/presence.ts";
import { settings } from "./routes/api/settings.ts";
import { contact } from "./routes/api/contact.ts";
import { admin } from "./routes/api/admin.ts";
import { positions } from "./routes/api/positions.ts";
import { profiles } from "./routes/api/profiles.ts";
import { pictures, UPLOAD_BODY_LIMIT } from "./routes/api/pictures.ts";
import { likes } from "./routes/api/likes.ts";
import { notes } from "./routes/api/notes.ts";
import { reports } from "./routes/api/reports.ts";
import { notifications } from "./routes/api/notifications.ts";
import { closeEventStreams, events } from "./routes/api/events.ts";
import { messages } from "./routes/api/messages.ts";
import { games } from "./routes/api/games.ts";
import { identify } from "./routes/api/identify.ts";
import { health } from "./routes/api/health.ts";
import { assets } from "./routes/assets.ts";
import { tiles } from "./routes/tiles.ts";
import { pages } from "./routes/pages/index.tsx";
import { notFoundPage, pageErrorResponse } from "./routes/pages/info.tsx";
import { config } from "./config/config.ts";
import { closeKv, openKv } from "./kv/db.ts";
import { loadPositionIndex, startPositionSync, stopPositionSync, writePositionSnapshot } from "./kv/positions.ts";
import { startWorkers } from "./workers/run.ts";
import { startKeptReads } from "./kv/kept.ts";
import { flushLimitCounts } from "./kv/ratelimit.ts";
import { startLiveListener } from "./routes/live.ts";

/** Builds the app. Tests call `createApp().request(...)` against a `:memory:` KV. */
export function createApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requestTelemetry());
  // Requests open at once per client address (slow bodies and event streams hold theirs open).
  app.use(openPerAddress());
  app.use(securityHeaders());
  app.use(compress());
  app.use(session());
  // Every body is limited while it is read: JSON and forms to 64 KB, a picture upload to its file
  // limit. After the session, so a page that refuses a body still renders as the caller's.
  // Each body must also arrive within BODY_TIMEOUT_MS (a picture within 2 minutes at least), else 408.
  app.use(bodyLimit({
    defaultBytes: JSON_BODY_LIMIT,
    routes: { "POST /api/profile-pic": UPLOAD_BODY_LIMIT },
    timeouts: { "POST /api/profile-pic": UPLOAD_BODY_TIMEOUT_MS },
  }));
  app.use(originCheck());

  app.route("/", metricsRoute());
  app.route("/api", system);
  app.route("/api", apiDocsRoute(() => app));
  app.route("/api/auth", auth);
  app.route("/api", passkeys);
  app.route("/api", safety);
  app.route("/api", presence);
  app.route("/api", settings);
  app.route("/api", account);
  app.route("/api", contact);
  app.route("/api/admin", admin);
  app.route("/api", positions);
  app.route("/api", profiles);
  app.route("/api", pictures);
  app.route("/api", likes);
  app.route("/api", notes);
  app.route("/api", reports);
  app.route("/api", notifications);
  app.route("/api", events);
  app.route("/api", messages);
  app.route("/api", games);
  app.route("/api", identify);
  app.route("/api", health);
  app.route("/", assets);
  // The map's tiles from this origin (routes/tiles.ts): the tile host never sees a member.
  app.route("/tiles", tiles);
  app.route("/", pages);

  app.notFound((c) =>
    c.req.path.startsWith("/api/")
      ? c.json(errorBody("not_found", "No such call.", c.get("requestId")), 404)
      : notFoundPage(c)
  );
  // The API answers its JSON error; a page that fails renders 'Ooops!' (spec §8), never raw JSON.
  app.onError((err, c) => c.req.path.startsWith("/api/") ? toErrorResponse(err, c) : pageErrorResponse(err, c));
  return app;
}

/** How long a SIGTERM may take before the process exits anyway. */
export const SHUTDOWN_DEADLINE_MS = 9_000;

if (import.meta.main) {
  const app = createApp();
  // `deno task dev` rebuilds the islands whenever --watch restarts the server.
  if (Deno.env.get("BUILD_ON_START") === "1") await (await import("./islands/build.ts")).build();
  await openKv();
  // The in-memory geo index of the nearby queries: load it before serving, then follow other instances.
  const loaded = await loadPositionIndex();
  console.log(
    `positions: ${loaded.members} visible members indexed in ${loaded.ms.toFixed(0)} ms (from ${loaded.from})`,
  );
  startPositionSync();
  // Sessions, accounts, blocks and withdrawals kept a few seconds in this instance; a change
  // anywhere reaches it through the change log (kv/kept.ts).
  startKeptReads();
  const workers = config.workersInProcess ? startWorkers() : null;
  const server = Deno.serve(
    { port: config.port, onListen: ({ port }) => console.log(`listening on http://localhost:${port}`) },
    app.fetch,
  );
  // Event sockets on a port of their own when LIVE_PORT is set (routes/live.ts): 10 KB a socket, not 22.
  const live = config.livePort === null ? null : await startLiveListener(app, {
    port: config.livePort,
    hostname: config.liveHost,
    publicPort: config.livePublicPort ?? undefined,
    mainPort: server.addr.port,
  });
  if (live) console.log(`live sockets on port ${live.port}`);
  // Graceful shutdown: stop taking connections, send open event streams elsewhere, let running
  // jobs finish (a job still running at the deadline keeps its lease only until it runs out, so
  // another instance takes it within seconds), stop following the position log, then exit.
  Deno.addSignalListener("SIGTERM", async () => {
    console.log("SIGTERM: draining");
    setTimeout(() => {
      console.error("shutdown: deadline reached, exiting");
      Deno.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    closeEventStreams();
    // The index's snapshot, so the next start (this instance's or another's) loads in seconds.
    await Promise.allSettled([server.shutdown(), live?.close(), workers?.stop(), writePositionSnapshot()]);
    await stopPositionSync();
    await flushLimitCounts().catch(() => {});
    closeKv();
    console.log("shutdown: done");
    Deno.exit(0);
  });
}
