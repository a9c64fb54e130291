/**
 * `deno task two-machines [--rounds N] [--rtt-ms 5]`: the app on two machines behind one nginx,
 * sharing one remote KV, checked through the proxy with real members. As root it makes two Linux
 * network namespaces (each its own veth link and address: machine A at 10.77.N.2, B at 10.77.N.6,
 * the host at 10.77.N.1 and .5), runs one app instance in each (`ip netns exec`), a KV Connect
 * test server on the host (scripts/kvConnect.ts, `--rtt-ms` added to every answer) that both use
 * through `KV_URL`, and one nginx on the host in front of both with the block docs/operations.md
 * documents (its `location /` as written, its upstream a group of the two machines, hashed on the
 * session cookie so each member's requests and live socket stay on one machine while it is up).
 * Every answer names the machine that served it (nginx adds its upstream's address), so each
 * check says which instance served which member. Then it runs `CHECKS` and prints what each
 * measured. Namespaces, links and processes are removed after, on failure and on Ctrl-C too.
 * tests/two_machines_test.ts runs the same checks in `deno task test` (skipped, saying why, when
 * not root or without `ip netns` or nginx).
 */

// @ts-types="@types/ws"
import WebSocket from "ws";
import { ACKNOWLEDGEMENTS } from "../domain/texts.ts";
import type { MemberEvent } from "../domain/shapes/events.ts";
import { type Member as BurstMember, missingReason, planBurst, send } from "./chaos.ts";
import { mulberry32 } from "../kv/random.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const NGINX = "/usr/sbin/nginx";
/** Every namespace and host-side link this tool makes starts so, followed by its process id and a or b. */
const PREFIX = "l2m";
/** The port each instance listens on inside its namespace (each namespace has its own ports). */
const APP_PORT = 8000;

/** The temp dirs (nginx's configuration and logs) start so, followed by the process id. */
const TEMP_PREFIX = "lambda-two-machines-";

/** The cleanups of the machines this process has made and not yet removed. */
const cleanups = new Set<() => Promise<void>>();

/** Removes every machine this process made (for a signal: Ctrl-C during a run or while the machines start). */
export async function stopAll(): Promise<void> {
  await Promise.all([...cleanups].map((stop) => stop()));
}

/** Why the two machines cannot be made here (not root, no `ip netns`, no nginx), or null. */
export async function unavailable(): Promise<string | null> {
  if (Deno.build.os !== "linux") return "network namespaces are Linux only";
  if (Deno.uid() !== 0) return "not root (network namespaces need root)";
  const ip = await new Deno.Command("ip", { args: ["netns", "list"], stdout: "null", stderr: "null" }).output()
    .catch(() => null);
  if (!ip?.success) return "`ip netns` is not available (iproute2)";
  if (!(await Deno.stat(NGINX).then(() => true, () => false))) return `${NGINX} is not installed`;
  return null;
}

/** Runs `ip` (or another command) and throws with its stderr when it fails. */
async function run(cmd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  const dec = new TextDecoder();
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")}: ${dec.decode(out.stderr).trim()}`);
  return dec.decode(out.stdout);
}

/** Runs a command whose failure does not matter (cleaning up what may be gone already). */
async function tryRun(cmd: string, ...args: string[]): Promise<void> {
  await new Deno.Command(cmd, { args, stdout: "null", stderr: "null" }).output().catch(() => {});
}

function freePort(hostname = "127.0.0.1"): number {
  const l = Deno.listen({ hostname, port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** Removes the namespaces and links an earlier run left behind when it was killed (its process is gone). */
async function removeStale(): Promise<void> {
  const names = (await run("ip", "netns", "list")).split("\n").map((l) => l.split(" ")[0]);
  for (const ns of names) {
    const m = ns.match(new RegExp(`^${PREFIX}(\\d+)[ab]$`));
    if (!m || await Deno.stat(`/proc/${m[1]}`).then(() => true, () => false)) continue;
    // The instance that run started in its namespace, by its process id.
    for (const pid of (await run("ip", "netns", "pids", ns).catch(() => "")).split("\n").filter(Boolean)) {
      try {
        Deno.kill(Number(pid), "SIGKILL");
      } catch { /* gone */ }
    }
    await tryRun("ip", "netns", "del", ns);
    await tryRun("ip", "link", "del", ns);
  }
  const tmp = Deno.env.get("TMPDIR") ?? "/tmp";
  for await (const e of Deno.readDir(tmp)) {
    const pid = e.name.startsWith(TEMP_PREFIX) ? e.name.slice(TEMP_PREFIX.length).split("-")[0] : "";
    if (!/^\d+$/.test(pid) || await Deno.stat(`/proc/${pid}`).then(() => true, () => false)) continue;
    await Deno.remove(`${tmp}/${e.name}`, { recursive: true }).catch(() => {});
  }
}

/** A third address byte no interface of this host uses in 10.77.0.0/16. */
async function freeSubnet(): Promise<number> {
  const used = await run("ip", "-o", "-4", "addr");
  for (let i = 0; i < 250; i++) {
    const n = 100 + (Deno.pid + i) % 150;
    if (!used.includes(`10.77.${n}.`)) return n;
  }
  throw new Error("no free 10.77.N.0/24 subnet for the two machines");
}

/** One app instance in a network namespace of its own. */
export interface Machine {
  name: "A" | "B";
  /** Its namespace (and its host-side link's name). */
  ns: string;
  /** The host's address on its link: what the instance sees nginx connect from. */
  hostSide: string;
  /** Its own address, reachable from the host only. */
  address: string;
  /** `http://address:port`: the instance itself, bypassing nginx. */
  origin: string;
  child?: Deno.ChildProcess;
  /** What the instance printed (stdout and stderr), the last 200 KB. */
  output: string;
  /** SIGKILLs the instance (as a machine lost), waits until it is gone. */
  kill(): Promise<void>;
}

/** The two machines, the store and the proxy. */
export interface TwoMachines {
  /** nginx's origin: what members use. */
  front: string;
  machines: [Machine, Machine];
  /** Which machine an upstream address (`10.77.N.2:8000`) is, or "?". */
  machineAt(upstream: string | null | undefined): "A" | "B" | "?";
  kvUrl: string;
  /** nginx's error log so far (for a failure's message). */
  nginxLog(): Promise<string>;
  /** Stops everything and removes namespaces, links and temp files (idempotent). */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Milliseconds the KV Connect server adds to every answer. */
  rttMs?: number;
  /** More environment for both instances. */
  env?: Record<string, string>;
  log?: (line: string) => void;
}

/** The nginx block of docs/operations.md for the front: plain HTTP on `port`, its upstream the group `upstream`. */
async function frontBlock(port: number, upstream: string): Promise<string> {
  const doc = await Deno.readTextFile(new URL("../docs/operations.md", import.meta.url));
  const block = doc.match(/<!-- nginx:begin -->\s*```nginx\n([\s\S]*?)```\s*<!-- nginx:end -->/)?.[1];
  if (!block) throw new Error("docs/operations.md has no nginx block between its markers");
  const replacements: [string | RegExp, string][] = [
    // Plain HTTP on loopback: TLS is tests/e2e/proxy_test.ts's subject, not this one's.
    ["listen 443 ssl;", `listen 127.0.0.1:${port};`],
    [/\n\s*ssl_certificate\s[^\n]*/, ""],
    [/\n\s*ssl_certificate_key\s[^\n]*/, ""],
    ["proxy_pass http://127.0.0.1:8000;", `proxy_pass http://${upstream};`],
    // Each answer names the machine that served it.
    ["location / {", "location / {\n        add_header X-Lambda-Upstream $upstream_addr always;"],
  ];
  let text = block;
  for (const [from, to] of replacements) {
    const next = text.replace(from, to);
    if (next === text) throw new Error(`the documented nginx block has no ${from}`);
    text = next;
  }
  return text;
}

/**
 * Makes the two machines, the store and the proxy, and waits until all answer. On any failure
 * what was made is removed before the error is thrown.
 */
export async function startTwoMachines(opts: StartOptions = {}): Promise<TwoMachines> {
  const log = opts.log ?? (() => {});
  await removeStale();
  const undo: (() => Promise<void>)[] = [];
  // One cleanup, however many ask for it (a signal and the run's own end): each waits for all of it.
  let stopping: Promise<void> | undefined;
  const stop = () =>
    stopping ??= (async () => {
      for (let u = undo.pop(); u; u = undo.pop()) await u().catch(() => {});
      cleanups.delete(stop);
    })();
  cleanups.add(stop);
  try {
    const n = await freeSubnet();
    const dir = await Deno.makeTempDir({ prefix: `${TEMP_PREFIX}${Deno.pid}-` });
    undo.push(() => Deno.remove(dir, { recursive: true }));
    // nginx's workers (nobody, under root) read the configuration here.
    await Deno.chmod(dir, 0o755);

    // The links: host 10.77.N.1 <-> A 10.77.N.2, host 10.77.N.5 <-> B 10.77.N.6 (two /30s).
    const machines = (["A", "B"] as const).map((name, i): Machine => {
      const base = i * 4;
      const m: Machine = {
        name,
        ns: `${PREFIX}${Deno.pid}${name.toLowerCase()}`,
        hostSide: `10.77.${n}.${base + 1}`,
        address: `10.77.${n}.${base + 2}`,
        origin: `http://10.77.${n}.${base + 2}:${APP_PORT}`,
        output: "",
        async kill() {
          try {
            m.child?.kill("SIGKILL");
          } catch { /* gone */ }
          await m.child?.status;
        },
      };
      return m;
    }) as [Machine, Machine];
    for (const m of machines) {
      const inner = `${m.ns}i`;
      await run("ip", "netns", "add", m.ns);
      undo.push(() => tryRun("ip", "netns", "del", m.ns));
      await run("ip", "link", "add", m.ns, "type", "veth", "peer", "name", inner);
      undo.push(() => tryRun("ip", "link", "del", m.ns));
      await run("ip", "link", "set", inner, "netns", m.ns);
      await run("ip", "addr", "add", `${m.hostSide}/30`, "dev", m.ns);
      await run("ip", "link", "set", m.ns, "up");
      await run("ip", "-n", m.ns, "link", "set", inner, "name", "eth0");
      await run("ip", "-n", m.ns, "addr", "add", `${m.address}/30`, "dev", "eth0");
      await run("ip", "-n", m.ns, "link", "set", "eth0", "up");
      await run("ip", "-n", m.ns, "link", "set", "lo", "up");
      // The host is each machine's way out: B reaches the store on A's side of the host through it.
      await run("ip", "-n", m.ns, "route", "add", "default", "via", m.hostSide);
      log(`machine ${m.name}: namespace ${m.ns}, address ${m.address} (host side ${m.hostSide})`);
    }

    // The store: a KV Connect server on the host, on A's host-side address (B gets there by its route).
    const token = `two-machines-${crypto.randomUUID()}`;
    const kvPort = freePort(machines[0].hostSide);
    const kv = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        `${ROOT}scripts/kvConnect.ts`,
        "--hostname",
        machines[0].hostSide,
        "--port",
        String(kvPort),
        "--path",
        ":memory:",
        "--rtt-ms",
        String(opts.rttMs ?? 5),
        "--token",
        token,
        "--exit-with-stdin",
      ],
      stdin: "piped",
      stdout: "null",
      stderr: "inherit",
    }).spawn();
    const kvStdin = kv.stdin.getWriter();
    undo.push(async () => {
      await kvStdin.close().catch(() => {});
      try {
        kv.kill("SIGKILL");
      } catch { /* gone */ }
      await kv.status;
    });
    const kvUrl = `http://${machines[0].hostSide}:${kvPort}/db/twomachines`;
    await waitFor(async () => {
      const r = await fetch(kvUrl, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ supportedVersions: [2, 3] }),
      });
      await r.body?.cancel();
      return r.ok;
    }, "the KV Connect server");
    log(`store: ${kvUrl} (${opts.rttMs ?? 5} ms added to every answer)`);

    // One instance in each namespace, both on the store.
    for (const m of machines) {
      const child = new Deno.Command("ip", {
        args: ["netns", "exec", m.ns, Deno.execPath(), "run", "-A", `${ROOT}main.ts`],
        cwd: ROOT,
        env: {
          PORT: String(APP_PORT),
          HOST: m.address,
          WEB_INSTANCES: "1",
          KV_URL: kvUrl,
          KV_PATH: "",
          DENO_KV_ACCESS_TOKEN: token,
          // nginx connects from the host's side of this machine's link.
          TRUST_PROXY: m.hostSide,
          LOG_REQUESTS: "0",
          // Login links are read from the instances' output (the dev outbox page is for loopback callers).
          DEV_OUTBOX_PRINT: "1",
          SMTP_URL: "",
          PUBLIC_ORIGIN: "",
          ...opts.env,
        },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      m.child = child;
      undo.push(() => m.kill());
      for (const stream of [child.stdout, child.stderr]) {
        void stream.pipeThrough(new TextDecoderStream()).pipeTo(
          new WritableStream({ write: (s) => void (m.output = (m.output + s).slice(-200_000)) }),
        ).catch(() => {});
      }
    }
    for (const m of machines) {
      await waitFor(
        async () => {
          const r = await fetch(`${m.origin}/api/ping`);
          await r.body?.cancel();
          return r.ok;
        },
        `instance ${m.name} at ${m.origin}`,
        60_000,
        () => m.output,
      );
      log(`instance ${m.name}: ${m.origin}, pid ${m.child!.pid}`);
    }

    // nginx on the host, in front of both.
    const port = freePort();
    const upstream = "lambda_machines";
    await Deno.writeTextFile(
      `${dir}/lambda.conf`,
      `# The two machines; a member's session cookie picks one (sticky while it is up, the other when it is not).
map $http_cookie $lambda_session {
    "~(?:^|;\\s*)(?:__Host-)?sid=(?<sid>[^;]+)" $sid;
    default "";
}
upstream ${upstream} {
    hash $lambda_session consistent;
    server ${machines[0].address}:${APP_PORT} max_fails=1 fail_timeout=30s;
    server ${machines[1].address}:${APP_PORT} max_fails=1 fail_timeout=30s;
}
${await frontBlock(port, upstream)}`,
    );
    await Deno.writeTextFile(
      `${dir}/nginx.conf`,
      `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 512; }
http {
    access_log off;
    client_body_temp_path ${dir}/tmp-body;
    proxy_temp_path ${dir}/tmp-proxy;
    fastcgi_temp_path ${dir}/tmp-fastcgi;
    uwsgi_temp_path ${dir}/tmp-uwsgi;
    scgi_temp_path ${dir}/tmp-scgi;
    include ${dir}/lambda.conf;
}
`,
    );
    const nginx = new Deno.Command(NGINX, {
      args: ["-p", dir, "-c", `${dir}/nginx.conf`, "-g", "daemon off;"],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    undo.push(async () => {
      try {
        nginx.kill("SIGKILL");
      } catch { /* gone */ }
      await nginx.status;
    });
    const front = `http://127.0.0.1:${port}`;
    const nginxLog = () => Deno.readTextFile(`${dir}/error.log`).catch(() => "");
    await waitFor(
      async () => {
        const r = await fetch(`${front}/api/ping`);
        await r.body?.cancel();
        return r.ok;
      },
      `nginx at ${front}`,
      10_000,
    );
    log(`nginx: ${front}, upstream ${machines.map((m) => m.address).join(" and ")} hashed on the session`);

    return {
      front,
      machines,
      kvUrl,
      nginxLog,
      machineAt(upstream) {
        // After a failed try nginx lists every address it tried ("A, B"): the last one answered.
        const last = upstream?.split(",").pop()?.trim();
        return machines.find((m) => last === `${m.address}:${APP_PORT}`)?.name ?? "?";
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Asks `probe` every 50 ms until it holds (a throw counts as not yet); fails naming `what` after `ms`. */
async function waitFor(probe: () => Promise<boolean>, what: string, ms = 30_000, more?: () => string) {
  const t = performance.now();
  let last = "";
  for (;;) {
    try {
      if (await probe()) return;
    } catch (e) {
      last = String(e);
    }
    if (performance.now() - t > ms) {
      throw new Error(`${what} did not answer in ${ms / 1000} s: ${last}\n${more?.() ?? ""}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

// --- Members through the proxy -------------------------------------------------------------------

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

// --- Live sockets ----------------------------------------------------------------------------------

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

// --- The checks ------------------------------------------------------------------------------------

/** Live delivery across the machines must take no longer than this. */
export const DELIVERY_MS = 1500;

/** What the checks share: the machines, the members registered so far, the sockets to close. */
export interface Run {
  h: TwoMachines;
  /** Messages each way in the delivery check; writes in the kill check are 12 times this (at most 24, or 60 from 5 on). */
  rounds: number;
  /** A member nginx sends to `machine` (registered until one lands there; the others wait in a pool). */
  memberOn(machine: "A" | "B", admin?: boolean): Promise<Member>;
  /** A and B's first members with their sockets through nginx (made by the first check). */
  pair?: { a: Member; b: Member; sa: LiveSocket; sb: LiveSocket };
  sockets: LiveSocket[];
  /** Every message's delivery time across the machines (ms), from the send to the event on the other machine. */
  deliveries: number[];
  /** The part of each after the sender's answer: the other machine's watch of the event log, its read and the socket. */
  afterAnswer: number[];
}

/** The admin emails both instances are given (`ADMIN_EMAILS`): `memberOn(…, true)` registers these. */
const ADMINS = Array.from({ length: 8 }, (_, i) => `two-machines-admin-${i}@example.com`);

function check(ok: unknown, message: string): asserts ok {
  if (!ok) throw new Error(message);
}

/** Asks `probe` until it holds; the milliseconds it took (fails past `withinMs`). */
async function within(probe: () => Promise<boolean>, what: string, withinMs = DELIVERY_MS): Promise<number> {
  const t = performance.now();
  for (;;) {
    if (await probe()) return performance.now() - t;
    check(performance.now() - t < withinMs, `${what}: not within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** `call`, checked: the status wanted and the machine that had to serve it. */
async function expect(
  run: Run,
  who: Member,
  method: string,
  path: string,
  want: { status: number; servedBy?: "A" | "B"; json?: unknown; direct?: Machine },
): Promise<Answer> {
  const r = await call(run.h, who, method, path, { json: want.json, direct: want.direct });
  check(r.status === want.status, `${method} ${path} by ${who.email}: ${r.status} ${r.text}, not ${want.status}`);
  const served = want.servedBy ?? (want.direct ? want.direct.name : who.machine);
  check(r.servedBy === served, `${method} ${path} by ${who.email} was served by ${r.servedBy}, not ${served}`);
  return r;
}

const ms = (x: number) => `${Math.round(x)} ms`;

/** Sends a message through nginx and waits for it on `to`'s socket; the delivery time. */
async function deliver(run: Run, from: Member, to: Member, socket: LiveSocket, text: string): Promise<number> {
  const t = performance.now();
  const sent = await expect(run, from, "POST", "/api/message", {
    status: 201,
    json: { senderProfileId: from.profileId, recipientProfileId: to.profileId, bodyText: text },
  });
  const answered = performance.now();
  const got = await socket.event((e) => e.type === "message" && e.id === sent.data.id, DELIVERY_MS * 2);
  check(got, `message ${sent.data.id} (${from.machine} to ${to.machine}) never arrived on ${to.email}'s socket`);
  const took = got.t - t;
  check(took < DELIVERY_MS, `message ${from.machine} to ${to.machine} arrived after ${ms(took)}`);
  run.deliveries.push(took);
  run.afterAnswer.push(got.t - answered);
  return took;
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}

/** One check: a name for its test step, and a run that throws on a failure and returns what it measured. */
export interface Check {
  name: string;
  run(r: Run): Promise<string>;
}

/** The checks, in order (the last one kills machine A). */
export const CHECKS: Check[] = [
  {
    name: "a message sent by a member on A arrives live on a member on B (and back) within 1.5 s",
    async run(run) {
      // A new member may send 10 messages a minute: each pair carries at most four each way.
      const there: number[] = [], back: number[] = [];
      for (let i = 0; i < run.rounds; i += 4) {
        const a = await run.memberOn("A"), b = await run.memberOn("B");
        const sa = await LiveSocket.open(run.h, a), sb = await LiveSocket.open(run.h, b);
        run.sockets.push(sa, sb);
        check(sa.servedBy === "A" && sb.servedBy === "B", `sockets on ${sa.servedBy} and ${sb.servedBy}, not A and B`);
        run.pair ??= { a, b, sa, sb };
        for (let j = i; j < Math.min(i + 4, run.rounds); j++) {
          there.push(await deliver(run, a, b, sb, `from A, ${j}`));
          back.push(await deliver(run, b, a, sa, `from B, ${j}`));
        }
      }
      return `A→B p50 ${ms(quantile(there, 0.5))} max ${ms(Math.max(...there))}; ` +
        `B→A p50 ${ms(quantile(back, 0.5))} max ${ms(Math.max(...back))} (${run.rounds} each way)`;
    },
  },
  {
    name: "typing on A shows live on B; a read receipt on B shows live on A",
    async run(run) {
      const { a, b, sa, sb } = run.pair!;
      let t = performance.now();
      await expect(run, a, "POST", `/api/typing/${b.profileId}`, { status: 204 });
      const typing = await sb.event((e) => e.type === "typing" && e.from === a.profileId, DELIVERY_MS);
      check(typing, "typing on A never showed on B");
      const typingMs = typing.t - t;
      t = performance.now();
      await expect(run, b, "PUT", `/api/messages/read/${a.profileId}`, { status: 200 });
      const read = await sa.event((e) => e.type === "read" && e.by === b.profileId, DELIVERY_MS);
      check(read, "a read receipt on B never showed on A");
      return `typing ${ms(typingMs)}, read receipt ${ms(read.t - t)}`;
    },
  },
  {
    name: "presence: a member connected on B is online to a member asking A; hidden on B, hidden on A",
    async run(run) {
      const { a, b } = run.pair!;
      const presence = async () =>
        (await expect(run, a, "GET", `/api/presence?ids=${b.profileId}`, { status: 200 })).data[b.profileId];
      const online = await within(async () => (await presence())?.online === true, "B's member online on A");
      await expect(run, b, "PUT", "/api/presence", { status: 200, json: { hidden: true } });
      const hidden = await within(async () => (await presence()) === null, "B's member hidden on A");
      await expect(run, b, "PUT", "/api/presence", { status: 200, json: { hidden: false } });
      return `online after ${ms(online)}, hidden after ${ms(hidden)}`;
    },
  },
  {
    name: "positions: each member's report through their machine is in the other's nearest answer",
    async run(run) {
      const { a, b } = run.pair!;
      for (const [m, lon] of [[a, -112.074], [b, -112.07]] as const) {
        await expect(run, m, "PUT", `/api/profile-position/${m.profileId}`, {
          status: 200,
          json: { overrideLat: 33.4484, overrideLon: lon, use: "OVERRIDE", hide: false },
        });
      }
      const sees = (who: Member, other: Member) => async () =>
        ((await expect(run, who, "GET", "/api/profile-briefs/nearest", { status: 200 })).data.items as {
          profileId: string;
        }[]).some((i) => i.profileId === other.profileId);
      const onB = await within(sees(b, a), "A's member in B's nearest");
      const onA = await within(sees(a, b), "B's member in A's nearest");
      return `A's report in B's nearest after ${ms(onB)}, B's in A's after ${ms(onA)}`;
    },
  },
  {
    name: "a session ended on A is refused on B and its socket there closed within 1.5 s, though B had just served it",
    async run(run) {
      const x = await run.memberOn("A");
      const [, b] = run.h.machines;
      // Another page of the member's holds a socket on B (connected to B itself), and B serves the session.
      const socket = await LiveSocket.open(run.h, x, b);
      run.sockets.push(socket);
      for (let i = 0; i < 3; i++) await expect(run, x, "GET", "/api/settings", { status: 200, direct: b });
      const t = performance.now();
      await expect(run, x, "POST", "/api/auth/logout", { status: 200 });
      const refused = await within(
        async () => (await call(run.h, x, "GET", "/api/settings", { direct: b })).status === 401,
        "the ended session refused on B",
      );
      const closed = await Promise.race([socket.closed, new Promise<null>((r) => setTimeout(r, DELIVERY_MS, null))]);
      check(closed, "the ended session's socket on B stayed open");
      check(closed.code === 1008, `the socket on B closed with ${closed.code}, not 1008`);
      await expect(run, x, "GET", "/api/settings", { status: 401 });
      return `refused on B ${ms(refused)} after the logout on A answered; its socket on B closed ${
        ms(closed.t - t)
      } after the logout was sent`;
    },
  },
  {
    name: "a suspension by an admin on A ends the member's socket and session on B within 1.5 s",
    async run(run) {
      const admin = await run.memberOn("A", true);
      const y = await run.memberOn("B");
      const socket = await LiveSocket.open(run.h, y);
      run.sockets.push(socket);
      check(socket.servedBy === "B", `${y.email}'s socket is on ${socket.servedBy}, not B`);
      await expect(run, y, "GET", "/api/settings", { status: 200 });
      const t = performance.now();
      await expect(run, admin, "POST", `/api/admin/members/${y.profileId}/actions`, {
        status: 201,
        json: { kind: "SUSPENSION", days: 1, reason: "Across the machines" },
      });
      const closed = await Promise.race([socket.closed, new Promise<null>((r) => setTimeout(r, DELIVERY_MS, null))]);
      check(closed, "the suspended member's socket on B stayed open");
      check(closed.code === 1008, `the socket closed with ${closed.code}, not 1008`);
      await within(
        async () => (await call(run.h, y, "GET", "/api/settings")).status === 401,
        "the suspended member's session refused on B",
      );
      return `socket on B closed ${ms(closed.t - t)} after the suspension on A; session refused on B ${
        ms(performance.now() - t)
      } after it`;
    },
  },
  {
    name: "feed caps: a member's 11th socket, on A, replaces their oldest, on B",
    async run(run) {
      const z = await run.memberOn("A");
      const [, b] = run.h.machines;
      const sockets: LiveSocket[] = [];
      for (let i = 0; i < 5; i++) sockets.push(await LiveSocket.open(run.h, z, b));
      for (let i = 0; i < 5; i++) sockets.push(await LiveSocket.open(run.h, z));
      run.sockets.push(...sockets);
      check(sockets.every((s, i) => s.servedBy === (i < 5 ? "B" : "A")), "five sockets on B, then five on A");
      const t = performance.now();
      const eleventh = await LiveSocket.open(run.h, z);
      run.sockets.push(eleventh);
      check(eleventh.servedBy === "A", `the 11th socket is on ${eleventh.servedBy}, not A`);
      const closed = await Promise.race([
        sockets[0].closed,
        new Promise<null>((r) => setTimeout(r, DELIVERY_MS, null)),
      ]);
      check(closed, "the oldest socket, on B, stayed open");
      check(closed.code === 4001, `the oldest socket closed with ${closed.code}, not 4001 (replaced)`);
      check(sockets.slice(1).every((s) => s.open), "the other nine stay open");
      return `the oldest, on B, replaced ${ms(closed.t - t)} after the 11th opened on A`;
    },
  },
  {
    name: "feed caps: an address's sockets are counted over both machines; one full is refused on both",
    async run(run) {
      // Two members behind one address (a household, a carrier's NAT), one on each machine.
      const address = "127.0.99.1";
      const on: Partial<Record<"A" | "B", Member>> = {};
      for (let i = 0; i < 8 && !(on.A && on.B); i++) {
        const m = await register(run.h, `two-machines-shared-${i}@example.com`, address);
        on[m.machine] ??= m;
      }
      const { A: onA, B: onB } = on;
      check(onA && onB, "no member behind the shared address landed on each machine");
      const cap = Number(CHECK_ENV.MAX_FEEDS_PER_ADDRESS);
      const sockets: LiveSocket[] = [];
      for (let i = 0; i < cap; i++) sockets.push(await LiveSocket.open(run.h, i % 2 ? onB : onA));
      run.sockets.push(...sockets);
      check(sockets.every((s, i) => s.servedBy === (i % 2 ? "B" : "A")), "the address's sockets alternate A and B");
      const refused = async (m: Member) => {
        try {
          run.sockets.push(await LiveSocket.open(run.h, m));
          return 0;
        } catch (e) {
          if (e instanceof RefusedSocket) return e.status;
          throw e;
        }
      };
      check(await refused(onA) === 429, `the address's socket ${cap + 1}, on A, was not refused with 429`);
      check(await refused(onB) === 429, `the address's socket ${cap + 1}, on B, was not refused with 429`);
      // One closes on A: the address takes one more, on B.
      await sockets[0].close();
      const freed = await within(async () => await refused(onB) === 0, "a place free again on B", 3_000);
      // Closed, so the address's places are free for the next check (a dead machine's sockets
      // would count until their leases lapse: FEED_LEASE_MS, 75 s).
      await Promise.all(run.sockets.filter((s) => s.member === onA || s.member === onB).map((s) => s.close()));
      return `${cap} sockets of one address over A and B; the next refused on both; ` +
        `one closed on A, B took one ${ms(freed)} later`;
    },
  },
  {
    name: "machine A killed mid-burst: no acknowledged write is lost, its members' sockets reconnect to B",
    async run(run) {
      const { a, b } = run.pair!;
      const [machineA] = run.h.machines;
      const openOnA = run.sockets.filter((s) => s.open);
      // Members of their own (a new member may send 10 messages a minute): two on each machine, three for a longer run.
      const members: Member[] = [];
      for (let i = run.rounds >= 5 ? 3 : 2; i > 0; i--) members.push(await run.memberOn("A"), await run.memberOn("B"));
      const burstOf = (m: Member): BurstMember & { m: Member } => ({ ...m, address: m.localAddress, m });
      // A like and a message on each pair at most.
      const writes = planBurst(members.map(burstOf), run.rounds * 12, mulberry32(42), "two-machines");
      const acked: typeof writes = [];
      const servedBy = { A: 0, B: 0, "?": 0 };
      let failed = 0, killedAt = -1;
      const killAfter = Math.floor(writes.length / 3);
      for (let i = 0; i < writes.length; i += 6) {
        const batch = writes.slice(i, i + 6);
        if (i >= killAfter && killedAt < 0) {
          // Mid-burst: the next batch leaves while A dies.
          killedAt = i;
          void machineA.kill();
        }
        await Promise.all(batch.map(async (w) => {
          const from = (w.from as ReturnType<typeof burstOf>).m;
          try {
            const r = await send(from.client, run.h.front, w);
            if (r.status >= 200 && r.status < 300) {
              acked.push(w);
              servedBy[run.h.machineAt(r.headers.get("x-lambda-upstream"))]++;
            } else failed++;
          } catch {
            failed++;
          }
        }));
      }
      await machineA.child?.status;
      // Every acknowledged write is there, read back through nginx (machine B now serves everyone).
      const missing = (await Promise.all(acked.map((w) => {
        const from = (w.from as ReturnType<typeof burstOf>).m;
        return missingReason(from.client, run.h.front, w);
      }))).filter((x): x is string => x !== null);
      check(missing.length === 0, `acknowledged writes missing after A died:\n${missing.join("\n")}`);
      check(servedBy.A > 0 && servedBy.B > 0, `writes acknowledged by A ${servedBy.A}, by B ${servedBy.B}`);

      // Every socket on A ended with A; those on B stay. Each member of A's sockets connects again
      // through nginx, as their page does, and lands on B.
      const onA = openOnA.filter((s) => s.servedBy === "A"), onB = openOnA.filter((s) => s.servedBy === "B");
      const gone = await Promise.race([
        Promise.all(onA.map((s) => s.closed)),
        new Promise<null>((r) => setTimeout(r, 5_000, null)),
      ]);
      check(gone, `${onA.filter((s) => s.open).length} sockets on the killed machine stayed open`);
      check(onB.every((s) => s.open), "a socket on B closed when A died");
      const t = performance.now();
      const again = await Promise.all([...new Set(onA.map((s) => s.member))].map((m) => LiveSocket.open(run.h, m)));
      run.sockets.push(...again);
      const reconnectMs = performance.now() - t;
      check(again.every((s) => s.servedBy === "B"), `sockets reconnected to ${again.map((s) => s.servedBy)}, not B`);
      const aAgain = again.find((s) => s.member === a);
      check(aAgain, "A's first member had no socket on A");
      // B's member's message reaches it there (both on B now).
      const sent = await expect(run, b, "POST", "/api/message", {
        status: 201,
        servedBy: "B",
        json: { senderProfileId: b.profileId, recipientProfileId: a.profileId, bodyText: "after A died" },
      });
      const got = await aAgain.event((e) => e.type === "message" && e.id === sent.data.id, DELIVERY_MS);
      check(got, "a message never reached the reconnected socket on B");
      return `${writes.length} writes, A killed after ${killedAt}: ${acked.length} acknowledged (A ${servedBy.A}, ` +
        `B ${servedBy.B}), ${failed} refused or cut, 0 missing; ${again.length} members' sockets on A ` +
        `(${onA.length}) reconnected to B in ${ms(reconnectMs)}, ${onB.length} on B stayed open`;
    },
  },
];

/** A new run over `h`: the member pool and sockets, for `CHECKS`. */
export function newRun(h: TwoMachines, rounds: number): Run {
  const pool: Member[] = [];
  let n = 0, admins = 0;
  return {
    h,
    rounds,
    sockets: [],
    deliveries: [],
    afterAnswer: [],
    async memberOn(machine, admin = false) {
      for (;;) {
        if (!admin) {
          const i = pool.findIndex((m) => m.machine === machine);
          if (i >= 0) return pool.splice(i, 1)[0];
        }
        check(n < 40 && admins < ADMINS.length, `no member landed on ${machine} after ${n} registrations`);
        const m = await register(h, admin ? ADMINS[admins++] : `two-machines-${Date.now()}-${n++}@example.com`);
        if (admin && m.machine === machine) return m;
        if (!admin) pool.push(m);
      }
    },
  };
}

/** Closes a run's sockets (those still open). */
export async function closeRun(run: Run): Promise<void> {
  await Promise.all(run.sockets.map((s) => s.close().catch(() => {})));
}

/** The environment both instances get for the checks. */
export const CHECK_ENV: Record<string, string> = { ADMIN_EMAILS: ADMINS.join(","), MAX_FEEDS_PER_ADDRESS: "8" };

if (import.meta.main) {
  const arg = (name: string, fallback: number) => {
    const i = Deno.args.indexOf(`--${name}`);
    const v = Number(i >= 0 ? Deno.args[i + 1] : fallback);
    if (!Number.isFinite(v) || v < 0) {
      console.error("usage: deno task two-machines [--rounds N] [--rtt-ms MS]");
      Deno.exit(2);
    }
    return v;
  };
  const rounds = arg("rounds", 10), rttMs = arg("rtt-ms", 5);
  const why = await unavailable();
  if (why) {
    console.error(`two-machines: cannot run here: ${why}`);
    Deno.exit(2);
  }
  // Ctrl-C while the machines start or the checks run: everything made so far is removed first.
  const onSignal = () => void stopAll().then(() => Deno.exit(130));
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  const h = await startTwoMachines({ rttMs, env: CHECK_ENV, log: (l) => console.log(l) });
  const run = newRun(h, rounds);
  let failed = 0;
  try {
    for (const c of CHECKS) {
      const t = performance.now();
      try {
        const line = await c.run(run);
        console.log(`ok   ${c.name} (${ms(performance.now() - t)})\n     ${line}`);
      } catch (e) {
        failed++;
        console.log(`FAIL ${c.name}\n     ${e instanceof Error ? e.message : e}`);
      }
    }
    const d = run.deliveries, a = run.afterAnswer;
    console.log(
      `deliveries across the machines: ${d.length}, p50 ${ms(quantile(d, 0.5))}, p95 ${ms(quantile(d, 0.95))}, ` +
        `max ${ms(Math.max(...d))} from the send (store ${rttMs} ms away); after the sender's answer: ` +
        `p50 ${ms(quantile(a, 0.5))}, p95 ${ms(quantile(a, 0.95))}, max ${ms(Math.max(...a))}`,
    );
  } finally {
    await closeRun(run);
    if (failed) {
      for (const m of h.machines) console.log(`--- instance ${m.name}, last output ---\n${m.output.slice(-3000)}`);
      console.log(`--- nginx error log ---\n${(await h.nginxLog()).slice(-3000)}`);
    }
    await h.stop();
  }
  Deno.exit(failed ? 1 : 0);
}
