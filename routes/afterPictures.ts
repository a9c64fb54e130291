/**
 * Scripts after the first pictures (decision 0174): on a page whose first view is whole in its
 * HTML (the grid), the islands' scripts and their chunks are written inside a `<template>` rather
 * than as live tags, and this one fixed inline script adds them to the page, once it is parsed,
 * when its first pictures (`main img[fetchpriority=high]`) have loaded and painted (the browser's
 * Largest Contentful Paint names a picture; without that API, two frames after they loaded), two
 * frames after they all failed, and at the latest AFTER_PICTURES_MAX_MS after the parse. A slow
 * connection then brings the pictures a member looks at before dozens of script files (the
 * grid's code weighs more than its first screenful of pictures), and the main thread paints them
 * before it compiles. Hydration waited for the first paint already (islands/client.ts); it now
 * also waits for the scripts' download. A hidden page, which paints nothing, adds them at once
 * after the parse. The CSP allows exactly this script by its hash (routes/middleware.ts).
 */

import { createHash } from "node:crypto";

/** The longest the scripts wait for the first pictures, in ms. */
export const AFTER_PICTURES_MAX_MS = 3000;

/** The inline script: it follows the template, whose tags it copies into the head. */
export const AFTER_PICTURES_SCRIPT = `{
const later = document.currentScript.previousElementSibling;
let started = false;
const add = () => {
  if (started) return;
  started = true;
  for (const el of later.content.children) {
    const tag = document.createElement(el.localName);
    for (const a of el.attributes) tag.setAttribute(a.name, a.value);
    document.head.append(tag);
  }
};
const frames = () => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(add, 0)));
const painted = (shown) => {
  if (!shown || !PerformanceObserver.supportedEntryTypes?.includes("largest-contentful-paint")) return frames();
  setTimeout(add, 1000);
  new PerformanceObserver((list, seen) => {
    if (list.getEntries().some((e) => e.element?.localName === "img")) seen.disconnect(), setTimeout(add, 0);
  }).observe({ type: "largest-contentful-paint", buffered: true });
};
addEventListener("DOMContentLoaded", () => {
  if (document.visibilityState === "hidden") return add();
  setTimeout(add, ${AFTER_PICTURES_MAX_MS});
  const first = [...document.querySelectorAll("main img[fetchpriority=high]")];
  let left = first.filter((img) => !img.complete).length;
  if (!left) return painted(first.some((img) => img.naturalWidth > 0));
  const one = () => --left || painted(true);
  for (const img of first) {
    if (img.complete) continue;
    img.addEventListener("load", one, { once: true });
    img.addEventListener("error", one, { once: true });
  }
}, { once: true });
}`;

/** Its CSP source: the SHA-256 of the script's text. */
export const AFTER_PICTURES_HASH = `'sha256-${createHash("sha256").update(AFTER_PICTURES_SCRIPT).digest("base64")}'`;
