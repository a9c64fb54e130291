/**
 * Register / Recover Login (spec §2, §4, §5): an email and three acknowledgements; the server
 * mails a single-use login link. After sending, the button is hidden. The form is plain HTML; its
 * behaviour is a small script without React (islands/RegisterForm.enhance.ts).
 */

import { ACKNOWLEDGEMENTS, TEXTS } from "../domain/texts.ts";

/** What the script needs: the texts it shows (the member's language) and the acknowledgements sent. */
export interface RegisterFormProps {
  texts: { invalidEmail: string; acknowledgementsRequired: string; requesting: string; checkEmail: string };
  /** The acknowledgements' texts as the server records them, in the order of the checkboxes. */
  acknowledgements: string[];
}

/** The props of the register form, from the catalogue. */
export function registerFormProps(): RegisterFormProps {
  const { invalidEmail, acknowledgementsRequired, requesting, checkEmail } = TEXTS;
  return {
    texts: { invalidEmail, acknowledgementsRequired, requesting, checkEmail },
    acknowledgements: ACKNOWLEDGEMENTS.map((a) => a.text),
  };
}

export default function RegisterForm(_: RegisterFormProps) {
  return (
    <form className="stack narrow" noValidate>
      <label>
        {TEXTS.email}
        <input type="email" autoComplete="email" required />
      </label>
      <fieldset className="stack">
        <legend>{TEXTS.acknowledgements}</legend>
        {ACKNOWLEDGEMENTS.map((a) => (
          <label key={a.id} className="check">
            <input type="checkbox" /> {TEXTS.acks[a.id]}
          </label>
        ))}
      </fieldset>
      <button type="submit" className="primary">{TEXTS.sendLoginLink}</button>
      <p className="links">
        <a href="/login">{TEXTS.backToLogin}</a>
      </p>
    </form>
  );
}
