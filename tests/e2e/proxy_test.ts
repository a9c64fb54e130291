/**
 * The app behind a real nginx: the block of docs/operations.md between its `nginx:begin` and
 * `nginx:end` markers, as written there but for its port, certificate and upstream, in front of a
 * real instance run with the settings the doc gives (HOST=127.0.0.1, TRUST_PROXY=1). TLS with a
 * certificate made here, the client's address and scheme from nginx (a header the client sent is
 * not believed), the session cookie over https,
 * writes with and without Origin, server-sent events not buffered, the event socket upgraded
 * through nginx, and slow clients cut off. Skipped, saying so, where nginx is not installed.
 */

import { after, pause, until } from "../wait.ts";
import assert from "node:assert/strict";
// @ts-types="@types/ws"
import WebSocket from "ws";
import { startInstance } from "../instance.ts";
import { ACKNOWLEDGEMENTS } from "../../domain/texts.ts";
import { nginxMainConf } from "../../scripts/nginxConf.ts";

const NGINX = "/usr/sbin/nginx";
const hasNginx = await Deno.stat(NGINX).then(() => true, () => false);
if (!hasNginx) console.log(`proxy_test: skipped, ${NGINX} is not installed (apt-get install nginx openssl)`);

const BODY_TIMEOUT_MS = 2_000;
const enc = new TextEncoder();

/** The nginx block of docs/operations.md, with the doc's port, certificate and upstream replaced. */
async function documentedBlock(port: number, dir: string, upstream: string): Promise<string> {
  const doc = await Deno.readTextFile(new URL("../../docs/operations.md", import.meta.url));
  const block = doc.match(/<!-- nginx:begin -->\s*```nginx\n([\s\S]*?)```\s*<!-- nginx:end -->/)?.[1];
  assert.ok(block, "docs/operations.md has the nginx block between its markers");
  const replacements: [string, string][] = [
    ["listen 443 ssl;", `listen 127.0.0.1:${port} ssl;`],
    ["/etc/ssl/lambda/fullchain.pem", `${dir}/cert.pem`],
    ["/etc/ssl/lambda/privkey.pem", `${dir}/key.pem`],
    ["http://127.0.0.1:8000", upstream],
  ];
  let text = block;
  for (const [from, to] of replacements) {
    assert.ok(text.includes(from), `the documented block has ${from}`);
    text = text.replace(from, to);
  }
  return text;
}

/** The app's settings the doc says to run it with behind that block ("run the app with `HOST=… TRUST_PROXY=…`"). */
async function documentedSettings(): Promise<Record<string, string>> {
  const doc = await Deno.readTextFile(new URL("../../docs/operations.md", import.meta.url));
  const line = doc.match(/run the app with\s+`([^`]+)`/)?.[1];
  assert.ok(line, "docs/operations.md says which settings the app runs with behind nginx");
  return Object.fromEntries(line.split(/\s+/).map((kv) => kv.split("=") as [string, string]));
}

async function run(cmd: string, args: string[]) {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) throw new Error(`${cmd} failed: ${new TextDecoder().decode(out.stderr)}`);
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** Reads from `conn` until it is closed; the text read and when (ms after `t0`), or null past `waitMs`. */
async function untilClosed(conn: Deno.Conn, t0: number, waitMs: number) {
  let text = "";
  const closed = (async () => {
    const buf = new Uint8Array(4096);
    try {
      for (;;) {
        const n = await conn.read(buf);
        if (n === null) break;
        text += new TextDecoder().decode(buf.subarray(0, n));
      }
    } catch { /* reset: closed too */ }
    return performance.now() - t0;
  })();
  const ms = await Promise.race([closed, after(waitMs, null)]);
  try {
    conn.close();
  } catch { /* closed */ }
  await closed;
  return { text, ms };
}

Deno.test({
  name: "e2e - behind nginx as documented: TLS, forwarded address and scheme, events and sockets, slow clients cut off",
  ignore: !hasNginx,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "lambda-nginx-" });
    // Workers (when nginx runs as root they run as nobody) read the configuration and write temp files here.
    await Deno.chmod(dir, 0o755);
    // A server's own certificate for localhost, not a CA's (which rustls refuses to take as one).
    const req = "req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=localhost " +
      "-addext subjectAltName=DNS:localhost -addext basicConstraints=critical,CA:FALSE";
    await run("openssl", [...req.split(" "), "-keyout", `${dir}/key.pem`, "-out", `${dir}/cert.pem`]);
    const cert = await Deno.readTextFile(`${dir}/cert.pem`);
    const settings = await documentedSettings();
    assert.equal(settings.HOST, "127.0.0.1", "the app is bound to loopback behind the proxy");
    const app = await startInstance({ ...settings, WORKERS: "1", BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS) });
    assert.doesNotMatch(app.stderr(), /warning: TRUST_PROXY/, "bound to loopback: no warning");
    const port = freePort();
    await Deno.writeTextFile(`${dir}/lambda.conf`, await documentedBlock(port, dir, app.origin));
    await Deno.writeTextFile(`${dir}/nginx.conf`, nginxMainConf(dir, 256));
    const nginx = new Deno.Command(NGINX, {
      args: ["-p", dir, "-c", `${dir}/nginx.conf`, "-g", "daemon off;"],
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const nginxErrors = nginx.stderr.pipeThrough(new TextDecoderStream()).getReader();
    const client = Deno.createHttpClient({ caCerts: [cert] });
    const origin = `https://localhost:${port}`;
    const get = (path: string, headers: Record<string, string> = {}) =>
      fetch(origin + path, { headers, client } as RequestInit);
    try {
      // TLS with the certificate made above.
      let failure = "";
      const health = await until(
        () => get("/api/health").catch((e) => (failure = String(e.cause ?? e), null)),
        "nginx to answer",
        { everyMs: 100 },
      ).catch(() => null);
      const log = await Deno.readTextFile(`${dir}/error.log`).catch(() => "");
      assert.equal(health?.status, 200, `nginx answers over TLS (${failure}); its log: ${log}`);
      await health!.body?.cancel();

      // A write through nginx names its page's origin (Host keeps the port): accepted.
      const email = "proxy@example.com";
      const reg = await fetch(`${origin}/api/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json", origin, "x-forwarded-for": "198.51.100.1" },
        body: JSON.stringify({ email, acknowledgements: ACKNOWLEDGEMENTS.map((a) => a.text) }),
        client,
      } as RequestInit);
      // Which server answered, should it not be the app through nginx (its headers and nginx's log).
      const who = () =>
        Deno.readTextFile(`${dir}/error.log`).catch(() => "").then((log) =>
          `${JSON.stringify(Object.fromEntries(reg.headers))}; nginx's log: ${log}; the app's: ${
            app.stderr().slice(-2000)
          }`
        );
      assert.equal(reg.status, 202, `${await reg.text()} ${reg.status !== 202 ? await who() : ""}`);

      // The client (this machine, as nginx saw it) reads the dev outbox though it claims to be another
      // address: its own X-Forwarded-For is not believed, nginx's addition is.
      let token: string | undefined;
      await until(
        async () => {
          const page = await get("/dev/outbox", { "x-forwarded-for": "203.0.113.9" });
          assert.equal(page.status, 200, "nginx named 127.0.0.1: this machine");
          return token = (await page.text()).match(/#token=([A-Za-z0-9_-]+)/)?.[1];
        },
        "the login link in the outbox",
        { everyMs: 100 },
      ).catch((e) => {
        if (e instanceof assert.AssertionError) throw e;
      });
      assert.ok(token, "the login link was mailed to the outbox");

      // Over https the session cookie is the Secure __Host- one.
      const login = await fetch(`${origin}/api/auth`, {
        method: "POST",
        headers: { origin },
        body: new URLSearchParams({ token: token! }),
        client,
      } as RequestInit);
      assert.equal(login.status, 200);
      await login.body?.cancel();
      const setCookie = login.headers.get("set-cookie") ?? "";
      assert.match(setCookie, /__Host-sid=[^;]+;.*Secure/i);
      const cookie = setCookie.match(/__Host-sid=[^;]+/)![0];

      // A signed-in write without Origin or Sec-Fetch-Site: refused.
      const bare = await fetch(`${origin}/api/settings/language`, {
        method: "PUT",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ language: "es" }),
        client,
      } as RequestInit);
      assert.equal(bare.status, 403);
      await bare.body?.cancel();

      // Server-sent events: the stream's first event arrives at once, not buffered by nginx.
      const t0 = performance.now();
      const stream = await get("/api/events", { cookie, accept: "text/event-stream" });
      assert.equal(stream.status, 200);
      const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
      const first = await Promise.race([
        reader.read().then((r) => r.value ?? ""),
        after(3_000, "(nothing within 3 s)"),
      ]);
      assert.match(first, /event: ready/, first);
      assert.ok(performance.now() - t0 < 3_000);
      await reader.cancel();

      // The event socket upgraded through nginx on the main port.
      const opened = await new Promise<string>((resolve) => {
        const ws = new WebSocket(`wss://localhost:${port}/api/events`, { headers: { cookie, origin }, ca: cert });
        const timer = setTimeout(() => resolve("no open within 5 s"), 5_000);
        ws.on("open", () => {
          clearTimeout(timer);
          ws.close();
          resolve("open");
        });
        ws.on("unexpected-response", (_req, res) => resolve(`answered ${res.statusCode}`));
        ws.on("error", (e) => resolve(`error ${e.message}`));
      });
      assert.equal(opened, "open");

      // Slow clients: headers trickled a byte a second are cut off by client_header_timeout (10 s);
      // a body trickled the same way gets the app's 408 at BODY_TIMEOUT_MS and its connection is
      // closed by nginx after at most lingering_time (5 s).
      const slow = async (body: boolean) => {
        const conn = await Deno.connectTls({ hostname: "localhost", port, caCerts: [cert] });
        const t = performance.now();
        const head = body
          ? `PUT /api/profile HTTP/1.1\r\nhost: localhost:${port}\r\ncookie: ${cookie}\r\norigin: ${origin}\r\n` +
            "content-type: application/json\r\ncontent-length: 1000\r\n\r\n"
          : `GET /api/health HTTP/1.1\r\nhost: localhost:${port}\r\n`;
        await conn.write(enc.encode(head));
        let stop = false;
        const writing = (async () => {
          while (!stop) {
            await pause(1_000); // sleep-ok: a client that sends a byte a second is the case tested
            if (!stop) await conn.write(enc.encode(body ? "x" : "X")).catch(() => stop = true);
          }
        })();
        const r = await untilClosed(conn, t, 20_000);
        stop = true;
        await writing;
        return r;
      };
      const [headers, body] = await Promise.all([slow(false), slow(true)]);
      assert.ok(headers.ms !== null && headers.ms < 13_000, `trickled headers: closed after ${headers.ms} ms`);
      assert.match(body.text, /^HTTP\/1\.1 408/, body.text.slice(0, 200));
      assert.ok(body.ms !== null && body.ms < BODY_TIMEOUT_MS + 8_000, `trickled body: closed after ${body.ms} ms`);
    } finally {
      client.close();
      try {
        nginx.kill("SIGTERM");
      } catch { /* ended */ }
      await nginx.status;
      await nginxErrors.cancel();
      await app.stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
