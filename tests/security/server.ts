/** The real server of `serve_fixture.ts` in a subprocess, for tests that speak raw HTTP to it. */

import { nodeModulesDir } from "../instance.ts";

const enc = new TextEncoder();

/** The server subprocess, its port, and a way to ask its RSS. */
export async function startServer(env: Record<string, string> = {}) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...nodeModulesDir(), new URL("./serve_fixture.ts", import.meta.url).pathname],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
    env: { LOG_REQUESTS: "0", WORKERS: "0", ...env },
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let pending = "";
  async function nextLine(): Promise<string> {
    for (;;) {
      const nl = pending.indexOf("\n");
      if (nl >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        return line;
      }
      const { done, value } = await lines.read();
      if (done) throw new Error("the server ended");
      pending += value;
    }
  }
  const cookie = (await nextLine()).match(/^cookie (.+)$/)![1];
  const port = Number((await nextLine()).match(/^port (\d+)$/)?.[1]);
  return {
    port,
    cookie,
    async rss(): Promise<number> {
      await writer.write(enc.encode("rss\n"));
      return Number((await nextLine()).match(/^rss (\d+)$/)?.[1]);
    },
    async stop() {
      await writer.close();
      await lines.cancel();
      await child.status;
    },
  };
}
