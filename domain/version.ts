/** The Version entity (spec §3), shown by the version panel for the frontend and the backend. */

/** A version: git commit hash and commit time (ISO). */
export interface Version {
  gitCommitHash: string;
  gitCommitTs: string;
}
