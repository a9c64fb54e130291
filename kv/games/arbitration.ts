/**
 * Community Arbitration: jurors vote whether an open report is a violation (never seeing who
 * reported it); admins confirm or dismiss, which closes the case. A vote earns a volunteer credit.
 */

import { kv } from "../db.ts";
import { keys } from "../keys.ts";
import { now } from "../clock.ts";
import { blockedSet } from "../blocks.ts";
import { listReports } from "../reports.ts";
import { creditOps, creditState, getCredits } from "./credits.ts";
import { profilesOf } from "./deck.ts";
import { scoreJurors } from "./jurors.ts";
import type { ArbDecision, ArbItem, ArbVerdict, Credited } from "../../domain/shapes/games.ts";
import type { ArbCase, Report, ReportCase } from "../../domain/shapes/moderation.ts";
import type { Profile } from "../../domain/shapes/profiles.ts";

const EMPTY_CASE: ArbCase = { violation: 0, noViolation: 0, status: "OPEN" };

/** A report's tally and status (an unvoted report is open with no votes). */
export async function arbCase(reportId: string): Promise<ArbCase> {
  return (await kv().get<ArbCase>(keys.arbCase(reportId))).value ?? EMPTY_CASE;
}

/** May `juror` judge `report`: not its reporter, not the reported member, no block with either. */
export function mayJudge(juror: string, report: Report, blocked: Set<string>): boolean {
  return juror !== report.reporterProfileId && juror !== report.reportedProfileId &&
    !blocked.has(report.reportedProfileId) && !blocked.has(report.reporterProfileId);
}

/** The oldest open report `juror` may judge and has not voted on, or null. */
export async function nextArbItem(juror: string): Promise<ArbItem | null> {
  const blocked = await blockedSet(juror);
  const reports = (await listReports(undefined, 500)).reverse().filter((r) => mayJudge(juror, r, blocked));
  for (let i = 0; i < reports.length; i += 5) {
    const batch = reports.slice(i, i + 5);
    const entries = await kv().getMany([
      ...batch.map((r) => keys.arbCase(r.id)),
      ...batch.map((r) => keys.arbVote(r.id, juror)),
    ]);
    for (const [j, r] of batch.entries()) {
      const c = entries[j].value as ArbCase | null;
      if ((c && c.status !== "OPEN") || entries[batch.length + j].versionstamp !== null) continue;
      const p = (await kv().get<Profile>(keys.profile(r.reportedProfileId))).value;
      if (!p) continue;
      return {
        report: { id: r.id, reason: r.reason, text: r.text, tsCreated: r.tsCreated },
        reported: {
          profileId: p.id,
          profileName: p.profilename,
          description: p.description,
          picId: p.profilePicIds[0] ?? null,
        },
      };
    }
  }
  return null;
}

export type ArbVoteResult =
  | ({ ok: true; case: ArbCase } & Credited)
  | { ok: false; reason: "voted" | "closed" };

/** Stores a juror's verdict once, with the tally and the credit in one atomic; a closed report takes none. */
export async function castArbVote(juror: string, reportId: string, verdict: ArbVerdict): Promise<ArbVoteResult> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const [vote, caseEntry, credit] = await Promise.all([
      kv().get(keys.arbVote(reportId, juror)),
      kv().get<ArbCase>(keys.arbCase(reportId)),
      creditState(juror),
    ]);
    if (vote.versionstamp !== null) return { ok: false, reason: "voted" };
    const old = caseEntry.value ?? EMPTY_CASE;
    if (old.status !== "OPEN") return { ok: false, reason: "closed" };
    const next = verdict === "VIOLATION"
      ? { ...old, violation: old.violation + 1 }
      : { ...old, noViolation: old.noViolation + 1 };
    const op = kv().atomic().check(vote).check(caseEntry)
      .set(keys.arbVote(reportId, juror), { verdict, ts: now() })
      .set(keys.arbCase(reportId), next);
    const credited = creditOps(op, credit);
    if ((await op.commit()).ok) return { ok: true, case: next, credited, credits: await getCredits(juror) };
  }
  throw new Error("arbitration vote kept conflicting");
}

/** An admin confirms or dismisses an open report, which closes it; null when already closed. */
export async function decideReport(reportId: string, admin: string, decision: ArbDecision): Promise<ArbCase | null> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const entry = await kv().get<ArbCase>(keys.arbCase(reportId));
    const old = entry.value ?? EMPTY_CASE;
    if (old.status !== "OPEN") return null;
    const next: ArbCase = {
      ...old,
      status: decision === "CONFIRM" ? "CONFIRMED" : "DISMISSED",
      decidedBy: admin,
      tsDecided: now(),
    };
    if ((await kv().atomic().check(entry).set(keys.arbCase(reportId), next).commit()).ok) {
      // The final verdict: each juror's record (their weight in later juries) counts it.
      await scoreJurors(reportId, decision === "CONFIRM" ? "VIOLATION" : "NO_VIOLATION");
      return next;
    }
  }
  throw new Error("report decision kept conflicting");
}

/** Reports with their tallies and status, newest first, for admins. */
export async function listReportCases(limit = 100): Promise<ReportCase[]> {
  const reports = await listReports(undefined, limit);
  const names = await profilesOf([...new Set(reports.flatMap((r) => [r.reporterProfileId, r.reportedProfileId]))]);
  const out: ReportCase[] = [];
  for (let i = 0; i < reports.length; i += 10) {
    const batch = reports.slice(i, i + 10);
    const entries = await kv().getMany<ArbCase[]>(batch.map((r) => keys.arbCase(r.id)));
    batch.forEach((r, j) =>
      out.push({
        ...r,
        reporterName: names.get(r.reporterProfileId)?.profilename ?? null,
        reportedName: names.get(r.reportedProfileId)?.profilename ?? null,
        case: entries[j].value ?? EMPTY_CASE,
      })
    );
  }
  return out;
}

/** A stored report by id, or null. */
export async function getReport(id: string): Promise<Report | null> {
  return (await kv().get<Report>(keys.report(id))).value;
}
