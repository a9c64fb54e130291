/**
 * The admin's moderation pages: the queue with member search and the selfies waiting for an
 * admin (kv/games/identify.ts), and one member's page (kv/moderation.ts).
 */

import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { renderPage, titledPage } from "./render.tsx";
import { notFoundPage } from "./info.tsx";
import { Island } from "../../components/Island.tsx";
import { AuditLog } from "../../components/AuditLog.tsx";
import ModerationQueue from "../../islands/ModerationQueue.tsx";
import MemberFile from "../../islands/MemberFile.tsx";
import { listAudit, memberFile, moderationQueue } from "../../kv/moderation.ts";
import { adminQueue, adminView } from "../../kv/games/identify.ts";
import { REPORT_REASONS, reportReasonLabel } from "../../domain/texts.ts";
import { isId } from "../../kv/ids.ts";
import { UI_TEXTS } from "../../domain/uiTexts.ts";

/** The report reasons' labels in the language of the request (read per page, not at import). */
const reasonLabels = () => Object.fromEntries(REPORT_REASONS.map((r) => [r.id, reportReasonLabel(r.id)]));

export async function moderationPage(c: Context<AppEnv>) {
  return titledPage(
    c,
    "Moderation",
    <>
      <Island
        of={ModerationQueue}
        props={{
          items: await moderationQueue(),
          reasons: reasonLabels(),
          selfies: (await adminQueue()).map(adminView),
        }}
      />
      <AuditLog entries={await listAudit(20)} />
    </>,
  );
}

export async function memberPage(c: Context<AppEnv>) {
  const id = c.req.param("profileId") ?? "";
  const file = isId(id) ? await memberFile(id) : null;
  if (!file) return notFoundPage(c);
  return renderPage(
    c,
    "Member",
    <section className="page">
      <h1>{UI_TEXTS.member}</h1>
      <p>
        <a href="/admin/moderation">{UI_TEXTS.backToModerationQueue}</a>
      </p>
      <Island of={MemberFile} props={{ file, reasons: reasonLabels() }} />
    </section>,
  );
}
