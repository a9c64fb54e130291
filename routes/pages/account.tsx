/** Account settings, contact, admin dashboard and the dev outbox pages. */

import { onlyVerifiedMessages } from "../../kv/games/identify.ts";
import type { Context } from "hono";
import { FEEL_TEXTS } from "../../domain/feelTexts.ts";
import type { AppEnv } from "../env.ts";
import { renderPage, titledPage } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import { listPasskeys } from "../../kv/passkeys.ts";
import { getSafety, safetyPlace } from "../../kv/safety.ts";
import { hidesPresence } from "../../kv/presence.ts";
import { isDiscreet, themeOf } from "../device.ts";
import SettingsForm from "../../islands/SettingsForm.tsx";
import LanguageSettings from "../../islands/LanguageSettings.tsx";
import ThemeSettings from "../../islands/ThemeSettings.tsx";
import MyData from "../../islands/MyData.tsx";
import { reauthOf } from "../reauth.ts";
import ContactForm from "../../islands/ContactForm.tsx";
import Dashboard from "../../islands/Dashboard.tsx";
import { AuditLog } from "../../components/AuditLog.tsx";
import { listAudit } from "../../kv/moderation.ts";
import { getAccount, roleCounts } from "../../kv/accounts.ts";
import { getSessionById, listSessions } from "../../kv/sessions.ts";
import { blockList } from "../../kv/likes.ts";
import { linksIn, listOutbox } from "../../kv/outbox.ts";
import { settingsOf } from "../accountSettings.ts";
import { backendVersion } from "../../config/version.ts";
import { UI_TEXTS } from "../../domain/uiTexts.ts";

export async function settingsPage(c: Context<AppEnv>) {
  const caller = c.get("caller")!;
  const account = (await getAccount(caller.accountId))!;
  const session = await getSessionById(caller.accountId, caller.sessionId);
  const sessions = (await listSessions(caller.accountId)).map((s) => ({
    id: s.id,
    device: s.device,
    tsCreated: s.tsCreated,
    lastSeen: s.lastSeen,
    current: s.id === caller.sessionId,
  }));
  return titledPage(
    c,
    "Account Settings",
    <>
      <SettingsIndex />
      {/* Offline, its controls are disabled and this says why (islands/sw/register.ts): the settings read-only. */}
      <div data-online-only={UI_TEXTS.settingsOffline}>
        <div id="settings-account" />
        <Island
          of={SettingsForm}
          props={{
            settings: await settingsOf(account, session),
            sessions,
            blocked: await blockList(caller.profileId),
            passkeys: (await listPasskeys(caller.accountId)).map((p) => ({
              id: p.id,
              name: p.name,
              backedUp: p.backedUp,
              tsCreated: p.tsCreated,
              lastUsed: p.lastUsed,
            })),
            safety: {
              atRisk: (await safetyPlace(caller.profileId)).atRisk,
              showToEveryone: (await getSafety(caller.profileId)).showToEveryone,
              discreet: isDiscreet(c),
              hidePresence: await hidesPresence(caller.profileId),
              onlyVerified: await onlyVerifiedMessages(caller.profileId),
            },
            backend: backendVersion(),
          }}
        />
        <Island of={LanguageSettings} props={{ current: caller.language ?? null }} />
        <Island of={ThemeSettings} props={{ current: themeOf(c) }} />
        <div id="settings-my-data" />
        <Island of={MyData} props={{ reauth: reauthOf(account, session).reauth, me: caller.profileId }} />
      </div>
    </>,
  );
}

export function contactPage(c: Context<AppEnv>) {
  return renderPage(
    c,
    "Contact Us",
    <section className="page">
      <h1>{UI_TEXTS.contactUs}</h1>
      <Island of={ContactForm} props={{ name: c.get("caller")?.name ?? "" }} />
    </section>,
  );
}

export async function dashboardPage(c: Context<AppEnv>) {
  return titledPage(
    c,
    "Admin Dashboard",
    <>
      <Island of={Dashboard} props={{ counts: await roleCounts() }} />
      <p>
        <a className="button" href="/admin/moderation">{UI_TEXTS.moderationQueue}</a>
      </p>
      <AuditLog entries={await listAudit(50)} />
    </>,
  );
}

/** The development outbox: mail that was not sent because no SMTP_URL is set. */
export async function outboxPage(c: Context<AppEnv>) {
  const mails = await listOutbox();
  return renderPage(
    c,
    "Dev Outbox",
    <section className="page">
      <h1>Dev Outbox</h1>
      <p>Mail is not sent because SMTP_URL is not set. This page exists only then.</p>
      {mails.length === 0 && <p>No mail yet.</p>}
      <ul className="list outbox">
        {mails.map((m) => (
          <li key={m.id}>
            <p>
              <strong>{m.subject}</strong> to {m.to} at {new Date(m.tsCreated).toISOString()}
            </p>
            <pre>{m.text}</pre>
            {linksIn(m).map((link) => <a key={link} href={link}>Open the link</a>)}
          </li>
        ))}
      </ul>
    </section>,
  );
}

/** The settings' sections, a short list at the top that goes to each (the form below keeps them in this order). */
function SettingsIndex() {
  const sections: [string, string][] = [
    ["#settings-account", FEEL_TEXTS.sectionAccount],
    ["#safety-title", FEEL_TEXTS.sectionPrivacy],
    ["#push-title", FEEL_TEXTS.sectionNotifications],
    ["#devices-title", FEEL_TEXTS.sectionDevices],
    ["#settings-my-data", FEEL_TEXTS.sectionData],
  ];
  return (
    <nav className="settings-index" aria-label={FEEL_TEXTS.settingsSections}>
      <ul>
        {sections.map(([href, label]) => (
          <li key={href}>
            <a href={href}>{label}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
