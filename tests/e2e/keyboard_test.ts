/**
 * Keyboard only, as a member who uses no mouse: register, open the mailed link, edit the
 * profile, like someone, message them, log out. Every control is reached with Tab (focus
 * visible on it) and used with Enter, Space or typing.
 */

import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { mailedLink, shot, startHarness } from "./harness.ts";
import { TEXTS } from "../../domain/texts.ts";
import { createAccount } from "../../kv/accounts.ts";

/** Presses Tab until `target` has the focus (at most `max` times); fails if it never does. */
async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  const handle = await target.elementHandle();
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((el) => document.activeElement === el, handle)) {
      // The focus is visible: an outline or a box shadow is drawn around it.
      const visible = await page.evaluate((el) => {
        const s = getComputedStyle(el as Element);
        return (s.outlineStyle !== "none" && s.outlineWidth !== "0px") || s.boxShadow !== "none";
      }, handle);
      assert.ok(visible, `focus is visible on ${await target.evaluate((el) => el.outerHTML.slice(0, 80))}`);
      return;
    }
    await page.keyboard.press("Tab");
  }
  assert.fail(`Tab never reached ${await target.evaluate((el) => el.outerHTML.slice(0, 80))}`);
}

Deno.test("e2e - keyboard only: register, edit the profile, like someone, message them, log out", async () => {
  const h = await startHarness();
  try {
    const { context, page } = await h.newPage("desktop");
    const other = (await createAccount({ email: "kb-other@example.com", name: "Robin" }))!;
    const email = "keyboard@example.com";

    await page.goto("/register");
    await tabTo(page, page.getByLabel("Email", { exact: true }));
    await page.keyboard.type(email);
    for (const box of await page.getByRole("checkbox").all()) {
      await tabTo(page, box);
      await page.keyboard.press("Space");
    }
    await tabTo(page, page.getByRole("button", { name: "Send me a login link" }));
    await page.keyboard.press("Enter");
    await page.getByText("Check your email").waitFor();
    await page.goto(await mailedLink(email));
    await page.waitForURL(h.origin + "/");

    await page.goto("/profileEdit");
    await tabTo(page, page.getByLabel("Name", { exact: true }));
    await page.keyboard.press("Control+A");
    await page.keyboard.type("Kay");
    await page.keyboard.press("Tab");
    await page.getByText(TEXTS.saved, { exact: true }).waitFor();

    await page.goto(`/profile/${other.defaultProfileId}`);
    await tabTo(page, page.getByRole("button", { name: TEXTS.like, exact: true }));
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: TEXTS.removeLike }).waitFor();
    await tabTo(page, page.getByRole("textbox", { name: "Message" }));
    await page.keyboard.type("Hello from the keyboard");
    await page.keyboard.press("Enter");
    await page.locator(".bubble.mine", { hasText: "Hello from the keyboard" }).waitFor();
    await shot(page, "desktop-keyboard-message");

    await tabTo(page, page.locator("summary[aria-label='Menu']"));
    await page.keyboard.press("Enter");
    await tabTo(page, page.getByRole("link", { name: "Logout" }));
    await page.keyboard.press("Enter");
    await page.getByText("You are logged out.").waitFor();
    await context.close();
  } finally {
    await h.close();
  }
});
