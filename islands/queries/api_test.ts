import assert from "node:assert/strict";
import { clearLocalData, keepLocally } from "./api.ts";
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
