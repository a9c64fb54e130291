/**
 * Passkeys in a real browser, with Chromium's virtual authenticator (CDP WebAuthn): add one in
 * Account settings, log out, log in with it on /login, remove it, and its login is refused.
 */

import assert from "node:assert/strict";
import { logInThroughApi, shot, startHarness, type ViewportName } from "./harness.ts";
import { TEXTS } from "../../domain/texts.ts";
import { listPasskeys } from "../../kv/passkeys.ts";
import { getAccountByEmail } from "../../kv/accounts.ts";

for (const vp of ["phone", "desktop"] as ViewportName[]) {
  Deno.test(`e2e ${vp} - passkeys: add in settings, log in with it, remove it, then it is refused`, async () => {
    // A browser of its own: the virtual authenticator and the focused page WebAuthn asks for are
    // the browser's state, not a context's.
    const h = await startHarness({ ownBrowser: true });
    try {
      const { context, page } = await h.newPage(vp);
      // A platform authenticator that holds discoverable keys and verifies its user.
      const cdp = await context.newCDPSession(page);
      await cdp.send("WebAuthn.enable");
      await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: {
          protocol: "ctap2",
          transport: "internal",
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });
      const email = `passkey-${vp}@example.com`;
      await logInThroughApi(context, h.origin, email);
      const account = (await getAccountByEmail(email))!;

      await page.goto("/settings");
      await page.getByText("No passkeys yet.").waitFor();
      await page.getByRole("button", { name: TEXTS.passkeyAdd }).click();
      await page.getByText("Passkey added.").waitFor();
      await page.getByRole("button", { name: /^Remove passkey / }).waitFor();
      const [stored] = await listPasskeys(account.id);
      assert.ok(stored, "the passkey is stored for the account");
      await page.locator(".passkeys").scrollIntoViewIfNeeded();
      await shot(page, `${vp}-settings-passkey-added`);

      // Log out, then in with the passkey alone.
      await page.goto("/logout");
      await page.getByText("You are logged out.").waitFor();
      await page.goto("/login");
      await page.getByRole("button", { name: TEXTS.passkeyLogin }).click();
      await page.waitForURL(h.origin + "/");
      assert.equal(
        await page.evaluate(() => fetch("/api/settings").then((r) => r.json()).then((s) => s.email)),
        email,
        "logged in as the passkey's member",
      );
      const used = (await listPasskeys(account.id))[0];
      assert.equal(typeof used.lastUsed, "number", "its use is recorded");

      // Remove it: the authenticator still holds the key, but the site no longer accepts it.
      await page.goto("/settings");
      await page.getByRole("button", { name: /^Remove passkey / }).click();
      await page.getByText("No passkeys yet.").waitFor();
      assert.deepEqual(await listPasskeys(account.id), []);
      await page.goto("/logout");
      await page.getByText("You are logged out.").waitFor();
      await page.goto("/login");
      await page.getByRole("button", { name: TEXTS.passkeyLogin }).click();
      await page.getByText(TEXTS.passkeyUnknown).waitFor();
      await shot(page, `${vp}-login-passkey-refused`);
      assert.equal(new URL(page.url()).pathname, "/login");
      await context.close();
    } finally {
      await h.close();
    }
  });
}
