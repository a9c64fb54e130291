/**
 * Redis as the geo bench's peer (bench/geo.ts): a minimal pipelined RESP2 client (enough for
 * GEOADD, GEOSEARCH and INFO), redis-server started on a free loopback port (installed with apt-get
 * when missing and root), and Redis timed by its own C client, `redis-benchmark`.
 */

/** The sorted set the shown points go in. */
export const KEY = "positions";
/** GEOADDs redis-benchmark sends per round trip (the pipelined peer of our writes). */
export const GEOADD_PIPELINE = 16;

/** The figures of one timed query or write, ours or Redis's (latencies in µs). */
export interface Stats {
  p50: number;
  p99: number;
  qps: number;
  n: number;
  /** The mean of the timed calls (µs), as Redis's own time a call is a mean. */
  mean?: number;
  /**
   * Redis only: its own time a call in the command (INFO commandstats `usec_per_call` over the
   * variant's calls: the search and its reply built, without reading the request, the loopback
   * round trip or the client).
   */
  ownUs?: number;
}

/** `usec_per_call` of `command` in an `INFO commandstats` answer (NaN when absent). */
export function commandUs(info: string, command: string): number {
  const m = info.match(new RegExp(`^cmdstat_${command}:.*?usec_per_call=([0-9.]+)`, "m"));
  return m ? Number(m[1]) : NaN;
}

export type Reply = string | number | null | Reply[] | Error;

export class Redis {
  #conn: Deno.TcpConn;
  #buf = new Uint8Array(1 << 20);
  #start = 0;
  #end = 0;
  #waiting: { resolve: (r: Reply) => void; reject: (e: unknown) => void }[] = [];
  #head = 0;
  #writing: Promise<void> = Promise.resolve();
  #enc = new TextEncoder();
  #dec = new TextDecoder();
  #loop: Promise<void>;

  private constructor(conn: Deno.TcpConn) {
    this.#conn = conn;
    this.#loop = this.#read();
  }

  static async connect(port: number): Promise<Redis> {
    return new Redis(await Deno.connect({ hostname: "127.0.0.1", port }));
  }

  #encode(cmds: (string | number)[][]): Uint8Array {
    let s = "";
    for (const args of cmds) {
      s += `*${args.length}\r\n`;
      for (const a of args) {
        const v = String(a);
        s += `$${this.#enc.encode(v).length}\r\n${v}\r\n`;
      }
    }
    return this.#enc.encode(s);
  }

  /** Sends commands in one write; resolves with their replies in order. */
  pipeline(cmds: (string | number)[][]): Promise<Reply[]> {
    const bytes = this.#encode(cmds);
    const replies = cmds.map(() => new Promise<Reply>((resolve, reject) => this.#waiting.push({ resolve, reject })));
    this.#writing = this.#writing.then(async () => {
      for (let off = 0; off < bytes.length;) off += await this.#conn.write(bytes.subarray(off));
    });
    return Promise.all(replies);
  }

  async command(...args: (string | number)[]): Promise<Reply> {
    const [r] = await this.pipeline([args]);
    if (r instanceof Error) throw r;
    return r;
  }

  async #read(): Promise<void> {
    try {
      for (;;) {
        if (this.#end === this.#buf.length) {
          if (this.#start > 0) {
            this.#buf.copyWithin(0, this.#start, this.#end);
            this.#end -= this.#start;
            this.#start = 0;
          } else {
            const bigger = new Uint8Array(this.#buf.length * 2);
            bigger.set(this.#buf);
            this.#buf = bigger;
          }
        }
        const n = await this.#conn.read(this.#buf.subarray(this.#end));
        if (n === null) throw new Error("redis closed the connection");
        this.#end += n;
        while (this.#head < this.#waiting.length) {
          const r = this.#parse(this.#start);
          if (!r) break;
          this.#start = r[1];
          this.#waiting[this.#head++].resolve(r[0]);
        }
        if (this.#head > 1024 && this.#head * 2 > this.#waiting.length) {
          this.#waiting = this.#waiting.slice(this.#head);
          this.#head = 0;
        }
        if (this.#start === this.#end) this.#start = this.#end = 0;
      }
    } catch (e) {
      for (const w of this.#waiting.splice(this.#head)) w.reject(e);
    }
  }

  #line(pos: number): number {
    const b = this.#buf;
    for (let i = pos; i < this.#end - 1; i++) if (b[i] === 13 && b[i + 1] === 10) return i;
    return -1;
  }

  #int(from: number, to: number): number {
    const b = this.#buf;
    let i = from, sign = 1, n = 0;
    if (b[i] === 45) {
      sign = -1;
      i++;
    }
    for (; i < to; i++) n = n * 10 + (b[i] - 48);
    return sign * n;
  }

  /** Bulk strings here are ids and numbers: ASCII, decoded without TextDecoder's call overhead. */
  #str(from: number, to: number): string {
    if (to - from > 64) return this.#dec.decode(this.#buf.subarray(from, to));
    let out = "";
    for (let i = from; i < to; i++) out += String.fromCharCode(this.#buf[i]);
    return out;
  }

  #parse(pos: number): [Reply, number] | null {
    if (pos >= this.#end) return null;
    const eol = this.#line(pos);
    if (eol < 0) return null;
    const type = this.#buf[pos];
    const next = eol + 2;
    switch (type) {
      case 43: // +
        return [this.#dec.decode(this.#buf.subarray(pos + 1, eol)), next];
      case 45: // -
        return [new Error(this.#dec.decode(this.#buf.subarray(pos + 1, eol))), next];
      case 58: // :
        return [this.#int(pos + 1, eol), next];
      case 36: { // $
        const len = this.#int(pos + 1, eol);
        if (len < 0) return [null, next];
        if (next + len + 2 > this.#end) return null;
        return [this.#str(next, next + len), next + len + 2];
      }
      case 42: { // *
        const len = this.#int(pos + 1, eol);
        if (len < 0) return [null, next];
        const out: Reply[] = new Array(len);
        let p = next;
        for (let i = 0; i < len; i++) {
          const r = this.#parse(p);
          if (!r) return null;
          out[i] = r[0];
          p = r[1];
        }
        return [out, p];
      }
      default:
        throw new Error(`unexpected RESP byte ${type}`);
    }
  }

  async close(): Promise<void> {
    await this.#writing.catch(() => {});
    this.#conn.close();
    await this.#loop;
  }
}

export async function haveCommand(cmd: string): Promise<boolean> {
  try {
    const out = await new Deno.Command("sh", { args: ["-c", `command -v ${cmd}`], stdout: "null", stderr: "null" })
      .output();
    return out.success;
  } catch {
    return false;
  }
}

/** Installs redis-server and redis-tools (redis-benchmark) with apt-get when missing and root; else why not. */
export async function ensureRedis(): Promise<string | null> {
  const server = await haveCommand("redis-server");
  if (server && await haveCommand("redis-benchmark")) return null;
  const isRoot = Deno.uid?.() === 0;
  if (!isRoot || !(await haveCommand("apt-get"))) {
    return server ? null : "redis-server is not installed (apt-get install redis-server redis-tools needs root)";
  }
  console.log("redis-server missing: apt-get install -y redis-server ...");
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  await new Deno.Command("apt-get", { args: ["update"], env, stdout: "null", stderr: "null" }).output();
  const res = await new Deno.Command("apt-get", {
    args: ["install", "-y", "redis-server", "redis-tools"],
    env,
    stdout: "null",
  })
    .output();
  return res.success && await haveCommand("redis-server") ? null : "apt-get install redis-server redis-tools failed";
}

export async function startRedis(): Promise<{ port: number; child: Deno.ChildProcess; client: Redis }> {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  const child = new Deno.Command("redis-server", {
    args: [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--protected-mode",
      "yes",
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  const until = Date.now() + 10_000;
  for (;;) {
    try {
      const client = await Redis.connect(port);
      if ((await client.command("PING")) === "PONG") return { port, child, client };
      await client.close();
    } catch {
      if (Date.now() > until) {
        child.kill("SIGTERM");
        await child.status;
        throw new Error("redis-server did not start");
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** One redis-benchmark run's figures from its `--csv` output (latencies in µs). */
export async function redisBenchmarkRun(args: string[]): Promise<{ rps: number; p50: number; p99: number }> {
  const out = await new Deno.Command("redis-benchmark", { args: ["--csv", ...args], stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(out.stdout);
  const line = text.trim().split("\n").filter((l) => !l.startsWith('"test"')).pop() ?? "";
  // "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
  const cols = [...line.matchAll(/"([^"]*)"/g)].map((x) => x[1]);
  const rps = Number(cols[1]), p50 = Number(cols[4]) * 1000, p99 = Number(cols[6]) * 1000;
  if (!out.success || !Number.isFinite(rps) || !Number.isFinite(p50)) {
    throw new Error(`redis-benchmark ${args.join(" ")}: ${text}${new TextDecoder().decode(out.stderr)}`);
  }
  return { rps, p50, p99 };
}

/**
 * A query timed by Redis' own C client: for each of `points` viewers, `perPoint` requests of
 * `cmd(i)` on one connection, one at a time (`-c 1`: per-request latency, the loopback round trip
 * included). p50 and p99 are the medians of the points' own; qps is the mean of their rates.
 */
export async function redisBenchmark(
  port: number,
  points: number,
  perPoint: number,
  cmd: (i: number) => (string | number)[],
): Promise<Stats> {
  const runs = [];
  for (let i = 0; i < points; i++) {
    runs.push(
      await redisBenchmarkRun([
        "-h",
        "127.0.0.1",
        "-p",
        String(port),
        "-n",
        String(perPoint),
        "-c",
        "1",
        ...cmd(i).map(String),
      ]),
    );
  }
  const med = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return {
    p50: med(runs.map((r) => r.p50)),
    p99: med(runs.map((r) => r.p99)),
    qps: runs.reduce((a, r) => a + r.rps, 0) / runs.length,
    n: points * perPoint,
  };
}

/**
 * Redis GEOADD writes per second by redis-benchmark: one connection, GEOADD_PIPELINE commands per
 * round trip, members moving among `n` (the key's own member ids are the seeded ones' shape).
 */
export async function redisGeoadd(port: number, n: number): Promise<number> {
  const r = await redisBenchmarkRun([
    "-h",
    "127.0.0.1",
    "-p",
    String(port),
    "-n",
    "200000",
    "-c",
    "1",
    "-P",
    String(GEOADD_PIPELINE),
    "-r",
    String(n),
    "GEOADD",
    KEY,
    "-118.2__rand_int__",
    "34.0__rand_int__",
    "0000000000000000__rand_int__",
  ]);
  return r.rps;
}

/** Nearest 30 besides the viewer by Redis: GEOSEARCH BYRADIUS, doubling the radius until 31 come back. */
export async function redisNearest(
  c: Redis,
  p: { lat: number; lon: number },
  self: string,
  start: number,
): Promise<Reply[][]> {
  for (let r = start;; r *= 2) {
    const res = parseGeo(await geoSearch(c, p, ["BYRADIUS", r], 31));
    if (res.length >= 31 || r >= 160_000) return res.filter((x) => x[0] !== self).slice(0, 30);
  }
}

/**
 * GEOSEARCH from `p` within `shape` (`BYRADIUS r` or `BYBOX w h`, in meters), nearest first, at
 * most `count`; with `coords`, each reply carries its distance and point (for `parseGeo`).
 */
function geoSearch(
  c: Redis,
  p: { lat: number; lon: number },
  shape: (string | number)[],
  count: number,
  coords = true,
): Promise<Reply> {
  const extra = coords ? ["WITHCOORD", "WITHDIST"] : [];
  return c.command("GEOSEARCH", KEY, "FROMLONLAT", p.lon, p.lat, ...shape, "m", "ASC", "COUNT", count, ...extra);
}

/** Turns GEOSEARCH ... WITHDIST WITHCOORD replies into [id, distance, lon, lat] with numbers. */
function parseGeo(r: Reply): Reply[][] {
  if (!Array.isArray(r)) throw new Error(`GEOSEARCH: ${r}`);
  return r.map((x) => {
    const e = x as Reply[];
    const c = e[2] as string[];
    return [e[0], Number(e[1]), Number(c[0]), Number(c[1])];
  });
}
