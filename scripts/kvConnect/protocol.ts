/**
 * The KV Connect protocol as the test server (scripts/kvConnect.ts) speaks it: denokv's limits and
 * error answers, and the data path messages from the vendored schema (datapath.proto, read with
 * protobufjs).
 */

import protobuf from "protobufjs";

/** denokv's limits (proto/limits.rs). */
export const LIMITS = {
  writeKeyBytes: 2048,
  readKeyBytes: 2049,
  valueBytes: 65536,
  readRanges: 10,
  readEntries: 1000,
  checks: 10,
  mutations: 1000,
  totalMutationBytes: 819200,
  watchedKeys: 10,
} as const;

/** denokv's error answers (denokv/main.rs `ApiError`): status and text. */
export const ERRORS = {
  notFound: [404, "Resource not found."],
  malformedAuthorization: [401, "Malformed authorization header."],
  invalidAccessToken: [401, "Invalid access token."],
  invalidDatabaseId: [400, "Invalid database id."],
  invalidProtocolVersion: [400, "Expected protocol version 2."],
  keyTooLong: [400, "A key exceeds the key size limit."],
  valueTooLong: [400, "A value exceeds the value size limit."],
  readRangeTooLarge: [
    400,
    "The total number of entries requested across read ranges in the read request is too large.",
  ],
  atomicWriteTooLarge: [400, "The total size of the atomic write is too large."],
  tooManyReadRanges: [400, "Too many read ranges requested in one read request."],
  tooManyWatchedKeys: [400, "Too many keys watched in a single watch request."],
  tooManyChecks: [400, "Too many checks included in atomic write."],
  tooManyMutations: [400, "Too many mutations / enqueues included in atomic write."],
  invalidReadRangeLimit: [400, "The read range limit of the snapshot read request is invalid."],
  internal: [500, "An internal server error occurred."],
  invalidVersionstamp: [400, "Invalid versionstamp."],
  invalidMutationKind: [400, "Invalid mutation kind or arguments."],
  invalidMutationExpireAt: [400, "Invalid mutation expire at."],
  minimumProtocolVersion: [400, "The server requires at least protocol version 2. Use Deno 1.38.0 or newer."],
  noMatchingProtocolVersion: [
    400,
    "The server could not negotiate a protocol version. The server requires protocol version 2 or 3.",
  ],
} as const satisfies Record<string, readonly [number, string]>;

/** A request answered with an error status and text (as denokv answers it). */
export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
  static of(e: readonly [number, string]): ApiError {
    return new ApiError(e[0], e[1]);
  }
}

/** The data path schema's message types (protobufjs, from the vendored .proto text). */
export const proto = await (async () => {
  const text = await Deno.readTextFile(new URL("./datapath.proto", import.meta.url));
  const root = protobuf.parse(text, { keepCase: true }).root;
  const t = (name: string) => root.lookupType(`com.deno.kv.datapath.${name}`);
  return {
    SnapshotRead: t("SnapshotRead"),
    SnapshotReadOutput: t("SnapshotReadOutput"),
    AtomicWrite: t("AtomicWrite"),
    AtomicWriteOutput: t("AtomicWriteOutput"),
    Watch: t("Watch"),
    WatchOutput: t("WatchOutput"),
  };
})();

/** The schema's enum numbers the server uses. */
export const PB = {
  SR_SUCCESS: 1,
  AW_SUCCESS: 1,
  AW_CHECK_FAILURE: 2,
  M_SET: 1,
  M_DELETE: 2,
  M_SUM: 3,
  M_MAX: 4,
  M_MIN: 5,
  M_SET_SUFFIX_VERSIONSTAMPED_KEY: 9,
  VE_V8: 1,
  VE_LE64: 2,
  VE_BYTES: 3,
} as const;

/** Encodes a data path message (tests build raw requests with it). */
export function encodeMessage(type: keyof typeof proto, value: Record<string, unknown>): Uint8Array<ArrayBuffer> {
  const t = proto[type];
  return new Uint8Array(t.encode(t.fromObject(value)).finish());
}

/** Decodes a data path message to a plain object (int64 as number, bytes as Uint8Array, defaults filled). */
// deno-lint-ignore no-explicit-any
export function decodeMessage(type: keyof typeof proto, bytes: Uint8Array): any {
  const t = proto[type];
  return t.toObject(t.decode(bytes), { longs: Number, enums: Number, defaults: true, arrays: true });
}

/**
 * A data path answer: the server's own objects, already of the schema's types (bytes as Uint8Array,
 * enums and integers as numbers), encoded as they are, without `fromObject`'s conversion (the same
 * bytes: scripts/kvConnect_test.ts compares them).
 */
export function encodeAnswer(type: keyof typeof proto, value: Record<string, unknown>): Uint8Array<ArrayBuffer> {
  return new Uint8Array(proto[type].encode(value).finish());
}

/** A data path answer as a response. */
export function protobufAnswer(type: keyof typeof proto, value: Record<string, unknown>): Response {
  return new Response(encodeAnswer(type, value), { headers: { "content-type": "application/x-protobuf" } });
}

/** An int64 as protobufjs decodes it (a Long, or a number without long.js) as a number. */
export function int64(v: number | { toNumber(): number }): number {
  return typeof v === "number" ? v : v.toNumber();
}

/** A request's bytes field: protobufjs leaves the schema's default (an empty array) when absent. */
type PbBytes = Uint8Array | number[];

/** The data path requests as protobufjs decodes them (defaults from the prototype, int64 as Long). */
export interface PbRequests {
  SnapshotRead: { ranges: { start: PbBytes; end: PbBytes; limit: number; reverse: boolean }[] };
  AtomicWrite: {
    checks: { key: PbBytes; versionstamp: PbBytes }[];
    mutations: {
      key: PbBytes;
      value: { data: PbBytes; encoding: number } | null;
      mutation_type: number;
      expire_at_ms: number | { toNumber(): number };
    }[];
    enqueues: unknown[];
  };
  Watch: { keys: { key: PbBytes }[] };
}

/**
 * A data path request as decoded, without `toObject`'s copy (int64 fields stay Longs: `int64`), or
 * denokv's 400 for bad bytes.
 */
export function decodeRequest<T extends keyof PbRequests>(type: T, body: Uint8Array): PbRequests[T] {
  try {
    return proto[type].decode(body) as unknown as PbRequests[T];
  } catch (e) {
    throw new ApiError(400, `Request protobuf is invalid: ${e instanceof Error ? e.message : e}.`);
  }
}
