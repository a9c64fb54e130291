/**
 * The processes scripts/run_tests.ts keeps beside a slot's test processes: its shared Chromium
 * (tests/e2e/browserServer.ts) and its KV Connect test server (scripts/kvConnect.ts); and the
 * node_modules folder they all use as installed.
 */

const root = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

/**
 * The test processes, and the processes kept beside them, use node_modules as `deno install` left
 * it (the run installs first: `installed`). In Deno's default mode (`auto`) each module graph a
 * process loads sets the folder up again (its lock taken, every package's marker looked at), and a
 * test process loads several: its entry, each file's own isolate, the app's `import()`s. See
 * docs/decisions/0300-suite-processes-node-modules-as-installed.md.
 */
export const NODE_MODULES = ["--node-modules-dir=manual"];

/**
 * Told to the test processes: the app instances they start (tests/instance.ts) take the same mode.
 * Without the runner (a file run alone, perhaps before any `deno install`) instances keep Deno's default.
 */
export const NODE_MODULES_ENV = { TEST_NODE_MODULES_DIR: "manual" };

/** Installs what deno.json and deno.lock name into node_modules (quick when it is there already). */
export async function installed(): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["install", "--quiet"], cwd: root }).output();
  if (!out.success) console.log(`deno install failed:\n${new TextDecoder().decode(out.stderr)}`);
}

/**
 * A Deno script started beside the suite that lives while its stdin is open: `stop` closes its
 * stdin and waits for it to end.
 */
function heldChild(args: string[], stdout: "piped" | "null"): { child: Deno.ChildProcess; stop(): Promise<void> } {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...NODE_MODULES, ...args],
    cwd: root,
    stdin: "piped",
    stdout,
    stderr: "inherit",
  }).spawn();
  const stdin = child.stdin.getWriter();
  return {
    child,
    stop: async () => {
      await stdin.close().catch(() => {});
      await child.status;
    },
  };
}

/** A slot's shared Chromium: its DevTools address, the pid of the process that holds it, and its stop. */
export interface SharedBrowser {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * One Chromium for a test process's browser files (tests/e2e/browserServer.ts): started before the
 * process, its address handed over as E2E_BROWSER_URL, closed after it. Null when it did not start
 * (each test then launches its own, as without it).
 */
export async function startSharedBrowser(label: string): Promise<SharedBrowser | null> {
  const { child, stop } = heldChild([`${root}/tests/e2e/browserServer.ts`], "piped");
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const first = await Promise.race([
    reader.read().then((r) => r.value?.trim() ?? ""),
    new Promise<string>((r) => timer = setTimeout(r, 60_000, "")),
  ]);
  clearTimeout(timer);
  void reader.cancel().catch(() => {});
  if (!first.startsWith("http://")) {
    console.log(`[${label}] the shared browser did not start; its browser tests launch their own`);
    child.kill();
    await child.status;
    return null;
  }
  return { url: first, pid: child.pid, stop };
}

/**
 * A KV Connect test server (scripts/kvConnect.ts, 5 ms late or TEST_KV_RTT_MS) for one remote-lane
 * process, shared by every file it runs (TEST_KV_SERVER, tests/remoteKv.ts): without it each file
 * starts its own, a Deno start and its wait per file. Null when it did not answer (each file then
 * starts its own, as without it).
 */
export async function startKvServer(
  label: string,
): Promise<{ env: Record<string, string>; pid: number; stop(): Promise<void> } | null> {
  // A free port: asked of the system, then given to the server.
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const token = crypto.randomUUID().replaceAll("-", "");
  const rtt = Deno.env.get("TEST_KV_RTT_MS") ?? "5";
  const { child, stop } = heldChild(
    [`${root}/scripts/kvConnect.ts`, "--port", String(port), "--path", ":memory:", "--rtt-ms", rtt]
      .concat(["--token", token, "--exit-with-stdin", "--log-refusals"]),
    "null",
  );
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    try {
      // A metadata exchange, as a client's first call (answered once the server listens).
      const res = await fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ supportedVersions: [2, 3] }),
      });
      await res.body?.cancel();
      if (res.ok) return { env: { TEST_KV_SERVER: url, DENO_KV_ACCESS_TOKEN: token }, pid: child.pid, stop };
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  console.log(`[${label}] the KV Connect test server did not start; each file starts its own`);
  await stop();
  return null;
}
