/**
 * A real instance of the app for tests: `main.ts` in a subprocess on a free port with the given
 * environment (a KV file in a temp dir unless KV_PATH or KV_URL is given; with TEST_KV=remote, a
 * database of its own on the kits' KV Connect server), its output readable, and members
 * registered and logged in through its API and dev outbox.
 */

import { ACKNOWLEDGEMENTS } from "../domain/texts.ts";
import { instanceKvEnv, REMOTE_KV } from "./remoteKv.ts";

/** A running instance. */
export interface Instance {
  origin: string;
  child: Deno.ChildProcess;
  /** Resolves once the instance printed a line matching `re`; returns everything printed so far. */
  waitFor(re: RegExp): Promise<string>;
  /** What the instance wrote to stderr so far (for a failure's message). */
  stderr(): string;
  /** A registered, logged-in member: their session cookie. */
  member(email: string): Promise<string>;
  /** Kills the instance (SIGKILL unless it exited) and removes its temp dir. */
  stop(): Promise<void>;
}

/**
 * The node_modules mode the suite's runner gives its processes (TEST_NODE_MODULES_DIR: `manual`, after
 * its `deno install`, decision 0300): the instance's start and its packages' first loads then set
 * nothing up. Unset (a file run alone), Deno's default. For every app process a test starts.
 */
export function nodeModulesDir(): string[] {
  const mode = Deno.env.get("TEST_NODE_MODULES_DIR");
  return mode ? [`--node-modules-dir=${mode}`] : [];
}

/** Starts `main.ts` with `env` on a free port and waits until it listens. */
export async function startInstance(env: Record<string, string> = {}): Promise<Instance> {
  // With TEST_KV=remote, a database of its own on the kits' KV Connect server (tests/remoteKv.ts).
  const remote = env.KV_PATH || env.KV_URL ? {} : await instanceKvEnv();
  const dir = env.KV_PATH || env.KV_URL || remote.KV_URL ? null : await Deno.makeTempDir();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...nodeModulesDir(), new URL("../main.ts", import.meta.url).pathname],
    env: {
      PORT: "0",
      WEB_INSTANCES: "1",
      LOG_REQUESTS: "0",
      DEV_OUTBOX_PRINT: "0",
      ...(dir ? { KV_PATH: `${dir}/app.kv` } : {}),
      ...remote,
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // Read all along (an unread pipe would stall the instance), kept for a failure's message.
  let errors = "";
  void child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (s) => void (errors = (errors + s).slice(-20_000)) }),
  ).catch(() => {});
  const out = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let printed = "";
  const waitFor = async (re: RegExp) => {
    while (!re.test(printed)) {
      const { value, done } = await out.read();
      if (done) throw new Error(`the instance's output ended: ${printed}`);
      printed += value;
    }
    return printed;
  };
  await waitFor(/listening on http:\/\/localhost:(\d+)/);
  const origin = `http://127.0.0.1:${printed.match(/localhost:(\d+)/)![1]}`;

  async function member(email: string): Promise<string> {
    const reg = await fetch(`${origin}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, acknowledgements: ACKNOWLEDGEMENTS.map((a) => a.text) }),
    });
    await reg.body?.cancel();
    if (reg.status !== 202) throw new Error(`register: ${reg.status}`);
    let token = "";
    for (let i = 0; i < 100 && !token; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const outbox = await (await fetch(`${origin}/dev/outbox`)).text();
      const item = outbox.split("<li").find((li) => li.includes(email));
      token = item?.match(/#token=([A-Za-z0-9_-]+)/)?.[1] ?? "";
    }
    if (!token) throw new Error(`no login link for ${email}`);
    const form = new FormData();
    form.set("token", token);
    const login = await fetch(`${origin}/api/auth`, { method: "POST", body: form });
    await login.body?.cancel();
    return login.headers.getSetCookie().find((c) => /sid=/.test(c))!.split(";")[0];
  }

  return {
    origin,
    child,
    waitFor,
    stderr: () => errors,
    member,
    async stop() {
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
      await child.status;
      await out.cancel().catch(() => {});
      if (dir) await Deno.remove(dir, { recursive: true });
    },
  };
}

/**
 * Two instances on one store, as behind a balancer: one KV file (a local file's watch sees only its
 * own process's writes), or with TEST_KV=remote one remote KV both use; the second runs no
 * workers. Runs `fn`, then stops both.
 */
export async function withTwoInstances(fn: (w: { one: Instance; two: Instance }) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  const store = REMOTE_KV ? await instanceKvEnv() : { KV_PATH: `${dir}/app.kv` };
  const one = await startInstance(store);
  const two = await startInstance({ ...store, WORKERS: "0" });
  try {
    await fn({ one, two });
  } finally {
    await one.stop();
    await two.stop();
    await Deno.remove(dir, { recursive: true });
  }
}
