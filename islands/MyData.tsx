/**
 * Account settings → "Your data": download a ZIP of everything stored about me (a job builds it and
 * mails a single-use link to this page, `#export=<token>`), and delete my account (confirmed with
 * the current password, or a login link minutes old). kv/memberData.ts does the work. Secret chats
 * are not in the ZIP (the server cannot read them): this device's decrypted copies download here,
 * built in the browser (islands/secret/exportChats.ts, loaded only when asked for).
 */

import { useEffect, useId, useRef, useState } from "react";
import { api, ApiFailure, clearLocalData, endingSessionHere } from "./queries/api.ts";
import { apiPath } from "../domain/apiPath.ts";
import { TEXTS } from "../domain/texts.ts";
import { CurrentPasswordField } from "../components/CurrentPasswordField.tsx";

export interface MyDataProps {
  /** What confirming who I am needs now (routes/reauth.ts). */
  reauth: "fresh" | "password" | "link";
  /** My profile's id: whose secret chats this device's copy is. */
  me?: string;
}

export default function MyData({ reauth, me }: MyDataProps) {
  const id = useId();
  const [requested, setRequested] = useState(false);
  const [token, setToken] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [current, setCurrent] = useState("");
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  /** What downloading this device's secret chats said (none here, or a failure). */
  const [secretNote, setSecretNote] = useState("");
  const confirmRef = useRef<HTMLDivElement>(null);

  // The confirmation opens below the fold on a phone: bring it to the middle of the screen (clear of the tab bar).
  useEffect(() => {
    if (asking) confirmRef.current?.scrollIntoView({ block: "center" });
  }, [asking]);

  // The mailed link opens this page with the token in the fragment (never sent to the server in a URL).
  useEffect(() => {
    const take = () => {
      const m = location.hash.match(/^#export=([A-Za-z0-9_-]+)$/);
      if (!m) return;
      setToken(m[1]);
      history.replaceState(null, "", location.pathname);
    };
    take();
    // The link opened in the tab that already shows this page changes only the fragment.
    addEventListener("hashchange", take);
    return () => removeEventListener("hashchange", take);
  }, []);

  const failure = (e: unknown) => e instanceof ApiFailure && e.status < 500 ? e.message : TEXTS.serverTrouble;

  async function requestExport() {
    setBusy(true);
    setMessage("");
    try {
      await api(apiPath("POST /api/account/export", {}), { method: "POST" });
      setRequested(true);
    } catch (e) {
      setMessage(failure(e));
    } finally {
      setBusy(false);
    }
  }

  async function download() {
    setBusy(true);
    setMessage("");
    try {
      const res = await fetch(apiPath("POST /api/account/export/download", {}), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token }),
        credentials: "same-origin",
      });
      if (!res.ok) throw new ApiFailure(res.status, res.statusText, "gone", TEXTS.exportGone);
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement("a");
      a.href = url;
      a.download = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "my-data.zip";
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setToken(null);
    } catch (e) {
      setMessage(failure(e));
    } finally {
      setBusy(false);
    }
  }

  async function deleteAccount() {
    setBusy(true);
    setMessage("");
    try {
      // The session ends with the account: this page says where to go, not the live feed's end.
      endingSessionHere();
      await api(apiPath("DELETE /api/account", {}), {
        method: "DELETE",
        json: reauth === "password" ? { currentPassword: current } : {},
      });
      clearLocalData();
      location.assign("/?deleted=1");
    } catch (e) {
      endingSessionHere(false);
      setMessage(failure(e));
      setBusy(false);
    }
  }

  return (
    <section className="narrow stack my-data" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{TEXTS.myDataTitle}</h2>
      {token
        ? (
          <div className="stack">
            <p className="success" role="status">{TEXTS.exportReady}</p>
            <button type="button" className="primary" onClick={download} disabled={busy}>{TEXTS.downloadZip}</button>
          </div>
        )
        : (
          <div className="stack">
            <p className="muted">{TEXTS.downloadIntro}</p>
            {requested
              ? <p className="success" role="status">{TEXTS.exportRequested}</p>
              : <button type="button" onClick={requestExport} disabled={busy}>{TEXTS.downloadMyData}</button>}
          </div>
        )}
      {me && (
        <div className="stack secret-export">
          <p className="muted">{TEXTS.secretExportIntro}</p>
          <button
            type="button"
            onClick={async () => {
              setSecretNote("");
              try {
                // The secret chats' code loads only when asked for (decision 0165).
                const m = await import("./secret/exportChats.ts");
                await m.downloadSecretChats(me);
              } catch (e) {
                setSecretNote(e instanceof Error ? e.message : String(e));
              }
            }}
          >
            {TEXTS.downloadSecretChats}
          </button>
          {secretNote && <p className="notice" role="status">{secretNote}</p>}
        </div>
      )}
      {!asking
        ? (
          // A plain button: only the confirmation's own button is red (the safe action is not the quieter one).
          <button type="button" onClick={() => setAsking(true)}>
            {TEXTS.deleteMyAccount}
          </button>
        )
        : (
          <div className="stack delete-confirm" role="group" aria-labelledby={`${id}-delete`} ref={confirmRef}>
            <h3 id={`${id}-delete`}>{TEXTS.deleteMyAccount}</h3>
            <p>{TEXTS.deleteIntro}</p>
            {reauth === "link" && <p className="notice">{TEXTS.freshLoginRequired}</p>}
            {reauth === "password" && <CurrentPasswordField value={current} onChange={setCurrent} />}
            <div className="row">
              <button
                type="button"
                className="danger"
                onClick={deleteAccount}
                disabled={busy || reauth === "link" || (reauth === "password" && !current)}
              >
                {TEXTS.deleteConfirm}
              </button>
              <button type="button" onClick={() => setAsking(false)}>{TEXTS.cancel}</button>
            </div>
          </div>
        )}
      {message && <p className="error" role="alert">{message}</p>}
    </section>
  );
}
