import assert from "node:assert/strict";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MessageBubble } from "./MessageBubble.tsx";
import { MODERATION_TEXTS } from "../domain/moderation.ts";
import { LOCALES, withLocale } from "../domain/i18n.ts";
import type { Message } from "../domain/shapes/messages.ts";

const held = {
  id: "m1",
  senderProfileId: "a",
  recipientProfileId: "b",
  bodyText: "Cheap followers here",
  profilePicIds: [],
  tsCreated: 0,
  held: true,
} as unknown as Message;

/** A text as React writes it into HTML. */
const html = (t: string) => t.replaceAll("&", "&amp;").replaceAll("'", "&#x27;").replaceAll('"', "&quot;");

Deno.test("message bubble - a held message hides its text and says secret chats are not checked this way", () => {
  for (const lang of LOCALES) {
    const page = withLocale(lang, () => renderToStaticMarkup(createElement(MessageBubble, { m: held, mine: false })));
    const why = withLocale(lang, () => MODERATION_TEXTS.spamSecret);
    assert.ok(page.includes(html(withLocale(lang, () => MODERATION_TEXTS.spamHeld))), lang);
    assert.ok(page.includes(html(why)), `${lang}: ${why}`);
    assert.ok(!page.includes("Cheap followers"), "the held text stays hidden");
  }
  assert.match(withLocale("en", () => MODERATION_TEXTS.spamSecret), /^Secret chats are not checked for spam/);
});
