/**
 * The live listener (`LIVE_PORT`): the members' event sockets (`GET /api/events` with
 * `Upgrade: websocket`) on a port of their own, served by node:http and the `ws` library, where an
 * open socket costs about 10 KB of server memory against 22 KB on Deno's server (bench/live.ts).
 *
 * Each upgrade request goes through the app itself first, as if it had reached the main port
 * (same middleware: session, rate limits, request id, origin check, logs, metrics); the events
 * route then hands the socket's wiring here instead of upgrading through `Deno.serve`. Anything
 * the app answers otherwise (401 without a session, 403 from another site) is written back as
 * that HTTP answer. Nothing else is served on this port.
 */

import http from "node:http";
import type { Duplex } from "node:stream";
// @ts-types="@types/ws"
import type { WebSocket as WsSocket } from "ws";
import type { Hono } from "hono";
import type { AppEnv } from "./env.ts";
import { type EventSocketPort, type EventSocketWiring, markLiveUpgrade } from "./api/events.ts";
import { setLivePort } from "./livePort.ts";
import { firstUse } from "../domain/firstUse.ts";

/** ws, loaded only by an instance that listens apart for event sockets (LIVE_PORT; domain/firstUse.ts). */
const wsModule = firstUse(() => import("ws"));

/** How often the listener pings its sockets; one that missed the last ping is dropped. */
const PING_EVERY_MS = 30_000;

export interface LiveListener {
  port: number;
  /** Stops taking sockets and closes the listener (open sockets were told to reconnect before). */
  close(): Promise<void>;
}

/**
 * Starts the live listener on `port` (0: any free port) and `hostname` for `app`, whose pages are
 * served on `mainPort`: a request is presented to the app with that port in its address and Host,
 * so cookies, origin checks and links read as on the main port. Pages are told to open their
 * socket on `publicPort` (a proxy's, in front of this one) or else on `port`.
 */
export async function startLiveListener(
  app: Hono<AppEnv>,
  options: { port: number; hostname?: string; mainPort: number; publicPort?: number },
): Promise<LiveListener> {
  const { WebSocketServer } = await wsModule.load();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  const alive = new WeakSet<WsSocket>();
  const server = http.createServer((_req, res) => {
    res.writeHead(404, { "content-type": "text/plain" }).end("Only the event socket is served here.");
  });

  server.on("upgrade", (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    void upgrade(req, socket, head).catch(() => refuse(socket, 500));
  });

  async function upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer) {
    if (new URL(req.url ?? "/", "http://x").pathname !== "/api/events") return refuse(socket, 404);
    const host = (req.headers.host ?? "localhost").replace(/:\d+$/, "");
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || name === "host") continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    headers.set("host", `${host}:${options.mainPort}`);
    const request = new Request(`http://${host}:${options.mainPort}${req.url ?? "/"}`, { headers });
    let wiring: ((port: EventSocketPort) => EventSocketWiring) | undefined;
    markLiveUpgrade(request, (w) => wiring = w);
    const remote = req.socket;
    const res = await app.fetch(request, {
      remoteAddr: { hostname: remote.remoteAddress ?? "", port: remote.remotePort ?? 0, transport: "tcp" },
    });
    if (!wiring) {
      await res.body?.cancel();
      return refuse(socket, res.status);
    }
    const wire = wiring;
    wss.handleUpgrade(req, socket, head, (ws) => {
      const ends = wire({
        send: (text) => ws.send(text),
        close: (code, reason) => ws.close(code, reason),
        isOpen: () => ws.readyState === ws.OPEN,
      });
      alive.add(ws);
      ws.on("pong", () => alive.add(ws));
      ws.on("close", ends.closed);
      ws.on("error", () => {});
      ends.opened();
    });
  }

  const pings = setInterval(() => {
    for (const ws of wss.clients) {
      if (!alive.has(ws)) {
        ws.terminate();
        continue;
      }
      alive.delete(ws);
      ws.ping();
    }
  }, PING_EVERY_MS);

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.hostname ?? "0.0.0.0", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : options.port;
      // Pages connect where they are told: the proxy's port in front of this one, if there is one.
      setLivePort(options.publicPort ?? port);
      resolve({
        port,
        async close() {
          setLivePort(null);
          clearInterval(pings);
          const closed = new Promise<void>((done) => server.close(() => done()));
          // Sockets told to reconnect close within a moment; the rest are cut after a second.
          for (let waited = 0; wss.clients.size > 0 && waited < 1000; waited += 50) {
            await new Promise((r) => setTimeout(r, 50));
          }
          for (const ws of wss.clients) ws.terminate();
          wss.close();
          await closed;
        },
      });
    });
  });
}

/** Writes a plain HTTP answer on a socket that will not be upgraded, and ends it. */
function refuse(socket: Duplex, status: number) {
  if (socket.destroyed) return;
  const text = http.STATUS_CODES[status] ?? "Error";
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
