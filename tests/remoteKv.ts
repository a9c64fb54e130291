/**
 * The test kits' store: a fresh `:memory:` KV per test, or, with `TEST_KV=remote`, a fresh database
 * of its own on a KV Connect server (scripts/kvConnect.ts) that answers `TEST_KV_RTT_MS` (default
 * 5) ms late, as a remote store would. The server runs in a process of its own, started once when
 * this module loads (outside any test, so no test owns it) and gone when this process ends (it
 * stops when its stdin closes).
 *
 *   TEST_KV=remote deno test -A routes/api/likes_test.ts
 *   deno task test-remote          # the chosen API files and browser journeys, that way
 */

/** Do the kits run on remote KV (`TEST_KV=remote`)? */
export const REMOTE_KV = Deno.env.get("TEST_KV") === "remote";

/** The access token of the kits' server (KV Connect asks for 12 characters at least). */
const TOKEN = "test-kits-kv-connect-token";

/** The server's base URL, once it answers (remote only). */
const server: Promise<string> | undefined = REMOTE_KV ? startServer() : undefined;
if (server) await server;

async function startServer(): Promise<string> {
  const rttMs = Number(Deno.env.get("TEST_KV_RTT_MS") ?? 5);
  // A free port: asked of the system, then given to the server.
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../scripts/kvConnect.ts", import.meta.url).pathname,
      "--port",
      String(port),
      "--path",
      ":memory:",
      "--rtt-ms",
      String(rttMs),
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
  // The pipe stays open for as long as this process lives: its end tells the server to stop.
  child.stdin.getWriter();
  const url = `http://127.0.0.1:${port}`;
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
      return url;
    } catch (e) {
      if (e instanceof Error && e.message.startsWith("the KV Connect test server answered")) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
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
  return { KV_URL: await testKvLocation(), DENO_KV_ACCESS_TOKEN: TOKEN };
}
