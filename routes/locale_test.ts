import assert from "node:assert/strict";
import { testApp } from "../tests/api.ts";
import { withLocale } from "../domain/i18n.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import { withRequestLocale } from "./middleware.ts";

// An English request runs without a language store of its own (routes/middleware.ts
// `withRequestLocale`); the others keep theirs. Each must still answer in its caller's language.

Deno.test("request language - English, French and Spanish calls served at once each answer in their own", async () => {
  const t = await testApp();
  try {
    const langs = ["en", "fr", "es", "en", "fr", "es", "en", "ar"] as const;
    const answers = await Promise.all(
      langs.map((lang) => t.call("GET", "/api/notifications/x", { headers: { "accept-language": lang } })),
    );
    answers.forEach((r, i) => {
      assert.equal(r.status, 401);
      assert.equal(r.data.error.message, withLocale(langs[i], () => UI_TEXTS.pleaseLogIn), langs[i]);
    });
    assert.notEqual(withLocale("fr", () => UI_TEXTS.pleaseLogIn), withLocale("en", () => UI_TEXTS.pleaseLogIn));
  } finally {
    t.close();
  }
});

Deno.test("request language - an English call made while serving a French one answers in English", async () => {
  const t = await testApp();
  try {
    const r = await withRequestLocale("fr", () => t.call("GET", "/api/notifications/x"));
    assert.equal(r.status, 401);
    assert.equal(r.data.error.message, withLocale("en", () => UI_TEXTS.pleaseLogIn));
  } finally {
    t.close();
  }
});
