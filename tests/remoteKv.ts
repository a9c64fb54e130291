/**
 * The test kits' store: a fresh `:memory:` KV per test, or, with `TEST_KV=remote`, a fresh database
 * of its own on a KV Connect server (scripts/kvConnect.ts) that answers `TEST_KV_RTT_MS` (default
 * 5) ms late, as a remote store would. The server runs in a process of its own: the one
 * TEST_KV_SERVER names (scripts/run_tests.ts starts one per remote-lane process), else one started
 * when this module loads (outside any test, so no test owns it) and gone when this process ends
 * (it stops when its stdin closes).
 *
 *   TEST_KV=remote deno test -A routes/api/likes_test.ts
 *   deno task test-remote          # the chosen API files and browser journeys, that way
 */

/** Do the kits run on remote KV (`TEST_KV=remote`)? */
export const REMOTE_KV = Deno.env.get("TEST_KV") === "remote";

/** The access token of the kits' servers (KV Connect asks for 12 characters at least). */
const TOKEN = "test-kits-kv-connect-token";

/** A KV Connect test server in a process of its own. */
export interface KvConnectProcess {
  /** Its base URL. */
  url: string;
  /** Its process id (benches read its CPU). */
  pid: number;
  /** The URL of a new, empty database on it (what `Deno.openKv` or the app's KV_URL takes). */
  newDatabase(): string;
  /** Stops the server (closing its stdin) and waits for its process to end. */
  close(): Promise<void>;
}

/**
 * A server this process was given (TEST_KV_SERVER, its token in DENO_KV_ACCESS_TOKEN):
 * scripts/run_tests.ts starts one for each remote-lane process, shared by every file it runs.
 */
const given = REMOTE_KV ? Deno.env.get("TEST_KV_SERVER") : undefined;
/** Its token: the given server's, else the one the server started here is given. */
const token = (given && Deno.env.get("DENO_KV_ACCESS_TOKEN")) || TOKEN;

/**
 * The server's base URL, once it answers (remote only): the given one, else one started when this
 * module loads. Each test file runs in an isolate of its own, so without a given server each file
 * starts its own.
 */
const server: Promise<string> | undefined = !REMOTE_KV
  ? undefined
  : given
  ? Promise.resolve(given)
  : startKvConnectProcess({ rttMs: Number(Deno.env.get("TEST_KV_RTT_MS") ?? 5) }).then((s) => s.url);
if (server) await server;

/**
 * Starts a KV Connect test server (scripts/kvConnect.ts) on a free port, in a process of its own
 * that answers `rttMs` late and ends when this process does (or at `close()`), and sets
 * DENO_KV_ACCESS_TOKEN to its token so `Deno.openKv(url)` reaches it. For a test file that runs on
 * remote KV whatever TEST_KV says (tests/e2e/remote_journeys_test.ts).
 */
export async function startKvConnectProcess(
  opts: { rttMs: number; script?: string; denoFlags?: string[] },
): Promise<KvConnectProcess> {
  // A free port: asked of the system, then given to the server.
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      ...opts.denoFlags ?? [],
      opts.script ?? new URL("../scripts/kvConnect.ts", import.meta.url).pathname,
      "--port",
      String(port),
      "--path",
      ":memory:",
      "--rtt-ms",
      String(opts.rttMs),
      "--token",
      TOKEN,
      "--exit-with-stdin",
      "--log-refusals",
    ],
    stdin: "piped",
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  child.unref();
  // The pipe stays open for as long as this process lives (or until close): its end tells the server to stop.
  const stdin = child.stdin.getWriter();
  const url = `http://127.0.0.1:${port}`;
  const started = { url, pid: child.pid, newDatabase: () => `${url}/db/t${crypto.randomUUID().replaceAll("-", "")}` };
  const close = async () => {
    await stdin.close().catch(() => {});
    await child.status;
  };
  for (let i = 0; i < 300; i++) {
    try {
      // A metadata exchange, as a client's first call (answered once the server listens).
      const res = await fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ supportedVersions: [2, 3] }),
      });
      await res.body?.cancel();
      if (!res.ok) throw new Error(`the KV Connect test server answered ${res.status}`);
      Deno.env.set("DENO_KV_ACCESS_TOKEN", TOKEN);
      return { ...started, close };
    } catch (e) {
      if (e instanceof Error && e.message.startsWith("the KV Connect test server answered")) {
        await close();
        throw e;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  await close();
  throw new Error("the KV Connect test server did not start");
}

/** Where a test's own store is: ":memory:", or (remote) the URL of a new database on the server. */
export async function testKvLocation(): Promise<string> {
  if (!server) return ":memory:";
  return `${await server}/db/t${crypto.randomUUID().replaceAll("-", "")}`;
}

/**
 * The environment an app process (tests/instance.ts) gets for its store: a new database on the
 * server, or nothing (the instance makes its own file).
 */
export async function instanceKvEnv(): Promise<Record<string, string>> {
  if (!server) return {};
  return { KV_URL: await testKvLocation(), DENO_KV_ACCESS_TOKEN: token };
}
