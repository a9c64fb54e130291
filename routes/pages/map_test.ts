import assert from "node:assert/strict";
import { SPECULATION_RULES, SPECULATION_RULES_HASH } from "../speculation.ts";
import { testApp } from "../../tests/api.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { createAccount } from "../../kv/accounts.ts";
import { config } from "../../config/config.ts";

Deno.test("map page - members only; the island gets the attribution and the member's own last report, nobody else's; the tile host is named nowhere", async () => {
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
    assert.match(first.text, /data-island="NearbyMap"/);
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
      r.text.match(/data-island="NearbyMap" data-props="([^"]*)"/)![1].replaceAll("&quot;", '"')
        .replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&#x27;", "'").replaceAll("&amp;", "&"),
    );
    assert.deepEqual(props.known, { lat: 33.4484123, lon: -112.0740456, use: "OVERRIDE", hide: true });
    // Tiles come from this app's /tiles: neither the island nor the CSP names the tile host.
    assert.equal(props.tileUrl, undefined);
    assert.equal(props.attribution, config.tileAttribution);
    assert.match(r.text, /OpenStreetMap<\/a> contributors/, "the attribution is on the page");
    const tileHost = new URL(config.tileUrl.replace(/\{[^}]*\}/g, "0")).host;
    assert.ok(!r.text.includes(tileHost), `the page never names ${tileHost}`);
    assert.equal(props.profileId, viewer.profileId);
    assert.ok(!r.text.includes("33.4591357") && !r.text.includes("112.0802468"), "no other member's reported position");
    const csp = r.headers.get("content-security-policy") ?? "";
    assert.match(csp, /img-src 'self' data: blob:(;|$)/, "images from this origin only");
    // No inline script but the speculation rules (JSON, not code; the CSP allows exactly them by hash).
    assert.ok(!/<script(?![^>]*\bsrc=)(?![^>]*type="speculationrules")[^>]*>/.test(r.text), "no inline script");
    assert.ok(r.text.includes(`<script type="speculationrules">${SPECULATION_RULES}</script>`));
    assert.ok(csp.includes(SPECULATION_RULES_HASH));
  } finally {
    t.close();
  }
});
