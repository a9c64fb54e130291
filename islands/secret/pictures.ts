/**
 * Pictures in a secret chat, on the device: a chosen picture is redrawn through a canvas (what
 * leaves is pixels only: no EXIF, no GPS, no XMP, no camera name, no embedded thumbnail), at most
 * `SECRET_PICTURE_MAX_SIDE` px, as a JPEG; then sealed (domain/secretPictures.ts) and uploaded as
 * opaque bytes. A received picture is fetched, checked against the hash its message carried,
 * decrypted and kept in the device's store (the server's copy may go: its sender may delete it).
 */

import { apiPath } from "../../domain/apiPath.ts";
import {
  openPicture,
  type PictureRef,
  type SealedPicture,
  sealPicture,
  SECRET_PICTURE_MAX_SIDE,
} from "../../domain/secretPictures.ts";
import { SECRET_TEXTS } from "../../domain/secretChats.ts";
import { deleteLocal, getLocal, setLocal } from "./store.ts";

/** A picture redrawn on the device: its pixels as a JPEG, nothing else of the file. */
export interface Redrawn {
  bytes: Uint8Array;
  type: "image/jpeg";
  width: number;
  height: number;
}

/** Redraws a chosen picture (turned as its EXIF says, scaled down) into a new JPEG without metadata. */
export async function redraw(file: Blob): Promise<Redrawn> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    throw new Error(SECRET_TEXTS.pictureUnreadable);
  }
  const scale = Math.min(1, SECRET_PICTURE_MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error(SECRET_TEXTS.pictureUnreadable);
  ctx.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.85));
  if (!blob) throw new Error(SECRET_TEXTS.pictureUnreadable);
  return { bytes: new Uint8Array(await blob.arrayBuffer()), type: "image/jpeg", width, height };
}

/** Redraws and seals a picture: what to upload, and what the message will carry but its id. */
export async function preparePicture(file: Blob): Promise<{ sealed: SealedPicture; redrawn: Redrawn }> {
  const redrawn = await redraw(file);
  return { sealed: await sealPicture(redrawn.bytes), redrawn };
}

const picKey = (chatId: string, id: string) => `pic:${chatId}:${id}`;

/** Keeps a picture's decrypted bytes on this device (the sender's own, at once). */
export function keepPicture(chatId: string, id: string, bytes: Uint8Array): Promise<void> {
  return setLocal(picKey(chatId, id), bytes);
}

/** Deletes this device's decrypted copy of a picture (unsent, or viewed once). */
export function forgetPicture(chatId: string, id: string): Promise<void> {
  return deleteLocal(picKey(chatId, id));
}

/**
 * A picture of the chat, decrypted: from this device's store, or fetched, checked and opened (and
 * then kept, but a view-once picture, which is never written to the store). Throws when it is gone
 * from the server or does not match its message.
 */
export async function pictureBytes(chatId: string, ref: PictureRef): Promise<Uint8Array> {
  const kept = await getLocal<Uint8Array>(picKey(chatId, ref.id));
  if (kept) return kept;
  const res = await fetch(
    apiPath("GET /api/secret/chats/:chatId/pictures/:pictureId", { chatId, pictureId: ref.id }),
    { credentials: "same-origin", cache: "no-store" },
  );
  if (!res.ok) throw new Error(SECRET_TEXTS.pictureGone);
  const plain = await openPicture(new Uint8Array(await res.arrayBuffer()), ref);
  if (!ref.once) await keepPicture(chatId, ref.id, plain);
  return plain;
}
