/**
 * The two machines of `deno task two-machines` (scripts/twoMachines.ts): two Linux network
 * namespaces with a veth link and an address each, an app instance in each, a KV Connect test
 * server on the host that both use, and nginx on the host in front of both (the block
 * docs/operations.md documents, its upstream a group of the two hashed on the session cookie,
 * each answer naming the machine that served it). Removed after, on failure and on a signal too;
 * what a killed run left is removed by the next one.
 */

import { nginxMainConf } from "../nginxConf.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
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
  const doc = await Deno.readTextFile(new URL("../../docs/operations.md", import.meta.url));
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
    await Deno.writeTextFile(`${dir}/nginx.conf`, nginxMainConf(dir, 512));
    const nginx = new Deno.Command(NGINX, {
      args: ["-p", dir, "-c", `${dir}/nginx.conf`, "-g", "daemon off;"],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    undo.push(async () => {
      // SIGTERM, not SIGKILL: the master stops its workers before it ends; killed outright, it
      // would leave them holding the port, answering whoever connects later.
      try {
        nginx.kill("SIGTERM");
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
export async function waitFor(probe: () => Promise<boolean>, what: string, ms = 30_000, more?: () => string) {
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
