/** Device names from a user agent, for the lists of sessions and push devices; this device's colour scheme. */

/** This device's colour scheme: the system's (no cookie), or always light or dark. */
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = typeof THEMES[number];
/** The cookie that keeps it (not HttpOnly: the settings page writes it at once as well as the server). */
export const THEME_COOKIE = "theme";

/** "Chrome on Linux": enough to tell devices apart in Account settings. */
export function deviceOf(ua: string): string {
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Firefox\//.test(ua)
    ? "Firefox"
    : /Chrom(e|ium)\//.test(ua)
    ? "Chrome"
    : /Safari\//.test(ua)
    ? "Safari"
    : "Browser";
  const os = /Android/.test(ua)
    ? "Android"
    : /iPhone|iPad/.test(ua)
    ? "iOS"
    : /Windows/.test(ua)
    ? "Windows"
    : /Mac OS X/.test(ua)
    ? "macOS"
    : /Linux/.test(ua)
    ? "Linux"
    : "unknown system";
  return `${browser} on ${os}`;
}
