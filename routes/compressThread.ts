/**
 * The thread that compresses large answers (routes/compression.ts): each message is
 * `{ id, bytes, encoding, kind }`, each answer `{ id, out }` with the compressed bytes (transferred), or
 * `{ id, out: null }` when it failed.
 */

import { type AnswerKind, compressBytes, type Encoding } from "./compressBytes.ts";

/** This worker's own scope, typed as far as it is used (the project's types are the window's). */
const scope = globalThis as unknown as {
  onmessage: (
    e: MessageEvent<{ id: number; bytes: Uint8Array<ArrayBuffer>; encoding: Encoding; kind: AnswerKind }>,
  ) => void;
  postMessage(message: unknown, transfer?: Transferable[]): void;
};

scope.onmessage = (e) => {
  const { id, bytes, encoding, kind } = e.data;
  try {
    const out = compressBytes(bytes, encoding, kind);
    scope.postMessage({ id, out }, [out.buffer]);
  } catch {
    scope.postMessage({ id, out: null });
  }
};
