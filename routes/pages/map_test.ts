import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { reportPosition } from "../../kv/positions.ts";
import { createAccount } from "../../kv/accounts.ts";
import { config } from "../../config/config.ts";

Deno.test("map page - members only; the island gets the tile URL and the member's own last report, nobody else's", async () => {
  const t = await testApp();
  try {
    const out = await t.call("GET", "/search/map");
    assert.equal(out.status, 302);
    assert.equal(out.headers.get("location"), "/login");

    const viewer = await t.member();
    const first = await t.call("GET", "/search/map", { cookie: viewer.cookie });
    assert.equal(first.status, 200);
    assert.match(first.text, /<title>Gaydar Map · /);
    assert.match(first.text, /<body class="map-body"/);
    assert.match(first.text, /data-island="GaydarMap"/);
    assert.match(first.text, /&quot;known&quot;:null/, "no report yet");

    await reportPosition(viewer.profileId, { lat: 33.4484123, lon: -112.0740456, use: "OVERRIDE", hide: true });
    const neighbour = (await createAccount({ email: "n@example.com" }))!;
    await reportPosition(neighbour.defaultProfileId, {
      lat: 33.4591357,
      lon: -112.0802468,
      use: "OVERRIDE",
      hide: false,
    });
    const r = await t.call("GET", "/search/map", { cookie: viewer.cookie });
    const props = JSON.parse(
      r.text.match(/data-island="GaydarMap" data-props="([^"]*)"/)![1].replaceAll("&quot;", '"').replaceAll(
        "&amp;",
        "&",
      ),
    );
    assert.deepEqual(props.known, { lat: 33.4484123, lon: -112.0740456, use: "OVERRIDE", hide: true });
    assert.equal(props.tileUrl, config.tileUrl);
    assert.equal(props.profileId, viewer.profileId);
    assert.ok(!r.text.includes("33.4591357") && !r.text.includes("112.0802468"), "no other member's reported position");
    const csp = r.headers.get("content-security-policy") ?? "";
    assert.match(csp, /img-src[^;]*https:\/\/tile\.openstreetmap\.org/);
    assert.ok(!/<script(?![^>]*\bsrc=)[^>]*>/.test(r.text), "no inline script");
  } finally {
    t.close();
  }
});
