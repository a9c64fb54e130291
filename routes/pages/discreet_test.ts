/**
 * Discreet mode names nothing: the served HTML of a member's main pages (their titles, the
 * manifest they link, the header, the cards, the menu and every island's props) never says the
 * app's name, nor "gay", "lesbian" or "Gaydar", on a device in discreet mode, in any language.
 */

import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { createAccount } from "../../kv/accounts.ts";
import { updateProfile } from "../../kv/profiles.ts";
import { vapidKeys } from "../../kv/push.ts";

/** What would name the app or what it is for, in the five languages ("gay", "lesbiana", "المثلية", "غيدار"). */
const NAMING = /lambda|gay|lesbi|λ|مثلي|غيدار/i;

/** The main pages a member opens. */
const PAGES = [
  "/",
  "/search/map",
  "/search/tile",
  "/search/swype",
  "/search/profile",
  "/chat/personal",
  "/chat/broadcast",
  "/notifications",
  "/likes/profilelikedyou",
  "/games",
  "/profileEdit",
  "/settings",
  "/billing",
  "/contactus",
];

/** The text of an HTML page with its attributes' entities read back (island props are JSON in an attribute). */
function decoded(html: string): string {
  return html.replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&#x27;", "'")
    .replaceAll("&lt;", "<").replaceAll("&gt;", ">");
}

/** Each place in `text` that names the app, with a little of what is around it. */
function namings(text: string): string[] {
  return [...text.matchAll(new RegExp(NAMING, "gi"))].map((m) =>
    text.slice(Math.max(0, m.index! - 40), m.index! + 40).replaceAll("\n", " ")
  );
}

Deno.test("discreet mode - no page, title, manifest, card or island prop names the app or says gay", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    await reportPosition(m.profileId, { lat: 40.4168, lon: -3.7038, use: "OVERRIDE", hide: false });
    const other = (await createAccount({ email: "neighbour@example.com" }))!.defaultProfileId;
    await updateProfile(other, { profilename: "Sam", birthdate: "1990-05-05" });
    await reportPosition(other, { lat: 40.4169, lon: -3.7039, use: "OVERRIDE", hide: false });
    const on = await t.call("PUT", "/api/safety", { cookie: m.cookie, json: { discreet: true } });
    assert.equal(on.status, 200);
    // The push key the settings page gives its island is random base64url: its letters are no word
    // (one run in a few hundred, they spell "gay"), so that exact text alone is left out of the scan.
    const { publicKey } = await vapidKeys();
    const found: string[] = [];
    for (const lang of ["en", "es", "pt-BR", "fr", "ar"]) {
      const cookie = `${m.cookie}; discreet=1`;
      for (const path of [...PAGES, `/profile/${other}`]) {
        const r = await t.call("GET", path, { cookie, headers: { "accept-language": lang } });
        assert.equal(r.status, 200, `${lang} ${path}`);
        const html = decoded(r.text).replaceAll(publicKey, "");
        assert.match(html, /<main id="main"/, `${lang} ${path}: a page`);
        assert.match(html, new RegExp(`<html lang="${lang}"`), `${lang} ${path}: in its language`);
        for (const hit of namings(html)) found.push(`${lang} ${path}: …${hit}…`);
      }
    }
    // The manifest the pages link names nothing either.
    const manifests = new Set<string>();
    const home = await t.call("GET", "/", { cookie: `${m.cookie}; discreet=1` });
    for (const x of home.text.matchAll(/rel="manifest" href="([^"]+)"/g)) manifests.add(x[1]);
    assert.equal(manifests.size, 1);
    for (const href of manifests) {
      const r = await t.call("GET", href);
      assert.equal(r.status, 200);
      for (const hit of namings(JSON.stringify(r.data))) found.push(`${href}: …${hit}…`);
    }
    assert.deepEqual(found, []);
  } finally {
    await t.close();
  }
});
