/**
 * GPT Buster: members judge nearby profiles' texts as a human's or machine-written / fake; a
 * profile with enough MACHINE votes is flagged for admins. A vote earns a volunteer credit.
 */

import { kv } from "../db.ts";
import { keys } from "../keys.ts";
import { now } from "../clock.ts";
import { creditOps, creditState, getCredits } from "./credits.ts";
import { nearbyBriefs, profilesOf } from "./deck.ts";
import type { Credited, GptItem, GptTally, GptVerdict } from "../../domain/shapes/games.ts";

/** A profile is flagged for admins with at least this many votes and this share of MACHINE. */
export const FLAG_MIN_VOTES = 5;
export const FLAG_MACHINE_SHARE = 0.7;

/** Is a tally flagged: enough votes and mostly 'Machine or fake'? */
export function isFlagged(t: GptTally): boolean {
  const total = t.human + t.machine;
  return total >= FLAG_MIN_VOTES && t.machine / total >= FLAG_MACHINE_SHARE;
}

/** The community tally of a profile's text. */
export async function gptTally(profileId: string): Promise<GptTally> {
  return (await kv().get<GptTally>(keys.gptTally(profileId))).value ?? { human: 0, machine: 0 };
}

/**
 * The nearest member's profile text `viewer` has not judged: a non-empty description, not the
 * viewer's own, nobody blocked either way (profileBriefs leaves those out). Null when none.
 */
export async function nextGptItem(viewer: string): Promise<GptItem | null> {
  const briefs = await nearbyBriefs(viewer, 5);
  for (let i = 0; i < briefs.length; i += 10) {
    const batch = briefs.slice(i, i + 10);
    const [profiles, votes] = await Promise.all([
      profilesOf(batch.map((b) => b.profileId)),
      kv().getMany(batch.map((b) => keys.gptVote(b.profileId, viewer))),
    ]);
    for (const [j, b] of batch.entries()) {
      const p = profiles.get(b.profileId);
      if (!p || !p.description.trim() || votes[j].versionstamp !== null) continue;
      return {
        profileId: p.id,
        profileName: p.profilename,
        profileAge: b.profileAge,
        picId: p.profilePicIds[0] ?? null,
        description: p.description,
      };
    }
  }
  return null;
}

/** Stores `voter`'s verdict on `profileId` once, with the tally, the flag and the credit in one atomic. */
export async function castGptVote(
  voter: string,
  profileId: string,
  verdict: GptVerdict,
): Promise<({ ok: true; tally: GptTally } & Credited) | { ok: false }> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const [vote, tallyEntry, credit] = await Promise.all([
      kv().get(keys.gptVote(profileId, voter)),
      kv().get<GptTally>(keys.gptTally(profileId)),
      creditState(voter),
    ]);
    if (vote.versionstamp !== null) return { ok: false };
    const old = tallyEntry.value ?? { human: 0, machine: 0 };
    const tally = verdict === "HUMAN" ? { ...old, human: old.human + 1 } : { ...old, machine: old.machine + 1 };
    const op = kv().atomic().check(vote).check(tallyEntry)
      .set(keys.gptVote(profileId, voter), { verdict, ts: now() })
      .set(keys.gptTally(profileId), tally);
    if (isFlagged(tally)) op.set(keys.gptFlagged(profileId), tally);
    else op.delete(keys.gptFlagged(profileId));
    const credited = creditOps(op, credit);
    if ((await op.commit()).ok) return { ok: true, tally, credited, credits: await getCredits(voter) };
  }
  throw new Error("GPT Buster vote kept conflicting");
}

/** The flagged profiles with their tallies, for admins. */
export async function listGptFlagged(limit = 200): Promise<(GptTally & { profileId: string; profileName: string })[]> {
  const rows: (GptTally & { profileId: string })[] = [];
  for await (const e of kv().list<GptTally>({ prefix: keys.gptFlaggedAll() }, { limit })) {
    rows.push({ profileId: e.key[1] as string, ...e.value });
  }
  const profiles = await profilesOf(rows.map((r) => r.profileId));
  return rows.filter((r) => profiles.has(r.profileId))
    .map((r) => ({ ...r, profileName: profiles.get(r.profileId)!.profilename }));
}
