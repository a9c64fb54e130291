import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { TEXTS } from "../../domain/texts.ts";
import { listContactMessages } from "../../kv/contact.ts";

Deno.test("contact - a member's message is stored", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const r = await t.call("POST", "/api/contactus-messages", {
      cookie: m.cookie,
      json: { name: "Pat Doe", message: "Hi" },
    });
    assert.equal(r.status, 201);
    const [stored] = await listContactMessages();
    assert.equal(stored.name, "Pat Doe");
    assert.equal(stored.message, "Hi");
  } finally {
    t.close();
  }
});

Deno.test("contact - the full name is required, the message is at most 4000, anonymous is 401", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const noName = await t.call("POST", "/api/contactus-messages", {
      cookie: m.cookie,
      json: { name: " ", message: "x" },
    });
    assert.equal(noName.status, 400);
    assert.match(noName.data.error.message, new RegExp(TEXTS.contactNameRequired));
    const long = await t.call("POST", "/api/contactus-messages", {
      cookie: m.cookie,
      json: { name: "A", message: "x".repeat(4001) },
    });
    assert.equal(long.status, 400);
    const max = await t.call("POST", "/api/contactus-messages", {
      cookie: m.cookie,
      json: { name: "A", message: "x".repeat(4000) },
    });
    assert.equal(max.status, 201);
    assert.equal((await t.call("POST", "/api/contactus-messages", { json: { name: "A", message: "x" } })).status, 401);
    assert.equal((await listContactMessages()).length, 1);
  } finally {
    t.close();
  }
});
