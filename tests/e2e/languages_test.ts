/**
 * One journey in each language, in a real browser: a visitor whose browser asks for Spanish (or
 * Brazilian Portuguese) registers, opens the mailed link, lands on a translated home with the
 * translated tabs, and picks another language in Account settings, which the next page follows.
 */

import assert from "node:assert/strict";
import { mailedLink, shot, startHarness, VIEWPORTS, waitHydrated } from "./harness.ts";

const JOURNEYS = [
  {
    locale: "es-ES",
    lang: "es",
    email: "Correo electrónico",
    send: "Envíame un enlace de acceso",
    sent: "Revisa tu correo",
    homeCard: "Mapa Gaydar",
    tab: "Cuadrícula",
    settings: "Configuración de la cuenta",
    switchTo: "pt-BR",
    after: "Configurações da conta",
  },
  {
    locale: "pt-BR",
    lang: "pt-BR",
    email: "E-mail",
    send: "Envie-me um link de acesso",
    sent: "Confira seu e-mail",
    homeCard: "Mapa Gaydar",
    tab: "Grade",
    settings: "Configurações da conta",
    switchTo: "es",
    after: "Configuración de la cuenta",
  },
];

for (const j of JOURNEYS) {
  Deno.test(`e2e ${j.lang} - register, log in, home and tabs in the browser's language; another chosen in settings`, async () => {
    const h = await startHarness();
    try {
      const context = await h.browser.newContext({
        viewport: VIEWPORTS.phone,
        isMobile: true,
        hasTouch: true,
        baseURL: h.origin,
        locale: j.locale,
      });
      const page = await context.newPage();
      const go = async (path: string) => {
        await page.goto(path);
        await waitHydrated(page);
      };
      await go("/register");
      assert.equal(await page.getAttribute("html", "lang"), j.lang);
      const email = `lang-${j.lang}@example.com`;
      await page.getByLabel(j.email, { exact: true }).fill(email);
      for (const box of await page.getByRole("checkbox").all()) await box.check();
      await shot(page, `lang-${j.lang}-register`);
      await page.getByRole("button", { name: j.send }).click();
      await page.getByText(j.sent).waitFor();
      await go(await mailedLink(page, email));
      await page.waitForURL(h.origin + "/");
      await waitHydrated(page);
      await page.getByRole("link", { name: j.homeCard }).first().waitFor();
      await page.locator(".tab-bar").getByText(j.tab).waitFor();
      await shot(page, `lang-${j.lang}-home`);

      await go("/settings");
      await page.getByRole("heading", { name: j.settings, level: 1 }).waitFor();
      const reloaded = page.waitForEvent("load");
      await page.locator(".settings-section select").selectOption(j.switchTo);
      await reloaded;
      await page.getByRole("heading", { name: j.after, level: 1 }).waitFor();
      assert.equal(await page.getAttribute("html", "lang"), j.switchTo);
      await context.close();
    } finally {
      await h.close();
    }
  });
}
