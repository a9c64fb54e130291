/**
 * Client data of passkeys: the member's list (`GET /api/passkeys`), adding one (the WebAuthn
 * ceremony with @simplewebauthn/browser, loaded only when used) and removing one.
 */

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { api, call } from "./api.ts";
import { useServerData } from "./client.tsx";
import { TEXTS } from "../../domain/texts.ts";
import type { ApiAnswer } from "../../domain/contract.ts";

/** A passkey as the member sees it. */
export type PasskeyView = ApiAnswer<"GET /api/passkeys">[number];

const KEY = ["passkeys"] as const;

/** The member's passkeys; `initial` is what the server rendered. */
export function usePasskeysQuery(initial: PasskeyView[]) {
  useServerData(KEY, initial);
  return useQuery({ queryKey: KEY, queryFn: () => call("GET /api/passkeys", {}) });
}

/**
 * Creates a passkey on this device and stores it (name: optional, else the device's); the current
 * password confirms who adds it, unless the login is fresh (routes/reauth.ts).
 */
export function useAddPasskeyMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ name, currentPassword }: { name?: string; currentPassword?: string } = {}) => {
      const { startRegistration, browserSupportsWebAuthn } = await import("@simplewebauthn/browser");
      if (!browserSupportsWebAuthn()) throw new Error(TEXTS.passkeyUnsupported);
      const options = await api<PublicKeyCredentialCreationOptionsJSON>("/api/passkeys/register/options", {
        method: "POST",
        json: currentPassword ? { currentPassword } : {},
      });
      const response = await startRegistration({ optionsJSON: options });
      return call("POST /api/passkeys/register", {}, { json: { response, name } });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: KEY }),
  });
}

/** Removes one of the member's passkeys. */
export function useRemovePasskeyMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call("DELETE /api/passkeys/:id", { id }),
    onSettled: () => qc.invalidateQueries({ queryKey: KEY }),
  });
}
