import assert from "node:assert/strict";
import { SMTPServer } from "smtp-server";
import { ALL_ACKS, testApp } from "../tests/api.ts";
import { runDueJobs } from "./jobs.ts";
import { handlers } from "./run.ts";
import { listOutbox } from "../kv/outbox.ts";

/** A real SMTP server on a free local port that keeps every message it receives. */
async function startSmtp() {
  const received: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, done) {
      const chunks: Uint8Array[] = [];
      stream.on("data", (c: Uint8Array) => chunks.push(c));
      stream.on("end", () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c]))),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return { port, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

Deno.test("mail - with SMTP_URL the login link goes out over SMTP and logs in", async () => {
  const smtp = await startSmtp();
  Deno.env.set("SMTP_URL", `smtp://127.0.0.1:${smtp.port}`);
  Deno.env.set("PUBLIC_ORIGIN", "https://app.example");
  const t = await testApp();
  try {
    const r = await t.call("POST", "/api/auth/register", {
      json: { email: "smtp@example.com", acknowledgements: ALL_ACKS },
    });
    assert.equal(r.status, 202);
    assert.equal(await runDueJobs(handlers), 1);
    assert.equal(smtp.received.length, 1);
    assert.deepEqual(smtp.received[0].to, ["smtp@example.com"]);
    assert.equal((await listOutbox()).length, 0, "nothing in the dev outbox");
    const body = smtp.received[0].raw.replace(/=\r?\n/g, "");
    const token = body.match(/https:\/\/app\.example\/login#token=([A-Za-z0-9_-]+)/)?.[1];
    assert.ok(token, "the mail carries a link on PUBLIC_ORIGIN");
    assert.equal((await t.call("POST", "/api/auth", { form: { token } })).status, 200);
    // The outbox page does not exist when mail really goes out.
    assert.equal((await t.call("GET", "/dev/outbox")).status, 404);
  } finally {
    Deno.env.delete("SMTP_URL");
    Deno.env.delete("PUBLIC_ORIGIN");
    t.close();
    await smtp.close();
  }
});

Deno.test("mail - a link is never built from the request's Host header", async () => {
  const t = await testApp();
  try {
    const r = await t.app.request("http://localhost/api/auth/register", {
      method: "POST",
      headers: { "content-type": "application/json", host: "evil.example", "x-forwarded-host": "evil.example" },
      body: JSON.stringify({ email: "host@example.com", acknowledgements: ALL_ACKS }),
    });
    assert.equal(r.status, 202);
    await runDueJobs(handlers);
    const [mail] = await listOutbox();
    assert.doesNotMatch(mail.text, /evil\.example/);
  } finally {
    t.close();
  }
});
