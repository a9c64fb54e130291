/**
 * The real server for tests that need one: the app on a `:memory:` KV, served by `Deno.serve` on
 * a free port, no job workers, with one member. Prints `cookie <session cookie of the member>` and
 * `port <n>` once listening; then answers each line `rss` on
 * stdin with `rss <bytes>` of this process (as it is: no forced GC).
 */

import { openKv } from "../../kv/db.ts";
import { createAccount } from "../../kv/accounts.ts";
import { createSession } from "../../kv/sessions.ts";
import { createApp } from "../../main.ts";

Deno.env.set("LOG_REQUESTS", "0");
await openKv(":memory:");
const member = await createAccount({ email: "member@example.com" });
const { token } = await createSession(member!.id, false, "test");
// 127.0.0.1 is a secure context: the session cookie has its __Host- name.
console.log(`cookie __Host-sid=${token}`);
const app = createApp();
const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
console.log(`port ${server.addr.port}`);

const lines = Deno.stdin.readable.pipeThrough(new TextDecoderStream());
let pending = "";
for await (const chunk of lines) {
  pending += chunk;
  let nl;
  while ((nl = pending.indexOf("\n")) >= 0) {
    const cmd = pending.slice(0, nl).trim();
    pending = pending.slice(nl + 1);
    if (cmd === "rss") {
      console.log(`rss ${Deno.memoryUsage().rss}`);
    }
  }
}
await server.shutdown();
