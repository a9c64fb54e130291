/**
 * Client data of pictures: upload (`POST /api/profile-pic`), remove, the NSFW flag and the crop.
 * Every change refreshes the owner's profile, whose lists and picture facts the editor shows.
 */

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "./api.ts";
import { profileKey, type ProfileView } from "./profiles.ts";
import type { CropBox } from "../../domain/shapes/pictures.ts";

/** Uploads a file to the caller's profile (spec §7 multipart fields); `replaceId` takes that picture's place. */
export function useUploadMutation(profileId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ file, replaceId }: { file: File; replaceId?: string }) => {
      const form = new FormData();
      form.set("authorProfileId", profileId);
      form.set("picfile", file);
      form.set("picfilename", file.name);
      return call("POST /api/profile-pic", {}, { form, query: { replace_id: replaceId } });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: profileKey(profileId) }),
  });
}

/** Removes one of the caller's pictures. */
export function useRemovePicMutation(profileId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call("DELETE /api/profile-pic/:id", { id }),
    onSettled: () => qc.invalidateQueries({ queryKey: profileKey(profileId) }),
  });
}

/** Flags one of the caller's pictures NSFW, or not; the editor shows the flag at once. */
export function useNsfwMutation(profileId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, nsfw }: { id: string; nsfw: boolean }) =>
      call("PUT /api/profile-pic/:id", { id }, { json: { nsfw } }),
    onMutate: ({ id, nsfw }) => {
      qc.setQueryData<ProfileView>(
        profileKey(profileId),
        (p) => p && { ...p, pictures: p.pictures.map((x) => (x.id === id ? { ...x, nsfw } : x)) },
      );
    },
    onSettled: () => qc.invalidateQueries({ queryKey: profileKey(profileId) }),
  });
}

/** Saves a crop of one of the caller's pictures (a new generation, so new picture addresses). */
export function useCropMutation(profileId: string, picId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (box: CropBox) => call("PUT /api/profile-pic/:id/crop", { id: picId }, { json: box }),
    onSuccess: () => qc.invalidateQueries({ queryKey: profileKey(profileId) }),
  });
}

/** "Lock my private pictures" for one member: the pictures sent to them in chat that are not public stop showing. */
export function useLockPicturesMutation() {
  return useMutation({
    mutationFn: (profileId: string) => call("DELETE /api/profile-pic-grants/:profileId", { profileId }),
  });
}
