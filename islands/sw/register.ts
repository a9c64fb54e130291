/**
 * The pages' side of the service worker (islands/sw/worker.ts): registered for every signed-in
 * member on the first page load, a new version offered ("A new version is ready: reload") rather
 * than swapped under a page, the offline line, and the wipe of the member's caches at logout.
 */

import { META_CACHE, PRIVATE_PREFIX, WORKER_MESSAGES } from "./caches.ts";

/** The worker's stable address and scope (routes/assets.ts serves it with Service-Worker-Allowed). */
export const WORKER_URL = "/static/sw.js";
/** How often an open page asks whether a new version is out (browsers also check at each navigation). */
const UPDATE_CHECK_MS = 60 * 60_000;

export interface OfflineTexts {
  offlineLine: string;
  updateReady: string;
  reload: string;
}

const supported = () => typeof navigator !== "undefined" && "serviceWorker" in navigator;

/**
 * Forgets the member's offline copies on this device: the worker's private caches (pages, reads,
 * pictures) and which session they were for. Called at logout and at a forced logout.
 */
export async function wipeOfflineCaches(): Promise<void> {
  if (supported()) navigator.serviceWorker.controller?.postMessage({ type: WORKER_MESSAGES.logout });
  if (typeof caches === "undefined") return;
  const names = await caches.keys();
  await Promise.all(names.filter((n) => n.startsWith(PRIVATE_PREFIX) || n === META_CACHE).map((n) => caches.delete(n)));
}

/** Registers the worker after the page has loaded, and shows the offline line and the update offer in `header`. */
export function startOffline(header: HTMLElement, texts: OfflineTexts): void {
  showOfflineLine(header, texts.offlineLine);
  if (!supported()) return;
  const register = () =>
    navigator.serviceWorker.register(WORKER_URL, { scope: "/" }).then((reg) => {
      watchForUpdates(reg, header, texts);
      setInterval(() => void reg.update().catch(() => {}), UPDATE_CHECK_MS);
    }).catch((e) => console.warn("service worker:", e));
  if (document.readyState === "complete") register();
  else addEventListener("load", register, { once: true });
}

/** A status line (the offline line, the update offer). */
function statusLine(className: string, text: string): HTMLParagraphElement {
  const p = document.createElement("p");
  p.className = className;
  p.setAttribute("role", "status");
  p.append(text);
  return p;
}

/** Marks a control this page disabled while offline (and gives back when online again). */
const OFFLINE_DISABLED = "data-offline-disabled";

/**
 * What needs the network, read-only while offline: the controls of every `[data-online-only]` box
 * (the settings) are disabled, still read by eye and screen reader, and a note at the top (the
 * attribute's text) says why; they come back as they were with the connection.
 */
function onlineOnly(offline: boolean) {
  for (const box of document.querySelectorAll<HTMLElement>("[data-online-only]")) {
    // Once React owns its islands: a control changed before would not match what React hydrates.
    if (box.querySelector("[data-island]:not([data-hydrated])")) {
      setTimeout(() => onlineOnly(!navigator.onLine), 100);
      return;
    }
    box.querySelector(":scope > .offline-note")?.remove();
    if (offline) box.prepend(statusLine("offline-note", box.dataset.onlineOnly!));
    const controls = box.querySelectorAll<HTMLInputElement>(
      offline ? "input:enabled, select:enabled, textarea:enabled, button:enabled" : `[${OFFLINE_DISABLED}]`,
    );
    for (const c of controls) {
      c.disabled = offline;
      c.toggleAttribute(OFFLINE_DISABLED, offline);
    }
  }
}

/**
 * The offline line: at the top of the page while there is no connection. In the full-screen chat
 * it is a strip above the conversation (static/css/chat.css), whose height `--offline-line` gives.
 */
function showOfflineLine(header: HTMLElement, text: string) {
  let line: HTMLParagraphElement | undefined;
  const root = document.documentElement.style;
  const sized = new ResizeObserver(() => root.setProperty("--offline-line", `${line?.offsetHeight ?? 0}px`));
  const update = () => {
    if (navigator.onLine) {
      line?.remove();
      line = undefined;
      root.removeProperty("--offline-line");
    } else if (!line) {
      // At the top of the page's own content, in its flow: nothing of the page is hidden under it.
      (document.getElementById("main") ?? header).prepend(line = statusLine("offline-line", text));
      sized.observe(line);
    }
    onlineOnly(!navigator.onLine);
  };
  addEventListener("online", update);
  addEventListener("offline", update);
  update();
}

/** A version installed while a page of the old one is open waits; the member is offered to reload. */
function watchForUpdates(reg: ServiceWorkerRegistration, header: HTMLElement, texts: OfflineTexts) {
  const offer = (waiting: ServiceWorker) => {
    if (!navigator.serviceWorker.controller || header.querySelector(".update-ready")) return;
    const p = statusLine("update-ready", texts.updateReady + " ");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button small";
    button.textContent = texts.reload;
    p.append(button);
    button.addEventListener("click", () => {
      button.disabled = true;
      navigator.serviceWorker.addEventListener("controllerchange", () => location.reload(), { once: true });
      waiting.postMessage({ type: WORKER_MESSAGES.skipWaiting });
    });
    header.append(p);
  };
  if (reg.waiting) offer(reg.waiting);
  reg.addEventListener("updatefound", () => {
    const w = reg.installing;
    w?.addEventListener("statechange", () => {
      if (w.state === "installed") offer(w);
    });
  });
}
