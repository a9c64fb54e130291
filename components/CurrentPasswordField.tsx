/** The "Current password" field that confirms an account change (routes/reauth.ts). */

import { TEXTS } from "../domain/texts.ts";

export function CurrentPasswordField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <label>
      {TEXTS.currentPassword}
      <input type="password" value={value} onChange={(e) => onChange(e.target.value)} autoComplete="current-password" />
    </label>
  );
}
