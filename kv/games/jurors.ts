/**
 * Jurors' records against final verdicts: when an admin decides a report, a strong jury sends a
 * member to the dungeon, or an appeal overturns that, each juror of the report is counted as
 * agreeing or not. A juror's weight in later juries follows it (domain/dungeon.ts `jurorWeight`).
 * A report's jury is counted once; a verdict overturned later moves each juror's agreement, not
 * their total.
 */

import { kv } from "../db.ts";
import { keys } from "../keys.ts";
import { type JurorRecord, jurorWeight, type WeightedVote } from "../../domain/dungeon.ts";
import type { ArbVerdict } from "../../domain/shapes/games.ts";

/** The votes of a report's jury: who, and what they said. */
export async function juryOf(reportId: string): Promise<{ juror: string; verdict: ArbVerdict }[]> {
  const out: { juror: string; verdict: ArbVerdict }[] = [];
  for await (const e of kv().list<{ verdict: ArbVerdict }>({ prefix: keys.arbVotesOf(reportId) })) {
    out.push({ juror: e.key[2] as string, verdict: e.value.verdict });
  }
  return out;
}

/** Jurors' records, by juror (absent: no record yet). */
export async function jurorRecords(jurors: readonly string[]): Promise<Map<string, JurorRecord>> {
  const out = new Map<string, JurorRecord>();
  for (let i = 0; i < jurors.length; i += 10) {
    const batch = jurors.slice(i, i + 10);
    const got = await kv().getMany<JurorRecord[]>(batch.map(keys.jurorRecord));
    got.forEach((g, j) => g.value && out.set(batch[j], g.value));
  }
  return out;
}

/** A report's votes (of the jurors `counts` keeps), each weighted by its juror's record. */
export async function weightedJury(
  reportId: string,
  counts: (juror: string) => boolean | Promise<boolean> = () => true,
): Promise<WeightedVote[]> {
  const all = await juryOf(reportId);
  const kept = await Promise.all(all.map((v) => counts(v.juror)));
  const jury = all.filter((_, i) => kept[i]);
  const records = await jurorRecords(jury.map((v) => v.juror));
  return jury.map((v) => ({ violation: v.verdict === "VIOLATION", weight: jurorWeight(records.get(v.juror) ?? null) }));
}

/**
 * Counts a report's jurors against its final verdict: each juror's total one up (the first time)
 * and their agreement one up when they said the same. A later, different verdict (an upheld
 * appeal) moves each agreement by one, totals unchanged. The same verdict again changes nothing.
 */
export async function scoreJurors(reportId: string, verdict: ArbVerdict): Promise<void> {
  const scored = await kv().get<{ verdict: ArbVerdict }>(keys.arbScored(reportId));
  if (scored.value?.verdict === verdict) return;
  const before = scored.value?.verdict ?? null;
  const jury = await juryOf(reportId);
  const marked = await kv().atomic().check(scored).set(keys.arbScored(reportId), { verdict }).commit();
  if (!marked.ok) return;
  for (const v of jury) {
    for (let attempt = 0; attempt < 10; attempt++) {
      const entry = await kv().get<JurorRecord>(keys.jurorRecord(v.juror));
      const r = entry.value ?? { agreed: 0, total: 0 };
      const agreesNow = v.verdict === verdict ? 1 : 0;
      const next: JurorRecord = before === null
        ? { agreed: r.agreed + agreesNow, total: r.total + 1 }
        : { agreed: Math.max(0, r.agreed + agreesNow - (v.verdict === before ? 1 : 0)), total: r.total };
      if ((await kv().atomic().check(entry).set(entry.key, next).commit()).ok) break;
    }
  }
}
