/**
 * Members on the two machines (scripts/twoMachines/machines.ts): registered and logged in through
 * nginx, each from a loopback address of their own; their calls, through nginx or to one machine
 * itself, each naming the machine that served it; and their live sockets (`GET /api/events`
 * upgraded), with what each said and when.
 */

// @ts-types="@types/ws"
import WebSocket from "ws";
import { ACKNOWLEDGEMENTS } from "../../domain/texts.ts";
import type { MemberEvent } from "../../domain/shapes/events.ts";
import { type Machine, type TwoMachines, waitFor } from "./machines.ts";

/** A member's call: its status, body and the machine that served it. */
export interface Answer {
  status: number;
  // deno-lint-ignore no-explicit-any
  data: any;
  text: string;
  servedBy: "A" | "B" | "?";
  headers: Headers;
}

/** A member with a session, and the machine nginx sends their requests to. */
export interface Member {
  email: string;
  cookie: string;
  profileId: string;
  machine: "A" | "B";
  /** Their own address (a loopback address of their own: the per-address limits are each member's). */
  localAddress: string;
  client: Deno.HttpClient;
}

/** A call through nginx (or, with `direct`, to one machine itself), as a member's page makes it. */
export async function call(
  h: TwoMachines,
  who: { cookie?: string; client?: Deno.HttpClient } | null,
  method: string,
  path: string,
  init: { json?: unknown; form?: Record<string, string>; direct?: Machine } = {},
): Promise<Answer> {
  const origin = init.direct?.origin ?? h.front;
  const headers: Record<string, string> = {};
  if (who?.cookie) headers.cookie = who.cookie;
  if (method !== "GET") headers.origin = origin;
  let body: BodyInit | undefined;
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  } else if (init.form) {
    const form = new FormData();
    for (const [k, v] of Object.entries(init.form)) form.set(k, v);
    body = form;
  }
  // A member's own loopback address reaches nginx only; to a machine itself, the host's own address is used.
  const client = init.direct ? undefined : who?.client;
  const res = await fetch(origin + path, { method, headers, body, client } as RequestInit);
  const text = await res.text();
  let data: unknown = text;
  try {
    data = JSON.parse(text);
  } catch { /* not JSON */ }
  const servedBy = init.direct ? init.direct.name : h.machineAt(res.headers.get("x-lambda-upstream"));
  return { status: res.status, data, text, servedBy, headers: res.headers };
}

let memberCount = 0;

/**
 * Registers a member through nginx from their own loopback address (or `address`), logs them in
 * with the mailed link; their machine is the one nginx sends their session to.
 */
export async function register(h: TwoMachines, email: string, address?: string): Promise<Member> {
  const n = ++memberCount;
  const localAddress = address ?? `127.0.${100 + (n >> 8)}.${(n & 255) || 1}`;
  const client = Deno.createHttpClient({ localAddress });
  const acks = ACKNOWLEDGEMENTS.map((a) => a.text);
  const reg = await call(h, { client }, "POST", "/api/auth/register", { json: { email, acknowledgements: acks } });
  if (reg.status !== 202) throw new Error(`register ${email}: ${reg.status} ${reg.text}`);
  // Either machine's worker may send the mail: its link is in that instance's output.
  const linkAfter = new RegExp(`to ${email.replace(/[.+]/g, "\\$&")}:[^\\n]*\\n[\\s\\S]*?#token=([A-Za-z0-9_-]+)`);
  let token = "";
  await waitFor(
    () => Promise.resolve(!!(token = h.machines.map((m) => m.output.match(linkAfter)?.[1]).find(Boolean) ?? "")),
    `the login link for ${email}`,
    20_000,
  );
  const login = await call(h, { client }, "POST", "/api/auth", { form: { token } });
  if (login.status !== 200) throw new Error(`login ${email}: ${login.status} ${login.text}`);
  // The session cookie, as the browser keeps it (plain HTTP behind the proxy: `sid`).
  const sid = login.headers.getSetCookie().map((c) => c.split(";")[0]).find((c) => /^(__Host-)?sid=/.test(c));
  if (!sid) throw new Error(`no session cookie for ${email}`);
  const me = { cookie: sid, client };
  const settings = await call(h, me, "GET", "/api/settings");
  if (settings.status !== 200) throw new Error(`settings of ${email}: ${settings.status} ${settings.text}`);
  if (settings.servedBy === "?") throw new Error(`nginx did not name the machine that served ${email}`);
  return {
    email,
    cookie: me.cookie,
    profileId: settings.data.defaultProfileId,
    machine: settings.servedBy,
    localAddress,
    client,
  };
}

/** A socket the server answered with a status instead of upgrading (429: a feed cap). */
export class RefusedSocket extends Error {
  constructor(member: Member, readonly status: number) {
    super(`${member.email}'s socket was refused: ${status}`);
  }
}

/** What a live socket said, and when (`performance.now()`). */
export interface Said {
  event: string;
  data?: MemberEvent;
  t: number;
}

/** A member's live socket (`GET /api/events` upgraded), through nginx or to one machine itself. */
export class LiveSocket {
  readonly said: Said[] = [];
  /** The machine that took the socket. */
  servedBy: "A" | "B" | "?" = "?";
  /** Resolves when the socket closes: its code and when. */
  readonly closed: Promise<{ code: number; t: number }>;
  readonly member: Member;
  readonly #ws: WebSocket;
  #wake = () => {};

  private constructor(ws: WebSocket, member: Member) {
    this.#ws = ws;
    this.member = member;
    this.closed = new Promise((done) => {
      ws.on("close", (code: number) => {
        done({ code, t: performance.now() });
        this.#wake();
      });
    });
    ws.on("message", (raw: unknown) => {
      this.said.push({ ...JSON.parse(String(raw)), t: performance.now() });
      this.#wake();
    });
  }

  /** Opens `member`'s socket (through nginx unless `direct`); resolves once the server said ready. */
  static open(h: TwoMachines, member: Member, direct?: Machine): Promise<LiveSocket> {
    const origin = direct?.origin ?? h.front;
    const ws = new WebSocket(`${origin.replace("http", "ws")}/api/events`, {
      headers: { cookie: member.cookie, origin },
      // A member's own loopback address reaches nginx only.
      ...(direct ? {} : { localAddress: member.localAddress }),
    });
    const socket = new LiveSocket(ws, member);
    return new Promise((ready, fail) => {
      ws.on("upgrade", (res: { headers: Record<string, string | string[] | undefined> }) => {
        socket.servedBy = direct ? direct.name : h.machineAt(String(res.headers["x-lambda-upstream"] ?? ""));
      });
      ws.on("unexpected-response", (_req: unknown, res: { statusCode?: number }) => {
        fail(new RefusedSocket(member, res.statusCode ?? 0));
        ws.terminate();
      });
      ws.on("error", (e: Error) => fail(e));
      void socket.next((s) => s.event === "ready", 10_000).then((s) =>
        s ? ready(socket) : fail(new Error(`${member.email}'s socket never said ready`))
      );
    });
  }

  /** The first thing said (from `from` on) that `match` takes, waiting up to `withinMs`; null past it or once closed. */
  async next(match: (s: Said) => boolean, withinMs = 5_000, from = 0): Promise<Said | null> {
    const deadline = performance.now() + withinMs;
    for (;;) {
      const found = this.said.slice(from).find(match);
      if (found) return found;
      const left = deadline - performance.now();
      if (left <= 0 || this.#ws.readyState === WebSocket.CLOSED) return null;
      await new Promise<void>((r) => {
        const timer = setTimeout(r, left);
        this.#wake = () => {
          clearTimeout(timer);
          r();
        };
      });
    }
  }

  /** A member event for this socket's member that `match` takes, arrived at or after `t`. */
  event(match: (e: MemberEvent) => boolean, withinMs = 5_000): Promise<Said | null> {
    return this.next((s) => s.event === "member" && !!s.data && match(s.data), withinMs);
  }

  get open(): boolean {
    return this.#ws.readyState === WebSocket.OPEN;
  }

  /** Closes the socket (if open) and waits until it is closed. */
  async close(): Promise<void> {
    if (this.#ws.readyState !== WebSocket.CLOSED) this.#ws.close();
    await this.closed;
  }
}
