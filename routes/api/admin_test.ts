import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { setRoles } from "../../kv/accounts.ts";
import { getAccountByEmail } from "../../kv/accounts.ts";

Deno.test("admin - role counts and Create 20 Users need the ADMIN role", async () => {
  const t = await testApp();
  try {
    const m = await t.member("plain@example.com");
    assert.equal((await t.call("GET", "/api/admin/dashboard/userRoleCounts", { cookie: m.cookie })).status, 403);
    assert.equal((await t.call("POST", "/api/admin/testUsersCreate/20", { cookie: m.cookie })).status, 403);
    assert.equal((await t.call("GET", "/api/admin/dashboard/userRoleCounts")).status, 401);

    const admin = await t.member("admin@example.com");
    await setRoles((await getAccountByEmail("admin@example.com"))!.id, ["USER", "ADMIN"]);
    const created = await t.call("POST", "/api/admin/testUsersCreate/20", { cookie: admin.cookie });
    assert.equal(created.status, 201);
    assert.equal(created.data.created, 20);
    const counts = await t.call("GET", "/api/admin/dashboard/userRoleCounts", { cookie: admin.cookie });
    assert.deepEqual(counts.data, [
      { role: "ADMIN", count: 1 },
      { role: "TEST", count: 20 },
      { role: "USER", count: 22 },
    ]);
    assert.equal((await t.call("POST", "/api/admin/testUsersCreate/abc", { cookie: admin.cookie })).status, 400);
    assert.equal((await t.call("POST", "/api/admin/testUsersCreate/100000", { cookie: admin.cookie })).status, 400);
  } finally {
    t.close();
  }
});
