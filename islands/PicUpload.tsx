/**
 * The upload screen (/profilePicUpload, spec §2, §5, §8): a file chooser; the file is checked
 * here (type and size) and by the server (by its bytes), sent with the author profile id, the
 * file and its name, then 'Uploaded' shows for 2 seconds and the editor opens. A refusal shows
 * 'Error: ' and the reasons.
 */

import { type ChangeEvent, useEffect, useState } from "react";
import { QueryProvider } from "./queries/client.tsx";
import { ApiFailure } from "./queries/api.ts";
import { useUploadMutation } from "./queries/pictures.ts";
import { MAX_UPLOAD_BYTES, UPLOAD_ACCEPT, uploadProblems } from "../domain/pictures.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import { phrase } from "../domain/phrases.ts";
import { num } from "../domain/i18n.ts";

/** 'Uploaded' shows this long before the editor opens (spec §9). */
export const UPLOADED_MS = 2000;

export interface PicUploadProps {
  profileId: string;
  /** Replace this picture instead of adding one (`?replace_id=`). */
  replaceId?: string;
}

function UploadBody({ profileId, replaceId }: PicUploadProps) {
  const upload = useUploadMutation(profileId);
  const [error, setError] = useState("");
  const [done, setDone] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);

  useEffect(() => () => {
    if (preview) URL.revokeObjectURL(preview);
  }, [preview]);

  useEffect(() => {
    if (!done) return;
    const t = setTimeout(() => location.assign("/profileEdit"), UPLOADED_MS);
    return () => clearTimeout(t);
  }, [done]);

  function choose(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    setError("");
    if (!file) return;
    const problems = uploadProblems(file);
    if (problems.length) return setError(`Error: ${problems.join(" ")}`);
    setPreview(URL.createObjectURL(file));
    upload.mutate({ file, replaceId }, {
      onSuccess: () => setDone(true),
      onError: (err) => {
        setPreview(null);
        e.target.value = "";
        setError(
          `Error: ${err instanceof ApiFailure && err.status !== 0 ? err.message : phrase("The upload failed.")}`,
        );
      },
    });
  }

  return (
    <div className="stack narrow upload">
      <p className="muted">
        {phrase("PNG, JPEG or WebP, up to {mb} MB. Pictures are stored without their location and camera data.", {
          mb: num(MAX_UPLOAD_BYTES / 1_000_000),
        })}
      </p>
      <label className="file-chooser">
        <span className="button primary">
          {replaceId ? phrase("Choose a New Picture") : phrase("Choose a Picture")}
        </span>
        <input
          type="file"
          accept={UPLOAD_ACCEPT}
          onChange={choose}
          disabled={upload.isPending || done}
          className="visually-hidden"
        />
      </label>
      {preview && <img className="upload-preview" src={preview} alt={UI_TEXTS.chosenPicture} />}
      {upload.isPending && <p className="warning" role="status">{UI_TEXTS.uploading}</p>}
      {done && <p className="success" role="status">{UI_TEXTS.uploaded}</p>}
      {error && <p className="error" role="alert">{error}</p>}
      <p>
        <a href="/profileEdit">{UI_TEXTS.backToEditor}</a>
      </p>
    </div>
  );
}

export default function PicUpload(props: PicUploadProps) {
  return (
    <QueryProvider>
      <UploadBody {...props} />
    </QueryProvider>
  );
}
