import assert from "node:assert/strict";
import { api, clearLocalData, keepLocally } from "./api.ts";
import { replaced } from "../../tests/replaced.ts";
import { keptStorage } from "./client.tsx";

Deno.test("device wipe: once a page wiped what the device keeps of the member, nothing of theirs is written back", () => {
  localStorage.clear();
  // Before: the query cache's persister (through its storage) and the member's own values are kept.
  keptStorage!.setItem("app-query-cache", '{"clientState":{"queries":[1]}}');
  keepLocally("lambda-outbox", "[1]");
  assert.equal(localStorage.getItem("app-query-cache"), '{"clientState":{"queries":[1]}}');
  assert.equal(localStorage.getItem("lambda-outbox"), "[1]");

  clearLocalData();
  assert.equal(localStorage.length, 0);
  // A query settling after the wipe (the call that answered 401), a queued message, a location.
  keptStorage!.setItem("app-query-cache", '{"clientState":{"queries":[2]}}');
  keepLocally("lambda-outbox", "[2]");
  keepLocally("lambda-location", "{}");
  assert.equal(localStorage.length, 0, "nothing written after the wipe");
  assert.equal(keptStorage!.getItem("app-query-cache"), null);
});

Deno.test("api: a small write outlives its page (keepalive), a read or a write past the browser's cap does not", async () => {
  const sent: { method: string; keepalive: boolean }[] = [];
  const answers: PromiseWithResolvers<Response>[] = [];
  using _ = replaced(globalThis, {
    fetch: (_path: string | URL | Request, init?: RequestInit) => {
      sent.push({ method: init?.method ?? "GET", keepalive: init?.keepalive === true });
      const answer = Promise.withResolvers<Response>();
      answers.push(answer);
      return answer.promise;
    },
  });
  const ok = () => new Response("{}", { headers: { "content-type": "application/json" } });
  const like = api("/api/profile-like", { method: "PUT", json: { likeType: "LIKE" } });
  const read = api("/api/profile-like");
  // Two writes of 30 KB in flight at once: the second would pass the cap, so it goes as usual.
  const big = "x".repeat(30_000);
  const first = api("/api/profile-note", { method: "PUT", json: { note: big } });
  const second = api("/api/profile-note", { method: "PUT", json: { note: big } });
  assert.deepEqual(sent, [
    { method: "PUT", keepalive: true },
    { method: "GET", keepalive: false },
    { method: "PUT", keepalive: true },
    { method: "PUT", keepalive: false },
  ]);
  for (const a of answers) a.resolve(ok());
  await Promise.all([like, read, first, second]);
  // Answered, their bytes are no longer in flight: the next one outlives its page again.
  const again = api("/api/profile-note", { method: "PUT", json: { note: big } });
  assert.deepEqual(sent.at(-1), { method: "PUT", keepalive: true });
  answers.at(-1)!.resolve(ok());
  await again;
});
