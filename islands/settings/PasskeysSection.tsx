/**
 * Passkeys in Account settings (a section of the SettingsForm island): the member's passkeys (name, added, last used), "Add a passkey"
 * (this device's authenticator, user verification required) and Remove. A passkey logs in on
 * /login without a password and cannot be phished: it only answers this site.
 */

import { CurrentPasswordField } from "../../components/CurrentPasswordField.tsx";
import { useState } from "react";
import { ApiFailure } from "../queries/api.ts";
import {
  type PasskeyView,
  useAddPasskeyMutation,
  usePasskeysQuery,
  useRemovePasskeyMutation,
} from "../queries/passkeys.ts";
import { Time } from "../../components/Time.tsx";
import { TEXTS } from "../../domain/texts.ts";
import { FEEL_TEXTS } from "../../domain/feelTexts.ts";
import { UI_TEXTS } from "../../domain/uiTexts.ts";

export interface PasskeysProps {
  passkeys: PasskeyView[];
  /** What adding one needs now (routes/reauth.ts): "password" asks for the current password. */
  reauth: "fresh" | "password" | "link";
}

function errorText(e: unknown): string {
  if (e instanceof Error && e.name === "NotAllowedError") return TEXTS.passkeyCancelled;
  return e instanceof Error ? e.message : String(e);
}

/** The Passkeys section of the Account settings island. */
export function PasskeysSection({ passkeys: initial, reauth }: PasskeysProps) {
  const { data: passkeys = initial } = usePasskeysQuery(initial);
  const add = useAddPasskeyMutation();
  const [current, setCurrent] = useState("");
  // Asked when the server says so too: a fresh login may have run out since the page was made.
  const askCurrent = reauth === "password" ||
    (add.error instanceof ApiFailure && add.error.code.startsWith("current_password"));
  const remove = useRemovePasskeyMutation();
  return (
    <section className="narrow stack passkeys" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">{TEXTS.passkeys}</h2>
      <p className="muted">
        {UI_TEXTS.passkeyHint}
      </p>
      {passkeys.length === 0 ? <p className="muted">{TEXTS.noPasskeys}</p> : (
        <ul className="list">
          {passkeys.map((p) => (
            <li key={p.id} className="row between">
              <span>
                <strong>{p.name}</strong>
                <br />
                <small className="muted">
                  {UI_TEXTS.added} <Time ts={p.tsCreated} />
                  {p.lastUsed
                    ? (
                      <>
                        {" · "}last used <Time ts={p.lastUsed} />
                      </>
                    )
                    : " · never used"}
                </small>
              </span>
              <button
                type="button"
                onClick={() => remove.mutate(p.id)}
                disabled={remove.isPending}
                aria-label={FEEL_TEXTS.removePasskey(p.name)}
              >
                {UI_TEXTS.remove}
              </button>
            </li>
          ))}
        </ul>
      )}
      {askCurrent && <CurrentPasswordField value={current} onChange={setCurrent} />}
      {add.isError && <p className="error" role="alert">{errorText(add.error)}</p>}
      {add.isSuccess && <p className="success" role="status">{TEXTS.passkeyAdded}</p>}
      <button
        type="button"
        className="primary"
        onClick={() => add.mutate({ currentPassword: current || undefined }, { onSuccess: () => setCurrent("") })}
        disabled={add.isPending}
      >
        {TEXTS.passkeyAdd}
      </button>
    </section>
  );
}
