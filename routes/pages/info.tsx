/** Pages without interaction (about, terms, support, billing, sorry, 404, coming soon): no JavaScript. */

import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../env.ts";
import * as z from "zod";
import { clientAddress, toErrorResponse } from "../middleware.ts";
import { hit } from "../../kv/ratelimit.ts";
import { saveContactMessage } from "../../kv/contact.ts";
import { renderPage } from "./render.tsx";
import { MAX_TEXT, TEXTS, titleText } from "../../domain/texts.ts";
import { MEMBERSHIP_TEXTS } from "../../domain/membership.ts";
import { activeGrant } from "../../kv/roles.ts";
import { AboutBody, TosBody } from "./legal.tsx";
import { UI_TEXTS } from "../../domain/uiTexts.ts";

export function aboutPage(c: Context<AppEnv>) {
  const brand = c.get("brand");
  return renderPage(
    c,
    "About Us",
    <article className="page prose">
      <h1>{titleText("About Us")}</h1>
      <AboutBody brand={brand.name} />
    </article>,
  );
}

export function tosPage(c: Context<AppEnv>) {
  return renderPage(
    c,
    "Terms of Service and Privacy Policy",
    <article className="page prose">
      <TosBody />
    </article>,
  );
}

/** What the support page's problem report shows: the fields as typed, and the outcome. */
export interface SupportReportState {
  name?: string;
  email?: string;
  message?: string;
  error?: string;
  sent?: boolean;
}

export function supportPage(c: Context<AppEnv>, report: SupportReportState = {}, status: ContentfulStatusCode = 200) {
  const caller = c.get("caller");
  return renderPage(
    c,
    "Support",
    <article className="page prose">
      <h1>{titleText("Support")}</h1>
      <h2>{UI_TEXTS.faq}</h2>
      <details>
        <summary>{UI_TEXTS.lambdaQ}</summary>
        <p>{UI_TEXTS.lambdaA}</p>
      </details>
      <details>
        <summary>{UI_TEXTS.whereQ}</summary>
        <p>{UI_TEXTS.whereA}</p>
      </details>
      <details>
        <summary>{UI_TEXTS.lostQ}</summary>
        <p>
          {UI_TEXTS.lostUse} <a href="/register">{TEXTS.registerTitle}</a> {UI_TEXTS.lostMail}
        </p>
      </details>
      <h2 id="report">{UI_TEXTS.reportProblem}</h2>
      <p>{UI_TEXTS.reportIntro}</p>
      {report.sent ? <p className="success" role="status">{TEXTS.supportReportSent}</p> : (
        // A plain form: it works without JavaScript, for anyone who cannot log in.
        <form className="stack narrow support-form" method="post" action="/support#report">
          <label>
            {UI_TEXTS.fullName}
            <input name="name" defaultValue={report.name ?? caller?.name ?? ""} autoComplete="name" required />
          </label>
          <label>
            {UI_TEXTS.email}
            <input
              name="email"
              type="email"
              defaultValue={report.email ?? caller?.email ?? ""}
              autoComplete="email"
              required
            />
          </label>
          <label>
            {UI_TEXTS.whatHappened}
            <textarea name="message" rows={6} maxLength={MAX_TEXT} defaultValue={report.message ?? ""} required />
          </label>
          {report.error && <p className="error" role="alert">{report.error}</p>}
          <button type="submit" className="primary">{UI_TEXTS.send}</button>
        </form>
      )}
    </article>,
    { status },
  );
}

const supportReportBody = z.object({
  name: z.string().trim().min(1).max(200),
  email: z.string().trim().max(254).email(),
  message: z.string().trim().min(1).max(MAX_TEXT),
});

/**
 * POST /support: the problem report of visitors and members (spec §2 Support), rate-limited by
 * address. A refusal shows the form again with everything typed and the reason.
 */
export async function supportReport(c: Context<AppEnv>) {
  const form = await c.req.parseBody();
  const typed = {
    name: typeof form.name === "string" ? form.name.slice(0, 200) : "",
    email: typeof form.email === "string" ? form.email.slice(0, 254) : "",
    message: typeof form.message === "string" ? form.message.slice(0, MAX_TEXT) : "",
  };
  const parsed = supportReportBody.safeParse(typed);
  if (!parsed.success) {
    // The message is read here, in the request's language (the schema is made once, at import).
    const field = parsed.error.issues[0].path[0];
    const error = field === "name"
      ? TEXTS.contactNameRequired
      : field === "email"
      ? UI_TEXTS.validEmail
      : UI_TEXTS.tellWhatHappened;
    return supportPage(c, { ...typed, error }, 400);
  }
  if (!(await hit("supportByAddress", clientAddress(c)))) {
    return supportPage(c, { ...typed, error: UI_TEXTS.tooManyReports }, 429);
  }
  const caller = c.get("caller");
  const { name, email, message } = parsed.data;
  await saveContactMessage(caller ? { accountId: caller.accountId, email } : { email }, name, message);
  return supportPage(c, { sent: true });
}

/**
 * /billing: the spec's membership texts as they are, then the member's own standing, what Pro
 * unlocks, how to get it, and the free way to the same (the volunteer role earned in the games).
 */
export async function billingPage(c: Context<AppEnv>) {
  const caller = c.get("caller");
  const grant = caller ? await activeGrant(caller.accountId, "VOLUNTEER") : null;
  const roles = caller?.roles ?? [];
  const standing = roles.includes("PRO")
    ? MEMBERSHIP_TEXTS.youArePro
    : grant
    ? MEMBERSHIP_TEXTS.youAreVolunteerUntil(grant.until)
    : roles.includes("VOLUNTEER")
    ? MEMBERSHIP_TEXTS.youAreVolunteer
    : MEMBERSHIP_TEXTS.youAreStandard;
  return renderPage(
    c,
    "Membership Dues",
    <article className="page prose">
      <h1>{titleText("Membership Dues")}</h1>
      <p>{UI_TEXTS.duesCommunity}</p>
      <p>{UI_TEXTS.duesPro}</p>
      <p>{UI_TEXTS.duesVolunteer}</p>
      {caller && (
        <>
          <h2>{MEMBERSHIP_TEXTS.yoursTitle}</h2>
          <p className="membership-standing">{standing}</p>
        </>
      )}
      <h2>{MEMBERSHIP_TEXTS.unlocksTitle}</h2>
      <p>{MEMBERSHIP_TEXTS.unlocks}</p>
      <h2>{MEMBERSHIP_TEXTS.howTitle}</h2>
      <p>{MEMBERSHIP_TEXTS.how}</p>
      <p>
        <a className="button primary" href="/contactus">{MEMBERSHIP_TEXTS.contactLink}</a>
      </p>
      <h2>{MEMBERSHIP_TEXTS.volunteerTitle}</h2>
      <p>{MEMBERSHIP_TEXTS.volunteer}</p>
      <p>
        <a className="button" href="/games">{MEMBERSHIP_TEXTS.gamesLink}</a>
      </p>
    </article>,
  );
}

/** 'Ooops!' (spec §2): the technical-difficulties page, at /sorry and for a page that failed (with its status). */
export function sorryPage(c: Context<AppEnv>, status: ContentfulStatusCode = 200) {
  return renderPage(
    c,
    TEXTS.sorryTitle,
    <section className="page center">
      <h1>{TEXTS.sorryTitle}</h1>
      <p>{UI_TEXTS.technicalDifficulties}</p>
      <a className="button primary" href="/">{titleText("Home")}</a>
    </section>,
    { status },
  );
}

/**
 * What the service worker shows offline for a screen it has not kept (islands/sw/worker.ts keeps
 * this page per member, in their language and mode): it needs the network, and what opens without.
 */
export function offlinePage(c: Context<AppEnv>) {
  return renderPage(
    c,
    UI_TEXTS.offlineTitle,
    <section className="page center offline-page">
      <h1>{UI_TEXTS.offlineTitle}</h1>
      <p>{UI_TEXTS.offlineScreen}</p>
      <p className="row center">
        <a className="button primary" href="/search/tile">{UI_TEXTS.openGrid}</a>{" "}
        <a className="button" href="/chat/personal">{UI_TEXTS.openConversations}</a>
      </p>
    </section>,
  );
}

/**
 * A page that failed shows a page, never the API's JSON: the 404 page for a 404, else 'Ooops!'
 * with the error's status (500 for an unexpected error, which `toErrorResponse` logs).
 */
export function pageErrorResponse(err: Error, c: Context<AppEnv>) {
  const status = toErrorResponse(err, c).status as ContentfulStatusCode;
  return status === 404 ? notFoundPage(c) : sorryPage(c, status);
}

export function notFoundPage(c: Context<AppEnv>) {
  return renderPage(
    c,
    "Not Found",
    <section className="page center">
      <h1>404</h1>
      <p>{TEXTS.notFound}</p>
      <a className="button primary" href="/">{titleText("Home")}</a>
    </section>,
    { status: 404 },
  );
}

/** A route whose feature is not built yet: its title and a clear 'coming soon'. */
export function comingSoonPage(c: Context<AppEnv>, title: string) {
  return renderPage(
    c,
    title,
    <section className="page center">
      <h1>{titleText(title)}</h1>
      <p className="coming-soon">{TEXTS.comingSoon}</p>
      <a className="button" href="/">{titleText("Home")}</a>
    </section>,
  );
}
