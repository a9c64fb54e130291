/** The register form's behaviour (islands/RegisterForm.tsx renders it): see there. */

import { api, ApiFailure } from "./queries/api.ts";
import { apiPath } from "../domain/apiPath.ts";
import type { Enhancement } from "./enhance.ts";
import type { RegisterFormProps } from "./RegisterForm.tsx";

type State = "form" | "requesting" | "sent";

const enhanceRegisterForm: Enhancement<RegisterFormProps> = (root, { texts, acknowledgements }) => {
  const form = root.querySelector("form")!;
  const email = form.querySelector<HTMLInputElement>("input[type=email]")!;
  const boxes = [...form.querySelectorAll<HTMLInputElement>("fieldset input[type=checkbox]")];
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const links = form.querySelector(".links")!;
  let errorLine: HTMLParagraphElement | undefined;
  let statusLine: HTMLParagraphElement | undefined;

  let error = "";
  let state: State = "form";

  function line(className: string, role: string, text: string): HTMLParagraphElement {
    const p = document.createElement("p");
    p.className = className;
    p.setAttribute("role", role);
    p.textContent = text;
    return p;
  }

  /** Shows the error (or none), the state's line, and the button while the form can be sent, in that order. */
  function render() {
    if (!error) {
      errorLine?.remove();
      errorLine = undefined;
    } else if (errorLine) errorLine.textContent = error;
    else errorLine = line("error", "alert", error);
    const status = state === "requesting"
      ? { className: "warning", text: texts.requesting }
      : state === "sent"
      ? { className: "success", text: texts.checkEmail }
      : undefined;
    if (statusLine && statusLine.className !== status?.className) {
      statusLine.remove();
      statusLine = undefined;
    }
    if (status && !statusLine) statusLine = line(status.className, "status", status.text);
    if (state !== "form") button.remove();
    // Each node in place right before the next; one already there is not moved (it keeps focus).
    const order = [errorLine, statusLine, state === "form" ? button : undefined, links].filter((n) => !!n);
    for (let i = order.length - 2; i >= 0; i--) {
      if (order[i].nextElementSibling !== order[i + 1]) order[i + 1].before(order[i]);
    }
  }

  for (const box of boxes) {
    box.addEventListener("change", () => {
      error = "";
      render();
    });
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const address = email.value.trim().toLowerCase();
    const refuse = (text: string) => {
      error = text;
      render();
    };
    if (!address.includes("@")) return refuse(texts.invalidEmail);
    if (!boxes.every((b) => b.checked)) return refuse(texts.acknowledgementsRequired);
    state = "requesting";
    render();
    try {
      await api(apiPath("POST /api/auth/register", {}), {
        method: "POST",
        json: { email: address, acknowledgements },
      });
      state = "sent";
    } catch (err) {
      // Spec §8: a failed request is not reported, except input the member can fix or a rate limit.
      if (err instanceof ApiFailure && (err.status === 400 || err.status === 429)) {
        error = err.message;
        state = "form";
      } else state = "sent";
    }
    render();
  });
};
export default enhanceRegisterForm;
