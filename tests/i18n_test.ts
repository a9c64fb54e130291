import assert from "node:assert/strict";
import { CATALOGUES, negotiate } from "../domain/i18n.ts";
import { TEXTS, titleText } from "../domain/texts.ts";
import "../domain/discovery.ts";
import "../domain/games.ts";
import "../domain/notifications.ts";
import "../domain/moderation.ts";
import "../domain/phrases.ts";
import "../domain/verified.ts";
import "../domain/identify.ts";
import "../domain/dungeon.ts";
import "../domain/secretChats.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import {
  dateTimeFormat,
  dir,
  KEPT_FORMATTERS,
  type Locale,
  locale,
  LOCALES,
  num,
  numberFormat,
  PSEUDO_LOCALE,
  withLocale,
} from "../domain/i18n.ts";
import { isTimeZone } from "../domain/quietHours.ts";
import { SCREEN_TEXTS } from "../domain/screenTexts.ts";
import { phrase } from "../domain/phrases.ts";
import { formatDistance } from "../domain/format.ts";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { AboutBody, TosBody } from "../routes/pages/legal.tsx";
import { AuditLog } from "../components/AuditLog.tsx";
import { FilterPanel, NO_FILTER } from "../components/FilterPanel.tsx";
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
  // Every catalogue the app has, each once: the ones this file's imports register, whatever else is loaded.
  assert.deepEqual(CATALOGUES.map((c) => c.name).sort(), [
    "DISCOVERY_TEXTS",
    "DUNGEON_TEXTS",
    "FEEL_TEXTS",
    "GAME_TEXTS",
    "IDENTIFY_TEXTS",
    "MODERATION_TEXTS",
    "NOTIFICATION_TEXTS",
    "PHRASES",
    "SCREEN_TEXTS",
    "SECRET_TEXTS",
    "TEXTS",
    "UI_TEXTS",
    "VERIFIED_TEXTS",
  ]);
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

Deno.test("i18n - Accept-Language picks the best of English, Spanish, Brazilian Portuguese, French and Arabic", () => {
  assert.equal(negotiate(undefined), "en");
  assert.equal(negotiate(""), "en");
  assert.equal(negotiate("es-MX,es;q=0.9,en;q=0.8"), "es");
  assert.equal(negotiate("pt-PT"), "pt-BR");
  assert.equal(negotiate("pt-BR,pt;q=0.9"), "pt-BR");
  assert.equal(negotiate("fr-FR,es;q=0.5,en;q=0.7"), "fr");
  assert.equal(negotiate("de-DE,es;q=0.5,en;q=0.7"), "en");
  assert.equal(negotiate("ar-EG,ar;q=0.9"), "ar");
  assert.equal(negotiate("fr-CA"), "fr");
  assert.equal(negotiate("de,pt;q=0.3"), "pt-BR");
  assert.equal(negotiate("es;q=0"), "en");
});

/**
 * English written inline in JSX: a text node that starts with a letter, or a literal aria-label,
 * placeholder, title or alt. Brand names and the like are not texts to translate.
 */
const INLINE = /(?:aria-label|placeholder|title|alt)="([A-Za-z][^"]*)"|(?<![=-])>\s*([A-Z][a-z][^<>{};=]*?)\s*</g;
/** A JSX sentence around a value: `<p>Blocking hides you and {name} from each other…</p>`. */
const INLINE_AROUND = /(?<![=-])>\s*([A-Z][a-z][^<>{};=()&|]*\{[^{}<>]*\}[^<>{};=()&|]*?)\s*</g;
/** A template that starts with words: `` `Height ${p.height}` ``, `` `Remove tag ${t}` ``. */
const INLINE_TEMPLATE = /`([A-Z][a-z]+(?: [A-Za-z]+)*:? ?)\$\{/g;
/** Words a script puts on the page itself: `el.textContent = "Online now"`, `b.title = "Close"`. */
const INLINE_DOM = /(?:textContent|innerText|title|ariaLabel|placeholder|alt)\s*=\s*["'`]([A-Z][a-z][^"'`]*)["'`]/g;
/** English in a JSX expression: `{open ? "Show Less" : "Show More"}` (words, not key names). */
const INLINE_CHOICE = /\?\s*"([A-Z][a-z]+ [^"]*)"\s*:\s*"([A-Z][a-z]+ [^"]*)"/g;
const NOT_TEXT = new Set(["Lambda", "NSFW", "GPS", "OpenStreetMap", "Leaflet", "Unsplash", "Gaydar Map"]);

/** The inline English each file still has (docs/decisions/0027-languages.md): may only go down. */
const STILL_INLINE: Record<string, number> = {
  "routes/pages/account.tsx": 4,
  "routes/pages/profileEdit.tsx": 1,
  "routes/pages/pictures.tsx": 1,
  "islands/NearbyMap.tsx": 1,
  "islands/Dashboard.tsx": 1,
  "islands/MemberFile.tsx": 2,
  "islands/SettingsForm.tsx": 1,
  "islands/Onboarding.tsx": 2,
  "islands/map/markers.ts": 1,
  "islands/PicUpload.tsx": 2,
  // The service worker's last resort, when not even the cached offline page is there: no language known.
  "islands/sw/worker.ts": 2,
};

/** Files that hold a body per language (their English is one of three). */
const PER_LANGUAGE = new Set(["routes/pages/legal.tsx", "routes/pages/legalFr.tsx", "routes/pages/legalAr.tsx"]);

/** Every source file under `dir` (.tsx and .ts: an island's scripts write to the page too), tests left out. */
async function* sourcesUnder(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) yield* sourcesUnder(path);
    else if (/\.tsx?$/.test(path) && !/_test\.tsx?$/.test(path)) yield path;
  }
}

Deno.test("i18n - islands, components and pages write no new English inline", async () => {
  const root = new URL("..", import.meta.url).pathname;
  const found: Record<string, string[]> = {};
  for (const dir of ["islands", "components", "routes/pages"]) {
    for await (const path of sourcesUnder(`${root}${dir}`)) {
      const file = path.slice(root.length);
      if (PER_LANGUAGE.has(file)) continue;
      const source = await Deno.readTextFile(path);
      const texts = [
        ...[...source.matchAll(INLINE)].map((m) => m[1] ?? m[2]),
        ...[...source.matchAll(INLINE_AROUND)].map((m) => m[1]),
        ...[...source.matchAll(INLINE_TEMPLATE)].map((m) => m[1]),
        ...[...source.matchAll(INLINE_DOM)].map((m) => m[1]),
        ...[...source.matchAll(INLINE_CHOICE)].flatMap((m) => [m[1], m[2]]),
      ].filter((t) => !NOT_TEXT.has(t));
      if (texts.length) found[file] = texts;
    }
  }
  for (const [file, texts] of Object.entries(found)) {
    assert.ok(
      texts.length <= (STILL_INLINE[file] ?? 0),
      `${file} writes English inline (put it in a catalogue): ${texts.join(" | ")}`,
    );
  }
  for (
    const file of [
      "islands/ProfileView.tsx",
      "islands/ActionsPanel.tsx",
      "islands/PicEditor.tsx",
      "islands/Likes.tsx",
      "components/BriefFacts.tsx",
    ]
  ) {
    assert.equal(found[file], undefined, file);
  }
});

Deno.test("i18n - dates, times and numbers are written through the kept formatters, none made per text", async () => {
  // Making an Intl formatter costs tens of µs, and `toLocale*String` with a locale makes one per
  // call: for every tile and message, on the server and again in the browser.
  const MAKES =
    /new Intl\.(NumberFormat|DateTimeFormat|RelativeTimeFormat|PluralRules|ListFormat)\(|\.toLocale(Date|Time)?String\((?!"en(-US)?"\))[^)]/g;
  /** The formatters' own module. */
  const ALLOWED: Record<string, number> = { "domain/i18n.ts": 4 };
  const root = new URL("..", import.meta.url).pathname;
  const found: string[] = [];
  for (const dir of ["domain", "components", "islands", "routes", "kv", "workers"]) {
    for await (const path of sourcesUnder(`${root}${dir}`)) {
      const file = path.slice(root.length);
      if (/_test\.tsx?$/.test(file)) continue;
      const count = [...(await Deno.readTextFile(path)).matchAll(MAKES)].length;
      if (count > (ALLOWED[file] ?? 0)) found.push(`${file}: ${count}`);
    }
  }
  assert.deepEqual(found, [], "use numberFormat, dateTimeFormat or relativeTimeFormat of domain/i18n.ts");
  assert.equal(
    numberFormat("fr", { style: "unit", unit: "meter" }),
    numberFormat("fr", { style: "unit", unit: "meter" }),
  );
  assert.notEqual(numberFormat("fr"), numberFormat("es"));
  assert.equal(withLocale("ar", () => num(1234567)), "1,234,567");

  // A time zone is the member's to name, in any spelling Intl accepts (its letters in any case):
  // each spelling would keep a formatter, so past the bound the oldest made are forgotten.
  const spelling = (i: number) =>
    `${[..."europe"].map((ch, at) => (i >> at) & 1 ? ch.toUpperCase() : ch).join("")}/${
      [..."madrid"].map((ch, at) => (i >> (at + 6)) & 1 ? ch.toUpperCase() : ch).join("")
    }`;
  assert.ok(isTimeZone(spelling(1)) && isTimeZone(spelling(2)));
  const first = dateTimeFormat("en", { timeZone: spelling(0) });
  for (let i = 1; i <= KEPT_FORMATTERS; i++) dateTimeFormat("en", { timeZone: spelling(i) });
  const last = dateTimeFormat("en", { timeZone: spelling(KEPT_FORMATTERS) });
  assert.equal(dateTimeFormat("en", { timeZone: spelling(KEPT_FORMATTERS) }), last, "the newest kept");
  assert.notEqual(dateTimeFormat("en", { timeZone: spelling(0) }), first, "the oldest forgotten");
});

Deno.test("i18n - the texts moved out of the islands read in every language, not English", () => {
  // The same word as in English in some language.
  const same = new Set(["chat", "zoom", "menu", "roles", "status", "lostUse", "message", "action"]);
  for (const l of ["es", "pt-BR", "fr", "ar"] as const) {
    for (const [key, en] of Object.entries(UI_TEXTS)) {
      if (same.has(key)) continue;
      // A text with a value in it is read with one.
      const read = (t: unknown) => typeof t === "function" ? t("Sam") : t;
      assert.notEqual(
        withLocale(l, () => read((UI_TEXTS as Record<string, unknown>)[key])),
        read(en),
        `UI_TEXTS.${key} in ${l}`,
      );
    }
  }
  assert.equal(withLocale("es", () => UI_TEXTS.noMessagesYet), "Aún no hay mensajes. ¡Saluda!");
  assert.equal(withLocale("fr", () => UI_TEXTS.noMessagesYet), "Pas encore de messages. Dis bonjour !");
  assert.equal(withLocale("ar", () => UI_TEXTS.noMessagesYet), "لا رسائل بعد. قل مرحبًا!");
  assert.equal(UI_TEXTS.noMessagesYet, "No messages yet. Say hello!");
});

Deno.test("i18n - About and the Terms of Service read in the language in use", () => {
  const about = (l: Locale) => withLocale(l, () => renderToStaticMarkup(createElement(AboutBody, { brand: "Lambda" })));
  const tos = (l: Locale) => withLocale(l, () => renderToStaticMarkup(createElement(TosBody)));
  assert.match(about("en"), /Our values/);
  assert.match(about("es"), /Nuestros valores/);
  assert.match(about("pt-BR"), /Nossos valores/);
  assert.match(tos("en"), /Terms of Service/);
  assert.match(tos("es"), /Términos del servicio/);
  assert.match(tos("pt-BR"), /Termos de Serviço/);
  assert.match(about("fr"), /Nos valeurs/);
  assert.match(tos("fr"), /Politique de confidentialité/);
  assert.match(about("ar"), /قيمنا/);
  assert.match(tos("ar"), /شروط الخدمة/);
  for (const l of ["es", "pt-BR", "fr", "ar"] as const) {
    for (const en of ["Our values", "Volunteers", "Terms of Service", "Privacy Policy", "Contact Us"]) {
      assert.ok(!about(l).includes(en) && !tos(l).includes(en), `"${en}" in ${l}`);
    }
  }
});

Deno.test("i18n - components render in Spanish and Portuguese without their English texts", () => {
  const render = (l: "en" | "es" | "pt-BR") =>
    withLocale(l, () =>
      renderToStaticMarkup(createElement(AuditLog, { entries: [] })) +
      renderToStaticMarkup(createElement(FilterPanel, { value: NO_FILTER, onChange: () => {}, open: true })));
  assert.match(render("en"), /No moderation yet\./);
  assert.match(render("en"), /Clear filter/);
  for (const l of ["es", "pt-BR"] as const) {
    const html = render(l);
    for (const en of ["Audit log", "No moderation yet.", "Clear filter", ">Likes<"]) {
      assert.ok(!html.includes(en), `"${en}" in ${l}`);
    }
  }
  assert.match(render("es"), /Aún no hay moderación\./);
  assert.match(render("pt-BR"), /Limpar filtro/);
});

Deno.test("i18n - Arabic counts take their six plural forms, through Intl.PluralRules", () => {
  const unread = (n: number) => withLocale("ar", () => SCREEN_TEXTS.unread(n));
  assert.equal(unread(0), "لا رسائل غير مقروءة");
  assert.equal(unread(1), "رسالة واحدة غير مقروءة");
  assert.equal(unread(2), "رسالتان غير مقروءتين");
  assert.equal(unread(3), "3 رسائل غير مقروءة");
  assert.equal(unread(11), "11 رسالة غير مقروءة");
  assert.equal(unread(100), "100 رسالة غير مقروءة");
  assert.equal(withLocale("fr", () => SCREEN_TEXTS.unread(1)), "1 message non lu");
  assert.equal(withLocale("fr", () => SCREEN_TEXTS.unread(2)), "2 messages non lus");
  assert.equal(withLocale("fr", () => num(12345.5)), "12\u202f345,5");
});

Deno.test("i18n - distances through Intl: feet and miles in English, metres and kilometres elsewhere", () => {
  assert.equal(withLocale("en", () => formatDistance(1000)), "3281 ft");
  assert.equal(withLocale("es", () => formatDistance(850)), "850 m");
  assert.equal(withLocale("fr", () => formatDistance(2500)), "2,50\u202fkm");
  assert.equal(withLocale("pt-BR", () => formatDistance(12_345)), "12,35 km");
  assert.equal(withLocale("ar", () => formatDistance(2500)), "2.50 كم");
});

Deno.test("i18n - the pseudo-locale: every catalogue text accented, bracketed and 40% longer; off unless asked", () => {
  const like = withLocale(PSEUDO_LOCALE, () => TEXTS.like);
  assert.match(like, /^⟦Ĺîķé .+⟧$/);
  assert.ok(like.length >= Math.ceil("Like".length * 1.4));
  assert.ok(!/[A-Za-z]/.test(withLocale(PSEUDO_LOCALE, () => UI_TEXTS.noMessagesYet)));
  assert.match(withLocale(PSEUDO_LOCALE, () => phrase("Message {name}", { name: "Sam" })), /Sam/);
  assert.equal(withLocale(PSEUDO_LOCALE, () => locale()), "en");
  assert.equal(dir("ar"), "rtl");
  assert.equal(dir(PSEUDO_LOCALE), "ltr");
  assert.ok(!(LOCALES as readonly string[]).includes(PSEUDO_LOCALE), "never offered to members");
});
