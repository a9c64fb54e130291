/** Assembles the app: middleware, the API sub-apps, static files and pages. */

import { type Context, Hono } from "hono";
import { stopCompressThread } from "./routes/compression.ts";
import type { AppEnv } from "./routes/env.ts";
import { toErrorResponse } from "./routes/middleware.ts";
import { edge } from "./routes/edge.ts";
import { keepRouteMatches } from "./routes/routeMatches.ts";
import { metricsRoute } from "./routes/telemetry.ts";
import { errorBody } from "./routes/errors.ts";
import { account } from "./routes/api/account.ts";
import { apiDocsRoute } from "./routes/openapi.ts";
import { JSON_BODY_LIMIT, UPLOAD_BODY_TIMEOUT_MS } from "./routes/bodylimit.ts";
import { SECRET_PICTURE_MAX_BYTES } from "./domain/secretPictures.ts";
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
import { hotOrNot } from "./routes/api/hotOrNot.ts";
import { dungeon } from "./routes/api/dungeon.ts";
import { secretChats } from "./routes/api/secretChats.ts";
import { health } from "./routes/api/health.ts";
import { assets } from "./routes/assets.ts";
import { tiles } from "./routes/tiles.ts";
import { pages } from "./routes/pages/index.tsx";
import { notFoundPage, pageErrorResponse } from "./routes/pages/info.tsx";
import { config, keepConfigReads, proxyExposureWarning } from "./config/config.ts";
import { closeKv, openKv } from "./kv/db.ts";
import { loadPositionIndex, startPositionSync, stopPositionSync, writePositionSnapshot } from "./kv/positions/mod.ts";
import { startWorkers } from "./workers/run.ts";
import { startHealthSpendFlush } from "./workers/health.ts";
import { startKeptReads } from "./kv/kept.ts";
import { flushLimitCounts } from "./kv/ratelimit.ts";
import { startLiveListener } from "./routes/live.ts";

/** Builds the app. Tests call `createApp().request(...)` against a `:memory:` KV. */
export function createApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // The API answers its JSON error; a page that fails renders 'Ooops!' (spec §8), never raw JSON.
  const onError = (err: Error, c: Context<AppEnv>) =>
    c.req.path.startsWith("/api/") ? toErrorResponse(err, c) : pageErrorResponse(err, c);
  // Every request's middleware in one layer (routes/edge.ts), in this order: telemetry (request id,
  // metrics, log); the requests open at once per client address (slow bodies and event streams
  // hold theirs open); the session; body limits; the origin check; and on the answer, compression
  // (JSON from 1 KB in Brotli or gzip, the large ones on a thread of their own; other answers by
  // Hono's compress()) and the security headers.
  const first = edge({
    // Every body is limited while it is read: JSON and forms to 64 KB, a picture upload to its file
    // limit. After the session, so a page that refuses a body still renders as the caller's.
    // Each body must also arrive within BODY_TIMEOUT_MS (a picture within 2 minutes at least), else 408.
    bodyLimits: {
      defaultBytes: JSON_BODY_LIMIT,
      routes: { "POST /api/profile-pic": UPLOAD_BODY_LIMIT, "POST /api/secret/pictures": SECRET_PICTURE_MAX_BYTES },
      timeouts: {
        "POST /api/profile-pic": UPLOAD_BODY_TIMEOUT_MS,
        "POST /api/secret/pictures": UPLOAD_BODY_TIMEOUT_MS,
      },
    },
    onError,
  });
  app.use(first);

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
  app.route("/api", hotOrNot);
  app.route("/api", dungeon);
  app.route("/api", secretChats);
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
  app.onError(onError);
  // Each method and path matched once (routes/routeMatches.ts), every route being added; the
  // edge and a route answered as one handler.
  keepRouteMatches(app, { first, onError });
  return app;
}

/** How long a SIGTERM may take before the process exits anyway. */
export const SHUTDOWN_DEADLINE_MS = 9_000;

/** Which process this is: the supervisor of `WEB_INSTANCES` children, one of them, or the only one. */
function processRole(): { supervise: number } | { instance: number | null } {
  const index = config.webInstance;
  if (index !== null) return { instance: index };
  return config.webInstances > 1 ? { supervise: config.webInstances } : { instance: null };
}

/** A crashed child is started again after this long (doubled while it keeps crashing, to 30 s). */
const RESTART_AFTER_MS = 500;

/**
 * Serves on every core: `count` children of this file on one port (`reusePort`, the kernel spreads
 * connections), each with its own position index and kept reads fresh through the change log as
 * separate instances are. The first child runs the job workers, the live listener and the index's
 * snapshots; a crashed child is started again; SIGTERM is forwarded and each child drains.
 */
async function supervise(count: number) {
  if (Deno.env.get("BUILD_ON_START") === "1") await (await import("./islands/build.ts")).build();
  // Port 0 (any free port) resolved once here, so every child takes the same one.
  let port = config.port;
  if (port === 0) {
    const probe = Deno.listen({ hostname: config.host, port: 0 });
    port = probe.addr.port;
    probe.close();
  }
  let stopping = false;
  const children = new Map<number, Deno.ChildProcess>();
  const start = (index: number, delay = RESTART_AFTER_MS) => {
    const child = new Deno.Command(Deno.execPath(), {
      // reusePort is behind --unstable-net (Linux spreads one port's connections over the children).
      args: ["run", "-A", "--unstable-net", new URL(import.meta.url).pathname],
      env: {
        WEB_INSTANCE: String(index),
        PORT: String(port),
        BUILD_ON_START: "0",
        WORKERS: config.workersInProcess && index === 0 ? "1" : "0",
      },
      // A child reads its stdin to its end: the end is this process gone, even by SIGKILL.
      stdin: "piped",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    children.set(index, child);
    console.log(`instance ${index} started (pid ${child.pid})`);
    const since = Date.now();
    void child.status.then((status) => {
      if (stopping) return;
      // A child that lived a minute crashed once; one that keeps crashing waits longer each time.
      const next = Date.now() - since > 60_000 ? RESTART_AFTER_MS : Math.min(delay * 2, 30_000);
      console.log(`instance ${index} exited (code ${status.code}), starting it again in ${delay} ms`);
      setTimeout(() => stopping || start(index, next), delay);
    });
  };
  console.log(`supervising ${count} web instances on port ${port}`);
  warnOfExposure();
  for (let i = 0; i < count; i++) start(i);
  const stop = async (signal: Deno.Signal) => {
    if (stopping) return;
    stopping = true;
    for (const child of children.values()) {
      try {
        child.kill(signal);
      } catch { /* already gone */ }
    }
    // A child ended by the signal itself was stopped before its own handler was in place: nothing to drain.
    const clean = await Promise.all(
      [...children.values()].map((c) => c.status.then((s) => s.code === 0 || s.signal === "SIGTERM")),
    );
    Deno.exit(clean.every(Boolean) ? 0 : 1);
  };
  Deno.addSignalListener("SIGTERM", () => void stop("SIGTERM"));
  Deno.addSignalListener("SIGINT", () => void stop("SIGTERM"));
}

/** One web process: the app on `config.port`; `instance` is its number under a supervisor, else null. */
async function serve(instance: number | null) {
  // This process's environment is set: each variable is read once (several are read per request).
  keepConfigReads();
  // A stop asked while starting is carried out once started (a supervisor may stop a child it just restarted).
  let drain: ((why: string) => Promise<void>) | null = null;
  let stopAsked: string | null = null;
  const stop = (why: string) => drain ? void drain(why) : stopAsked ??= why;
  Deno.addSignalListener("SIGTERM", () => stop("SIGTERM"));
  if (instance !== null) {
    // The supervisor sends SIGTERM; a terminal's Ctrl-C reaches the whole group and it forwards that.
    Deno.addSignalListener("SIGINT", () => {});
    // The end of stdin is the supervisor gone (even killed): drain rather than serve unsupervised.
    void (async () => {
      try {
        for await (const _ of Deno.stdin.readable) { /* nothing is sent */ }
      } catch (e) {
        // A pipe that cannot be read is no sign of the supervisor's end: serve on, and say so.
        console.error(`instance ${instance}: stdin unreadable, the supervisor's end will not be seen: ${e}`);
        return;
      }
      stop("supervisor gone");
    })();
  }
  const app = createApp();
  const first = instance === null || instance === 0;
  // `deno task dev` rebuilds the islands whenever --watch restarts the server.
  if (Deno.env.get("BUILD_ON_START") === "1") await (await import("./islands/build.ts")).build();
  await openKv();
  // The in-memory geo index of the nearby queries: load it before serving, then follow other instances.
  const loaded = await loadPositionIndex();
  console.log(
    `positions: ${loaded.members} visible members indexed in ${loaded.ms.toFixed(0)} ms (from ${loaded.from})`,
  );
  // One process of a machine writes the index's snapshot: they would all write the same.
  startPositionSync({ snapshots: first });
  // Sessions, accounts, profiles and block lists kept a minute in this instance, withdrawals a few
  // seconds; a change anywhere reaches it through the change log (kv/kept.ts).
  startKeptReads();
  const workers = config.workersInProcess ? startWorkers() : null;
  // Under a supervisor, it said so once for every instance.
  if (instance === null) warnOfExposure();
  const bound = Deno.env.get("HOST") ? ` (bound to ${config.host})` : "";
  // The health reports' spends this process takes, written at fixed clock times (kv/healthSpends.ts).
  const healthSpends = startHealthSpendFlush();
  const server = Deno.serve(
    {
      hostname: config.host,
      port: config.port,
      reusePort: instance !== null,
      onListen: ({ port }) => console.log(`listening on http://localhost:${port}${bound}`),
    },
    app.fetch,
  );
  // Event sockets on a port of their own when LIVE_PORT is set (routes/live.ts): 10 KB a socket, not 22.
  // Under a supervisor the first instance owns that port; events reach it through the change log.
  const live = config.livePort === null || !first ? null : await startLiveListener(app, {
    port: config.livePort,
    hostname: config.liveHost,
    publicPort: config.livePublicPort ?? undefined,
    mainPort: server.addr.port,
  });
  if (live) console.log(`live sockets on port ${live.port}`);
  // Graceful shutdown: stop taking connections, send open event streams elsewhere, let running
  // jobs finish (a job still running at the deadline keeps its lease only until it runs out, so
  // another instance takes it within seconds), stop following the position log, then exit.
  let draining = false;
  drain = async (why: string) => {
    if (draining) return;
    draining = true;
    console.log(`${why}: draining`);
    setTimeout(() => {
      console.error("shutdown: deadline reached, exiting");
      Deno.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    closeEventStreams();
    // The index's snapshot, so the next start (this instance's or another's) loads in seconds.
    await Promise.allSettled([server.shutdown(), live?.close(), workers?.stop(), first && writePositionSnapshot()]);
    await stopPositionSync();
    await flushLimitCounts().catch(() => {});
    // After the server's shutdown: no report comes after this flush.
    await healthSpends.stop().catch(() => {});
    stopCompressThread();
    closeKv();
    console.log("shutdown: done");
    Deno.exit(0);
  };
  if (stopAsked) await drain(stopAsked);
}

/** Warns the operator when callers may reach the main port around the trusted proxies (HOST, TRUST_PROXY). */
function warnOfExposure() {
  const warning = proxyExposureWarning(config.host, config.trustProxy);
  if (warning) console.warn(`warning: ${warning}`);
}

if (import.meta.main) {
  const role = processRole();
  if ("supervise" in role) await supervise(role.supervise);
  else await serve(role.instance);
}
