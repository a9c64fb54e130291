/**
 * Screens opened in the page: a tap on a link marked `data-in-page` (the discovery screens' ways
 * into a profile) shows the server's page for it without leaving the document. The page's HTML
 * is fetched ahead while its link is in view and parsed while the page is idle, its photo starts
 * loading when the finger comes down, and on the tap its main part takes the place of this one:
 * the stylesheet, the scripts already compiled, the header, the tab bar and the live connection
 * stay. The address follows (`history.pushState`), Back brings the screen it came from back as it
 * was left (its scroll, its loaded pages), and any address still loads the same page from the
 * server (decision 0130). Whatever cannot be shown this way (a failed fetch, a redirect, a page in
 * another shape) is opened as an ordinary link.
 */

import { startWithin, stopWithin } from "./enhance.ts";
import { IN_PAGE, SCREEN_CHANGED } from "./screenChange.ts";
import { setNewest } from "../domain/newest.ts";

/** A page fetched ahead is used for this long; later, it is fetched again. */
const FRESH_MS = 30_000;
/** Pages kept fetched ahead at most (the oldest goes first). */
const MAX_AHEAD = 40;
/** Pages fetched ahead at once, so the screen in view keeps the network first. */
const AHEAD_AT_ONCE = 2;

/** A page parsed, or null when it cannot be shown in the page. */
type Fetched = Promise<Document | null>;

/** A page fetched ahead: its HTML, and the page once parsed (while this one was idle). */
interface Ahead {
  at: number;
  html: Promise<string | null>;
  parsed?: Document | null;
}

/** Pages fetched ahead, each shown once at most (a page shown again is fetched again). */
const ahead = new Map<string, Ahead>();
const queue: string[] = [];
let inFlight = 0;

/** The page's HTML, or null when it cannot be shown in the page. */
function fetchHtml(href: string, priority: RequestPriority): Promise<string | null> {
  // Only this site's pages are shown here; any other address opens as a link.
  if (new URL(href, location.href).origin !== location.origin) return Promise.resolve(null);
  return fetch(href, { credentials: "same-origin", headers: { accept: "text/html" }, priority })
    .then((res) =>
      // A redirect (signed out), a refresh (a profile that is gone) or an error page opens as a link.
      res.ok && !res.redirected && !res.headers.has("refresh") &&
        res.headers.get("content-type")?.startsWith("text/html")
        ? res.text()
        : null
    )
    .catch(() => null);
}

function parse(html: string | null): Document | null {
  if (html === null) return null;
  const doc = new DOMParser().parseFromString(html, "text/html");
  return doc.querySelector("main") ? doc : null;
}

function pump(): void {
  while (inFlight < AHEAD_AT_ONCE && queue.length) {
    const href = queue.shift()!;
    if (ahead.has(href)) continue;
    inFlight++;
    const page: Ahead = { at: Date.now(), html: fetchHtml(href, "low") };
    setNewest(ahead, href, page, MAX_AHEAD);
    page.html.then((html) => {
      // Parsed while the page is idle, if it ever is before the tap; else on the tap.
      if (html !== null && typeof requestIdleCallback === "function") {
        requestIdleCallback(() => page.parsed ??= parse(html));
      }
    }).finally(() => {
      inFlight--;
      pump();
    });
  }
}

/** The page, fetched ahead when fresh (and then no longer kept), else fetched now. */
function takePage(href: string): Fetched {
  const got = ahead.get(href);
  ahead.delete(href);
  if (!got || Date.now() - got.at >= FRESH_MS) return fetchHtml(href, "high").then(parse);
  return got.parsed !== undefined ? Promise.resolve(got.parsed) : got.html.then((html) => got.parsed ??= parse(html));
}

/** Fetches ahead the page at `href` (a link in view, or the next step of a swipe). */
export function fetchAhead(href: string): void {
  if (!ahead.has(href) && !queue.includes(href)) queue.push(href);
  pump();
}

/**
 * Fetches ahead the pages of the in-page links inside `container` as they come into view; returns
 * the function that stops watching.
 */
export function fetchAheadInView(container: Element): () => void {
  if (typeof IntersectionObserver !== "function") return () => {};
  const seen = new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      seen.unobserve(e.target);
      const href = e.target.getAttribute("href");
      if (href) fetchAhead(href);
    }
  });
  for (const a of container.querySelectorAll(`a[${IN_PAGE}]`)) seen.observe(a);
  return () => seen.disconnect();
}

/** The page a finger is on: taken from those fetched ahead, its photo loading. */
let readying: { href: string; at: number; doc: Fetched } | null = null;

/** The photo of a page readied, already loading (and decoding) in this page: it takes the parsed one's place. */
const photos = new WeakMap<Document, { parsed: Element; loading: HTMLImageElement }>();

/** Takes the page and starts loading its first picture (the profile's photo) as the finger comes down. */
function ready(href: string): Fetched {
  if (readying?.href === href && Date.now() - readying.at < FRESH_MS) return readying.doc;
  const doc = takePage(href).then((doc) => {
    const parsed = doc?.querySelector("main img[fetchpriority=high]");
    if (doc && parsed) {
      // The same element, made in this page, loads at once; shown in its place, it paints decoded.
      const loading = document.importNode(parsed) as HTMLImageElement;
      loading.decode().catch(() => {});
      photos.set(doc, { parsed, loading });
    }
    return doc;
  });
  readying = { href, at: Date.now(), doc };
  return doc;
}

/** Does the page have an element of `selector` whose `attr` is `value`? */
function has(selector: string, attr: string, value: string): boolean {
  return [...document.querySelectorAll(selector)].some((el) => el.getAttribute(attr) === value);
}

/** The screens the page has shown, by history entry, while they can still be shown again. */
const screens = new Map<string, Screen>();

/** A screen as it was left: Back shows it again so, its focus where it was. */
interface Screen {
  main: HTMLElement;
  path: string;
  title: string;
  bodyClass: string;
  header: Element | null;
  y: number;
  focus: Element | null;
}

/** The path (and query) of the screen shown: a change of fragment only stays on it. */
let shownPath = "";
const pathOf = (url: { pathname: string; search: string }) => url.pathname + url.search;
/** The history state's field naming the entry's screen. */
const SCREEN_KEY = "inPageScreen";

function screenKeyOf(state: unknown): string | undefined {
  return (state as Record<string, unknown> | null)?.[SCREEN_KEY] as string | undefined;
}

/** The header: its title or tagline and its menu's current page differ between screens. */
function headerPart(root: Document): Element | null {
  return root.querySelector(".app-header");
}

/** Brings `header` (from another screen) into the page's header, keeping the header's own element and behaviour. */
function showHeader(header: Element | null): void {
  const current = headerPart(document);
  if (!header || !current) return;
  const title = (h: Element) => h.querySelector(":scope > .screen-title, :scope > .tagline");
  const [was, next] = [title(current), title(header)];
  // The title or tagline stands after the brand (none in discreet mode: after the menu).
  const after = current.querySelector(":scope > .brand") ?? current.querySelector(":scope > .menu");
  if (next) was ? was.replaceWith(next.cloneNode(true)) : after?.after(next.cloneNode(true));
  else was?.remove();
  const links = header.querySelectorAll(".menu a");
  current.querySelectorAll(".menu a").forEach((a, i) => {
    const page = links[i]?.getAttribute("aria-current");
    if (page) a.setAttribute("aria-current", page);
    else a.removeAttribute("aria-current");
  });
}

/** Adds the stylesheets of `doc` this page does not have yet; resolves when they apply. */
function bringStyles(doc: Document): Promise<unknown> {
  return Promise.all(
    [...doc.querySelectorAll("link[rel=stylesheet]")]
      .filter((link) => !has("link[rel=stylesheet]", "href", link.getAttribute("href")!))
      .map((link) =>
        new Promise((applied) => {
          const el = document.importNode(link);
          el.addEventListener("load", applied);
          el.addEventListener("error", applied);
          document.head.append(el);
        })
      ),
  );
}

/**
 * Runs the scripts of `doc` this page has not run: each island's bundle hydrates its markers, the
 * shown screen's included, when it runs (islands/client.ts).
 */
function bringScripts(doc: Document): void {
  for (const link of doc.querySelectorAll("link[rel=modulepreload]")) {
    if (!has("link[rel=modulepreload]", "href", link.getAttribute("href")!)) {
      document.head.append(document.importNode(link));
    }
  }
  for (const script of doc.querySelectorAll("script[type=module][src]")) {
    const src = script.getAttribute("src")!;
    if (has("script[type=module][src]", "src", src)) continue;
    const el = document.createElement("script");
    el.type = "module";
    el.src = src;
    document.head.append(el);
  }
}

/**
 * Runs `fn` once the shown screen's photo has decoded (half a second at most) and two frames have
 * passed: its scripts' compiling and hydrating would otherwise hold the frame that paints the photo.
 */
function afterPhoto(photo: HTMLImageElement | undefined, fn: () => void): void {
  const decoded = photo?.decode().catch(() => {});
  Promise.race([decoded, new Promise((late) => setTimeout(late, 500))]).then(() =>
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(fn, 0)))
  );
}

/** Shows a screen in place of the page's main part, with its title, body class, header and scroll. */
function show(screen: Screen): void {
  document.querySelector("main")!.replaceWith(screen.main);
  document.title = screen.title;
  document.body.className = screen.bodyClass;
  showHeader(screen.header);
  shownPath = screen.path;
  scrollTo(0, screen.y);
  const focus = screen.focus && screen.main.contains(screen.focus) ? screen.focus : screen.main;
  (focus as HTMLElement).focus({ preventScroll: true });
  dispatchEvent(new Event(SCREEN_CHANGED));
}

/** Screens kept at most: the oldest stops (its islands unmounted), and Back to it loads it again. */
const MAX_KEPT = 5;

/** Keeps the screen shown now under this history entry, so Back can show it again. */
function keepCurrent(): void {
  const key = screenKeyOf(history.state) ?? crypto.randomUUID();
  history.replaceState({ ...(history.state ?? {}), [SCREEN_KEY]: key }, "");
  screens.set(key, {
    main: document.querySelector("main")!,
    path: pathOf(location),
    title: document.title,
    bodyClass: document.body.className,
    header: headerPart(document)?.cloneNode(true) as Element ?? null,
    y: scrollY,
    focus: document.activeElement,
  });
  if (screens.size > MAX_KEPT) {
    const [oldest, screen] = screens.entries().next().value!;
    screens.delete(oldest);
    stopWithin(screen.main);
  }
}

let listening = false;

/** Back and Forward between screens of this page: a kept screen shows again; any other loads. */
function listen(): void {
  if (listening) return;
  listening = true;
  history.scrollRestoration = "manual";
  addEventListener("popstate", (e) => {
    if (pathOf(location) === shownPath) return;
    const kept = screens.get(screenKeyOf(e.state) ?? "");
    if (!kept) return location.reload();
    // The screen left is not kept: its islands stop, and Forward loads it again.
    const leaving = document.querySelector("main")!;
    for (const [key, s] of screens) if (s.main === leaving) screens.delete(key);
    stopWithin(leaving);
    show(kept);
  });
}

/** The finger comes down on an in-page link: its page is readied. */
export function onInPageDown(e: { currentTarget: Element }): void {
  const href = e.currentTarget.getAttribute("href");
  if (href) void ready(href);
}

/** The parts of a click (the DOM's or React's) read here. */
type InPageClick =
  & Pick<MouseEvent, "button" | "metaKey" | "ctrlKey" | "shiftKey" | "altKey" | "defaultPrevented" | "preventDefault">
  & { currentTarget: Element };

/**
 * A click on an in-page link: the page opens in this one. A click meant for a new tab or window
 * goes to the browser.
 */
export function onInPageClick(e: InPageClick): void {
  const href = e.currentTarget.getAttribute("href");
  if (!href || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.defaultPrevented) return;
  e.preventDefault();
  openInPage(href);
}

/** The props that make a link open its page in this one. */
export const inPageLink = { [IN_PAGE]: "", onPointerDown: onInPageDown, onClick: onInPageClick };

/** A page being opened: another tap meanwhile is not a second one. */
let opening = false;

/** Opens the page at `href` in this one; a page that cannot be shown here loads as a link would. */
export function openInPage(href: string): void {
  if (opening) return;
  opening = true;
  void ready(href).then(async (doc) => {
    readying = null;
    if (!doc) return location.assign(href);
    await bringStyles(doc);
    listen();
    keepCurrent();
    history.pushState({ [SCREEN_KEY]: crypto.randomUUID() }, "", href);
    const main = document.adoptNode(doc.querySelector("main")!);
    const photo = photos.get(doc);
    if (photo && main.contains(photo.parsed)) photo.parsed.replaceWith(photo.loading);
    show({
      main,
      path: pathOf(location),
      title: doc.title,
      bodyClass: doc.body.className,
      header: headerPart(doc),
      y: 0,
      focus: null,
    });
    afterPhoto(photo?.loading, () => {
      bringScripts(doc);
      startWithin(main);
    });
  }).finally(() => opening = false);
}
