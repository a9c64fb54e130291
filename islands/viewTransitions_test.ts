import assert from "node:assert/strict";
import { handleTransition } from "./viewTransitions.ts";
import { until } from "../tests/wait.ts";

/** A transition whose promises reject as Chromium's do when it aborts one. */
function aborted() {
  const fail = () =>
    Promise.reject(new DOMException("Transition was aborted because of invalid state", "InvalidStateError"));
  const t = {
    skipped: false,
    ready: fail(),
    finished: fail(),
    updateCallbackDone: fail(),
    skipTransition: () => t.skipped = true,
  };
  return t;
}

function withVisibility(state: "visible" | "hidden", fn: () => void) {
  const g = globalThis as { document?: unknown };
  const before = g.document;
  g.document = { visibilityState: state };
  try {
    fn();
  } finally {
    g.document = before;
  }
}

Deno.test("screen change - an aborted transition is no error of the page; a hidden page or a profile's opening skips it", async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (e: PromiseRejectionEvent) => {
    unhandled.push(e.reason);
    e.preventDefault();
  };
  addEventListener("unhandledrejection", onUnhandled);
  try {
    const shown = aborted(), hidden = aborted(), profile = aborted();
    withVisibility("visible", () => handleTransition(shown, "https://x/search/map"));
    withVisibility("hidden", () => handleTransition(hidden));
    withVisibility("visible", () => handleTransition(profile, "https://x/profile/abc"));
    assert.equal(shown.skipped, false, "a visible page's cross-fade runs");
    assert.equal(hidden.skipped, true, "none while the page is hidden");
    assert.equal(profile.skipped, true, "a profile opens at once");
    withVisibility("visible", () => handleTransition(null));
    // A rejection left unhandled on purpose, after the transitions': once it is reported, theirs
    // would have been too.
    const control = new Error("left unhandled on purpose");
    void Promise.reject(control);
    await until(() => unhandled.includes(control), "the control rejection reported");
    assert.deepEqual(unhandled.filter((r) => r !== control), [], "no rejection left unhandled");
  } finally {
    removeEventListener("unhandledrejection", onUnhandled);
  }
});
