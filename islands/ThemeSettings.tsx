/**
 * This device's colours (Account settings): as the device is set (the default), or always light or
 * dark. Kept in a cookie (PUT /api/settings/theme), so every page, its first paint included,
 * follows it; applied at once here.
 */

import { useId, useState } from "react";
import { api } from "./queries/api.ts";
import { apiPath } from "../domain/apiPath.ts";
import { TEXTS } from "../domain/texts.ts";
import { type Theme, THEME_COOKIE } from "../domain/device.ts";

export interface ThemeSettingsProps {
  current: Theme;
}

export default function ThemeSettings({ current }: ThemeSettingsProps) {
  const id = useId();
  const [theme, setTheme] = useState<Theme>(current);
  const choose = async (next: Theme) => {
    setTheme(next);
    const root = document.documentElement;
    if (next === "system") delete root.dataset.theme;
    else root.dataset.theme = next;
    document.querySelector('meta[name="color-scheme"]')?.setAttribute(
      "content",
      next === "system" ? "light dark" : next,
    );
    // Written here at once too, so a page opened before the answer comes already paints in it; the
    // server's answer writes the same cookie (routes/api/settings.ts).
    const secure = location.protocol === "https:" ? "; secure" : "";
    document.cookie = next === "system"
      ? `${THEME_COOKIE}=; path=/; max-age=0${secure}`
      : `${THEME_COOKIE}=${next}; path=/; max-age=${400 * 24 * 3600}; samesite=lax${secure}`;
    await api(apiPath("PUT /api/settings/theme", {}), { method: "PUT", json: { theme: next } }).catch(() => {});
  };
  const options: [Theme, string][] = [["system", TEXTS.themeSystem], ["light", TEXTS.themeLight], [
    "dark",
    TEXTS.themeDark,
  ]];
  return (
    <section className="settings-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{TEXTS.theme}</h2>
      <div role="radiogroup" aria-labelledby={`${id}-title`} className="stack">
        {options.map(([value, label]) => (
          <label key={value} className="check">
            <input
              type="radio"
              name={`${id}-theme`}
              value={value}
              checked={theme === value}
              onChange={() => void choose(value)}
            />{" "}
            {label}
          </label>
        ))}
      </div>
    </section>
  );
}
