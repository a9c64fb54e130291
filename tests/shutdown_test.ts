/**
 * Graceful shutdown of a real instance: on SIGTERM it tells open event streams to reconnect, stops
 * taking connections, lets running work finish and exits 0 within 10 s.
 */

import assert from "node:assert/strict";
import { ACKNOWLEDGEMENTS } from "../domain/texts.ts";

Deno.test({
  name: "shutdown - SIGTERM: open event streams are told to reconnect, the process exits 0 within 10 s",
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("../main.ts", import.meta.url).pathname],
      env: { PORT: "0", KV_PATH: `${dir}/app.kv`, LOG_REQUESTS: "0", DEV_OUTBOX_PRINT: "0" },
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const out = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let printed = "";
    const waitFor = async (re: RegExp) => {
      while (!re.test(printed)) {
        const { value, done } = await out.read();
        if (done) throw new Error(`server output ended: ${printed}`);
        printed += value;
      }
    };
    try {
      await waitFor(/listening on http:\/\/localhost:(\d+)/);
      const origin = `http://127.0.0.1:${printed.match(/localhost:(\d+)/)![1]}`;
      // A member with an open event stream: registered, logged in through the dev outbox's link.
      const reg = await fetch(`${origin}/api/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "sigterm@example.com", acknowledgements: ACKNOWLEDGEMENTS.map((a) => a.text) }),
      });
      assert.equal(reg.status, 202);
      await reg.body?.cancel();
      let token = "";
      for (let i = 0; i < 50 && !token; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const outbox = await (await fetch(`${origin}/dev/outbox`)).text();
        token = outbox.match(/#token=([A-Za-z0-9_-]+)/)?.[1] ?? "";
      }
      assert.ok(token, "a login link in the dev outbox");
      const form = new FormData();
      form.set("token", token);
      const login = await fetch(`${origin}/api/auth`, { method: "POST", body: form });
      await login.body?.cancel();
      const cookie = login.headers.getSetCookie().find((c) => c.includes("sid="))!.split(";")[0];
      const stream = await fetch(`${origin}/api/events`, { headers: { cookie } });
      assert.equal(stream.status, 200);
      const events = stream.body!.pipeThrough(new TextDecoderStream()).getReader();

      const t = Date.now();
      child.kill("SIGTERM");
      let sse = "";
      for (;;) {
        const { value, done } = await events.read();
        if (done) break;
        sse += value;
      }
      assert.match(sse, /event: reconnect\ndata: shutdown\nretry: 500/);
      const status = await child.status;
      const took = Date.now() - t;
      assert.equal(status.code, 0);
      assert.ok(took < 10_000, `exited after ${took} ms`);
      await waitFor(/shutdown: done/);
      await fetch(origin).then((r) => r.body?.cancel()).then(
        () => assert.fail("still answering after shutdown"),
        () => {},
      );
    } finally {
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
      await child.status;
      await out.cancel().catch(() => {});
      await Deno.remove(dir, { recursive: true });
    }
  },
});
