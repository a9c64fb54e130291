/**
 * Account settings (spec §2, §4, §5, §8): name, email, a new password pair; the member's
 * sessions with '(this device)' and "Log out everywhere else"; the version panel. Changing the
 * email or password and ending sessions ask for the current password, unless the member logged
 * in with a login link within 10 minutes (routes/api/settings.ts).
 */

import { CurrentPasswordField } from "../components/CurrentPasswordField.tsx";
import { type FormEvent, useEffect, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ApiFailure } from "./queries/api.ts";
import { QueryProvider, useServerData } from "./queries/client.tsx";
import { TEXTS } from "../domain/texts.ts";
import { Time } from "../components/Time.tsx";
import type { Version } from "../domain/version.ts";
import { PasskeysSection } from "./settings/PasskeysSection.tsx";
import { SafetySection, type SafetyState } from "./settings/SafetySection.tsx";
import { QuietHoursSection } from "./settings/QuietHoursSection.tsx";
import type { PasskeyView } from "./queries/passkeys.ts";
import {
  currentEndpoint,
  type PushDevice,
  pushUnsupported,
  removeDevice,
  subscribeThisDevice,
} from "./queries/push.ts";
import { apiPath } from "../domain/apiPath.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import type { ApiAnswer } from "../domain/contract.ts";
import { phrase } from "../domain/phrases.ts";

/** The account's settings (`GET /api/settings`). */
export type SettingsData = ApiAnswer<"GET /api/settings">;

/** One of the account's sessions. */
export type SessionItem = ApiAnswer<"GET /api/sessions">[number];

/** A member the caller blocked. */
export type BlockedItem = ApiAnswer<"GET /api/blocks">[number];

export interface SettingsProps {
  settings: SettingsData;
  sessions: SessionItem[];
  blocked: BlockedItem[];
  passkeys: PasskeyView[];
  safety: SafetyState;
  backend: Version;
}

/** Saved banner time in settings (spec §9). */
const SAVED_MS = 3000;

function SettingsBody({ settings, sessions, blocked, passkeys, safety, backend }: SettingsProps) {
  const qc = useQueryClient();
  // What the server rendered seeds the cache: data restored from the device's cache, older than
  // the page, would make hydration differ from it.
  useServerData(["settings"], settings);
  useServerData(["sessions"], sessions);
  // Spec §7: settings are never treated as stale.
  const data = useQuery({
    queryKey: ["settings"],
    queryFn: () => api<SettingsData>(apiPath("GET /api/settings", {})),
    staleTime: Infinity,
  }).data ?? settings;
  const sessionList = useQuery({
    queryKey: ["sessions"],
    queryFn: () => api<SessionItem[]>(apiPath("GET /api/sessions", {})),
  }).data ?? sessions;
  const [name, setName] = useState(data.name);
  const [email, setEmail] = useState(data.email);
  const [pw1, setPw1] = useState("");
  const [pw2, setPw2] = useState("");
  const [current, setCurrent] = useState("");
  const [error, setError] = useState("");
  const [saved, setSaved] = useState(false);
  // The current password is asked when the email or password changes, unless the login is fresh.
  const sensitive = email.trim().toLowerCase() !== data.email || pw1 !== "" || pw2 !== "";
  const askCurrent = sensitive && data.reauth === "password";

  const save = useMutation({
    mutationFn: (body: { name: string; email: string; password?: string; currentPassword?: string }) =>
      api<SettingsData>(apiPath("PUT /api/settings", {}), { method: "PUT", json: body }),
    onSuccess: (next, body) => {
      qc.setQueryData(["settings"], next);
      setEmail(next.email);
      setPw1("");
      setPw2("");
      setCurrent("");
      setSaved(true);
      setTimeout(() => setSaved(false), SAVED_MS);
      // A new password ended the other sessions.
      if (body.password) qc.invalidateQueries({ queryKey: ["sessions"] });
    },
    onError: (e) => setError(failureText(e, qc)),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    setError("");
    if (!name.trim() || !email.trim()) return setError(TEXTS.nameEmailRequired);
    if (pw1 !== pw2) return setError(TEXTS.passwordsDoNotMatch);
    if (askCurrent && !current) return setError(TEXTS.currentPasswordRequired);
    // The password pair is copied into the settings only when both entries match.
    save.mutate({
      name: name.trim(),
      email: email.trim().toLowerCase(),
      ...(pw1 ? { password: pw1 } : {}),
      ...(askCurrent ? { currentPassword: current } : {}),
    });
  }

  return (
    <div className="stack">
      <form className="stack narrow" onSubmit={submit} noValidate>
        {!data.hasPassword && data.reauth === "fresh" && <p className="notice">{TEXTS.setPasswordBelow}</p>}
        {data.reauth === "link" && <p className="notice">{TEXTS.linkOnlyNotice}</p>}
        {data.hasPassword && data.reauth === "fresh" && <p className="muted">{TEXTS.freshLinkNotice}</p>}
        <label>
          {TEXTS.name}
          <input value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" required />
        </label>
        <label>
          {TEXTS.email}
          <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" required />
        </label>
        <label>
          {TEXTS.newPassword}
          <input type="password" value={pw1} onChange={(e) => setPw1(e.target.value)} autoComplete="new-password" />
        </label>
        <label>
          {TEXTS.repeatNewPassword}
          <input type="password" value={pw2} onChange={(e) => setPw2(e.target.value)} autoComplete="new-password" />
        </label>
        {askCurrent && <CurrentPasswordField value={current} onChange={setCurrent} />}
        {error && <p className="error" role="alert">{error}</p>}
        {saved && <p className="success" role="status">{TEXTS.saved}</p>}
        <button type="submit" className="primary" disabled={save.isPending}>{TEXTS.save}</button>
      </form>

      <section className="narrow membership">
        <h2>{TEXTS.membership}</h2>
        <p>
          {data.roles.includes("PRO") ? TEXTS.proMember : data.volunteerUntil
            ? (
              <>
                {UI_TEXTS.volunteerUntil} <Time ts={data.volunteerUntil} />: {UI_TEXTS.volunteerThanks}
              </>
            )
            : data.roles.includes("VOLUNTEER")
            ? TEXTS.volunteerMember
            : TEXTS.standardMember} <a href="/billing">{TEXTS.membershipDues}</a> ·{" "}
          <a href="/games">{TEXTS.volunteerCredits}</a>
        </p>
      </section>

      <Sessions sessions={sessionList} reauth={data.reauth} />

      <PasskeysSection passkeys={passkeys} reauth={data.reauth} />

      <SafetySection initial={safety} />

      <PushDevices devices={data.pushSubscriptions} applicationServerKey={data.applicationServerKey} />

      <QuietHoursSection initial={data.quietHours} />

      <BlockedMembers initial={blocked} />

      <VersionPanel backend={backend} />
    </div>
  );
}

/**
 * The server's message for a refusal a member can act on (bad input, confirm who you are, too many
 * tries), else the spec's save-failure text. A refused confirmation reloads the settings, so the
 * form learns what it needs now (a fresh login may have run out).
 */
function failureText(e: unknown, qc: ReturnType<typeof useQueryClient>): string {
  if (!(e instanceof ApiFailure) || ![400, 403, 429].includes(e.status)) return TEXTS.settingsSaveFailed;
  if (e.status === 403) qc.invalidateQueries({ queryKey: ["settings"] });
  return e.message;
}

/** The logged-in devices: this one marked, Log out for each other one, and "Log out everywhere else". */
function Sessions({ sessions, reauth }: { sessions: SessionItem[]; reauth: SettingsData["reauth"] }) {
  const qc = useQueryClient();
  const [current, setCurrent] = useState("");
  const [message, setMessage] = useState("");
  const [done, setDone] = useState("");
  const others = sessions.filter((s) => !s.current).length;
  const confirm = reauth === "password" ? { currentPassword: current } : {};
  const after = {
    onSuccess: (_: unknown, id: string | null) => {
      setCurrent("");
      setMessage("");
      setDone(id === null ? TEXTS.loggedOutEverywhereElse : "");
      qc.invalidateQueries({ queryKey: ["sessions"] });
    },
    onError: (e: Error) => {
      setDone("");
      setMessage(failureText(e, qc));
    },
  };
  const end = useMutation({
    mutationFn: (id: string | null) =>
      id === null
        ? api(apiPath("POST /api/sessions/end-others", {}), { method: "POST", json: confirm })
        : api(apiPath("DELETE /api/sessions/:id", { id }), { method: "DELETE", json: confirm }),
    ...after,
  });
  function run(id: string | null) {
    setDone("");
    if (reauth === "password" && !current) return setMessage(TEXTS.currentPasswordRequired);
    setMessage("");
    end.mutate(id);
  }
  return (
    <section className="narrow stack" aria-labelledby="devices-title">
      <h2 id="devices-title">{TEXTS.loggedInDevices}</h2>
      <ul className="list">
        {sessions.map((s) => (
          <li key={s.id} className="row between">
            <span>
              {s.device} {s.current && <strong>{TEXTS.thisDevice}</strong>}
              <br />
              <small>
                {phrase("last active")} <Time ts={s.lastSeen} />
              </small>
            </span>
            {!s.current && (
              <button type="button" onClick={() => run(s.id)} disabled={end.isPending}>{TEXTS.logOut}</button>
            )}
          </li>
        ))}
      </ul>
      {others === 0 ? <p className="muted">{TEXTS.onlyThisDevice}</p> : (
        <>
          {reauth === "password" && <CurrentPasswordField value={current} onChange={setCurrent} />}
          <button type="button" onClick={() => run(null)} disabled={end.isPending}>
            {TEXTS.logOutEverywhereElse}
          </button>
        </>
      )}
      {message && <p className="error" role="alert">{message}</p>}
      {done && <p className="success" role="status">{done}</p>}
    </section>
  );
}

/** The members I blocked, each with Unblock (they see me again, and I them). */
function BlockedMembers({ initial }: { initial: BlockedItem[] }) {
  const qc = useQueryClient();
  useServerData(["blocks"], initial);
  const data = useQuery({
    queryKey: ["blocks"],
    queryFn: () => api<BlockedItem[]>(apiPath("GET /api/blocks", {})),
  }).data ?? initial;
  const lift = useMutation({
    mutationFn: (id: string) => api(apiPath("DELETE /api/blocks/:profileId", { profileId: id }), { method: "DELETE" }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["blocks"] }),
  });
  return (
    <section className="narrow">
      <h2>{TEXTS.blockedMembers}</h2>
      {data.length === 0 ? <p className="muted">{TEXTS.noneBlocked}</p> : (
        <ul className="list">
          {data.map((b) => (
            <li key={b.profileId} className="row between">
              <span>
                {b.profileName}
                <br />
                <small>
                  blocked <Time ts={b.tsBlocked} />
                </small>
              </span>
              <button type="button" onClick={() => lift.mutate(b.profileId)} disabled={lift.isPending}>
                {TEXTS.unblock}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Push devices (spec §2): this device marked, Subscribe to add it, remove any. */
function PushDevices({ devices, applicationServerKey }: { devices: PushDevice[]; applicationServerKey: string }) {
  const qc = useQueryClient();
  const [mine, setMine] = useState<string | null>(null);
  const [message, setMessage] = useState("");
  useEffect(() => {
    setMessage(pushUnsupported() ?? "");
    currentEndpoint().then(setMine, (e) => setMessage(e.message));
  }, []);
  const refresh = () => qc.invalidateQueries({ queryKey: ["settings"] });
  const subscribe = useMutation({
    mutationFn: () => subscribeThisDevice(applicationServerKey),
    onSuccess: (d) => {
      setMine(d.endpoint);
      setMessage("");
      refresh();
    },
    onError: (e) => setMessage(e instanceof Error ? e.message : String(e)),
  });
  const remove = useMutation({ mutationFn: removeDevice, onSuccess: refresh });
  const subscribed = devices.some((d) => d.endpoint === mine);
  return (
    <section className="narrow">
      <h2 id="push-title">{TEXTS.pushNotifications}</h2>
      <ul className="list">
        {devices.length === 0 && <li>{TEXTS.noPushDevice}</li>}
        {devices.map((d) => (
          <li key={d.id} className="row between">
            <span>
              {d.deviceName} {d.endpoint === mine && <strong>{TEXTS.thisDevice}</strong>}
            </span>
            <button type="button" onClick={() => remove.mutate(d)}>{TEXTS.remove}</button>
          </li>
        ))}
      </ul>
      {message && <p className="warning" role="status">{message}</p>}
      {!subscribed && (
        <button
          type="button"
          className="primary"
          onClick={() => subscribe.mutate()}
          disabled={subscribe.isPending}
        >
          {TEXTS.subscribe}
        </button>
      )}
    </section>
  );
}

/** Frontend and backend commit, a device location report and a maps link. */
function VersionPanel({ backend }: { backend: Version }) {
  const front = useQuery({ queryKey: ["version_frontend"], queryFn: () => api<Version>("/version_frontend.json") });
  const [where, setWhere] = useState<string>("");
  const [coords, setCoords] = useState<{ lat: number; lon: number } | null>(null);
  function locate() {
    if (!navigator.geolocation) return setWhere(phrase("This device has no location service."));
    setWhere(phrase("Asking your device..."));
    navigator.geolocation.getCurrentPosition(
      (p) => {
        setCoords({ lat: p.coords.latitude, lon: p.coords.longitude });
        setWhere(
          `Your device reports ${p.coords.latitude.toFixed(5)}, ${p.coords.longitude.toFixed(5)} (±${
            Math.round(p.coords.accuracy)
          } m). Only you see this.`,
        );
      },
      (e) => setWhere(e.message || "OTHER ERROR"),
      { enableHighAccuracy: true, timeout: 10_000, maximumAge: 15_000 },
    );
  }
  return (
    <section className="narrow version">
      <h2>{TEXTS.version}</h2>
      <dl>
        <dt>{UI_TEXTS.frontend}</dt>
        <dd>{front.data ? `${front.data.gitCommitHash.slice(0, 10)} ${front.data.gitCommitTs}` : "..."}</dd>
        <dt>{UI_TEXTS.backend}</dt>
        <dd>{`${backend.gitCommitHash.slice(0, 10)} ${backend.gitCommitTs}`}</dd>
      </dl>
      <button type="button" onClick={locate}>{TEXTS.reportDeviceLocation}</button>
      {where && <p>{where}</p>}
      {coords && (
        <a
          href={`https://www.openstreetmap.org/?mlat=${coords.lat}&mlon=${coords.lon}#map=16/${coords.lat}/${coords.lon}`}
        >
          {TEXTS.openInMaps}
        </a>
      )}
    </section>
  );
}

export default function SettingsForm(props: SettingsProps) {
  return (
    <QueryProvider>
      <SettingsBody {...props} />
    </QueryProvider>
  );
}
