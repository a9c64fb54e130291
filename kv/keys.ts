/**
 * Every key shape of the store. Collections are plural, then their index fields.
 * Entity modules in kv/ build keys only through these functions.
 */

export type Key = Deno.KvKey;

export const keys = {
  // --- accounts and sessions (kv/accounts.ts, kv/sessions.ts)
  account: (id: string): Key => ["accounts", id],
  accountByEmail: (email: string): Key => ["accounts_by_email", email],
  accountsByRole: (role: string, id: string): Key => ["accounts_by_role", role, id],
  roleCount: (role: string): Key => ["role_counts", role],
  session: (tokenHash: string): Key => ["sessions", tokenHash],
  sessionByAccount: (accountId: string, tokenHash: string): Key => ["sessions_by_account", accountId, tokenHash],
  sessionsByAccount: (accountId: string): Key => ["sessions_by_account", accountId],
  loginToken: (tokenHash: string): Key => ["login_tokens", tokenHash],
  outbox: (id: string): Key => ["outbox", id],
  outboxAll: (): Key => ["outbox"],
  contactMessage: (id: string): Key => ["contact_messages", id],
  rateLimit: (scope: string, who: string, window: number): Key => ["rate_limits", scope, who, window],

  // --- profiles (kv/profiles.ts)
  profile: (id: string): Key => ["profiles", id],
  profilesAll: (): Key => ["profiles"],

  // --- blobs and pictures (kv/blobs.ts)
  /** The manifest of a blob: written last, deleted first; its presence makes the blob visible. */
  blob: (id: string): Key => ["blobs", id],
  /** One chunk of one generation of a blob (a re-put writes a new generation). */
  blobChunk: (id: string, gen: string, n: number): Key => ["blob_chunks", id, gen, n],
  blobChunksOfGen: (id: string, gen: string): Key => ["blob_chunks", id, gen],
  blobChunksAll: (id: string): Key => ["blob_chunks", id],

  // --- jobs (workers/jobs.ts)
  job: (id: string): Key => ["jobs", id],
  jobDue: (runAt: number, id: string): Key => ["jobs_due", runAt, id],
  jobsDue: (): Key => ["jobs_due"],
  jobDead: (id: string): Key => ["jobs_dead", id],
  jobsDead: (): Key => ["jobs_dead"],
  jobSignal: (): Key => ["jobs_signal"],
  jobDone: (id: string): Key => ["jobs_done", id],

  // --- positions (kv/positions.ts)
  /** A member's reported (true) position and shown-cell state: read only by its owner. */
  positionOwn: (profileId: string): Key => ["positions_own", profileId],
  /** The shown position of a visible member, indexed by its 1-degree sector. */
  positionShown: (sector: string, profileId: string): Key => ["positions_shown", sector, profileId],
  positionsShownInSector: (sector: string): Key => ["positions_shown", sector],
  positionsShownAll: (): Key => ["positions_shown"],
  /** The change log that instances tail; `at` is `kv.commitVersionstamp()` when written. */
  positionLog: (at: string | symbol): Key => ["positions_log", at],
  positionsLogAll: (): Key => ["positions_log"],
  /** Bumped (sum) by every position write; instances `watch` it to tail the log. */
  positionsVersion: (): Key => ["positions_version"],
  /** The generated secret of the shown-position hash when `GEO_SECRET` is unset. */
  positionsSecret: (): Key => ["positions_secret"],
};
