import assert from "node:assert/strict";
import { CATALOGUES, negotiate } from "../domain/i18n.ts";
import { TEXTS, titleText } from "../domain/texts.ts";
import "../domain/discovery.ts";
import "../domain/games.ts";
import "../domain/notifications.ts";
import "../domain/moderation.ts";
import { menuFor } from "../routes/table.ts";
import { HOME_CARDS, HOME_CARDS_LOGGED_OUT } from "../components/Cards.tsx";

/** Every key of `en` (nested), each with the kind of its value. */
function shape(o: object, at = ""): string[] {
  return Object.keys(o).flatMap((k) => {
    const v = Object.getOwnPropertyDescriptor(o, k)!;
    const value = v.get ? v.get.call(o) : v.value;
    return value && typeof value === "object" ? shape(value, `${at}${k}.`) : [`${at}${k}:${typeof value}`];
  }).sort();
}

Deno.test("i18n - every catalogue has every key, of the same kind, in every language", () => {
  assert.equal(CATALOGUES.length, 5);
  for (const c of CATALOGUES) {
    for (const [lang, tr] of Object.entries(c.translations)) {
      assert.deepEqual(shape(tr), shape(c.en), `${c.name} in ${lang}`);
    }
  }
});

Deno.test("i18n - the menu, the home cards and the tabs are translated in every language", () => {
  const labels = [
    ...menuFor({ loggedIn: true, roles: ["USER", "ADMIN"] }),
    ...menuFor({ loggedIn: false, roles: [] }),
    ...HOME_CARDS,
    ...HOME_CARDS_LOGGED_OUT,
  ].map((m) => m.label);
  for (const label of labels) assert.ok(label in TEXTS.titles, `"${label}" has no entry in TEXTS.titles`);
  assert.equal(titleText("Gaydar Map"), "Gaydar Map");
});

Deno.test("i18n - Accept-Language picks the best of English, Spanish and Brazilian Portuguese", () => {
  assert.equal(negotiate(undefined), "en");
  assert.equal(negotiate(""), "en");
  assert.equal(negotiate("es-MX,es;q=0.9,en;q=0.8"), "es");
  assert.equal(negotiate("pt-PT"), "pt-BR");
  assert.equal(negotiate("pt-BR,pt;q=0.9"), "pt-BR");
  assert.equal(negotiate("fr-FR,es;q=0.5,en;q=0.7"), "en");
  assert.equal(negotiate("de,pt;q=0.3"), "pt-BR");
  assert.equal(negotiate("es;q=0"), "en");
});
