import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { sharedBuild } from "../../tests/islands_build.ts";
import { reloadManifest } from "../assets.ts";
import { TEXTS } from "../../domain/texts.ts";
import { createLoginToken, getAccountByEmail } from "../../kv/accounts.ts";

await sharedBuild();
reloadManifest();

const escaped = (s: string) => s.replaceAll("'", "&#x27;").replaceAll("&", "&amp;");

Deno.test("home - a notice a member dismisses stays dismissed on every device of theirs; a visitor's on this device", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const home = (cookie?: string) => t.call("GET", "/", cookie ? { cookie } : {}).then((r) => r.text);
    const first = await home(m.cookie);
    assert.ok(first.includes(escaped(TEXTS.underDevelopment)), "the banner shows");
    assert.ok(first.includes(escaped(TEXTS.linkLoginNotice)), "the login-link notice shows");

    // Dismissed on one device: both go, and the answer sends the member home again.
    for (const notice of ["banner", "link-login"]) {
      const r = await t.call("GET", `/?dismiss=${notice}`, { cookie: m.cookie });
      assert.equal(r.status, 303);
      assert.equal(r.headers.get("location"), "/");
    }
    // A second device: a new session of the same account, with none of the first's cookies.
    const account = (await getAccountByEmail(m.email))!;
    const login = await t.call("POST", "/api/auth", { form: { token: await createLoginToken(account.id) } });
    const other = t.cookieOf(login.headers);
    assert.notEqual(other, m.cookie);
    const second = await home(other);
    assert.ok(!second.includes(escaped(TEXTS.underDevelopment)), "no banner on the other device");
    assert.ok(!second.includes(escaped(TEXTS.linkLoginNotice)), "no login-link notice on the other device");
    assert.deepEqual((await getAccountByEmail(m.email))!.dismissed, ["banner", "link-login"]);

    // A visitor's dismissal is a cookie of this device; an unknown notice changes nothing.
    const visitor = await t.call("GET", "/?dismiss=banner");
    assert.equal(visitor.status, 303);
    assert.match(visitor.headers.get("set-cookie") ?? "", /banner=dismissed/);
    assert.ok((await home()).includes(escaped(TEXTS.underDevelopment)), "another visitor still sees it");
    const unknown = await t.call("GET", "/?dismiss=everything", { cookie: other });
    assert.equal(unknown.status, 200);
  } finally {
    t.close();
  }
});

Deno.test("pages - Back may show a visitor's page and the grid again (no no-store); other member pages are never kept; logout clears them", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const cacheOf = async (path: string, cookie?: string) =>
      (await t.call("GET", path, cookie ? { cookie } : {})).headers.get("cache-control");
    assert.equal(await cacheOf("/aboutus"), "no-cache");
    assert.equal(await cacheOf("/search/tile", m.cookie), "private, no-cache");
    assert.equal(await cacheOf("/settings", m.cookie), "no-store");
    assert.equal(await cacheOf(`/profile/${m.profileId}`, m.cookie), "no-store");
    const out = await t.call("POST", "/api/auth/logout", { cookie: m.cookie });
    assert.equal(out.headers.get("clear-site-data"), '"cache"');
  } finally {
    t.close();
  }
});
