/**
 * The one route table of spec §2: path, title, access and menu flags. The server mounts a page
 * for every entry, the side menu lists them, and links are built from it.
 */

/** Who may open a route: anyone, logged-out-or-in public pages, members, or admins. */
export type Access = "any" | "public" | "auth" | "admin";

/** One route of the product. */
export interface RouteDef {
  /** Hono-style path (`:param` segments). */
  path: string;
  /** Page title (document title and heading). */
  title: string;
  access: Access;
  /** Shown in the side menu (hidden routes are `false`). */
  menu: boolean;
  /** Menu label when it differs from the title. */
  menuLabel?: string;
  /** Shown in the menu only while logged out (Login). */
  loggedOutOnly?: boolean;
}

const r = (
  path: string,
  title: string,
  access: Access,
  menu: boolean,
  extra: Partial<RouteDef> = {},
): RouteDef => ({ path, title, access, menu, ...extra });

/** Every route of spec §2, in menu order. */
export const ROUTES: readonly RouteDef[] = [
  r("/", "Home", "any", true),
  r("/login", "Login", "public", true, { loggedOutOnly: true }),
  r("/register", "Register / Recover Login", "public", false),
  r("/search/map", "Gaydar Map", "auth", true),
  r("/search/tile", "Profile Tiles", "auth", true),
  r("/search/swype", "Swype Profiles", "auth", true),
  r("/search/profile", "Read Profiles", "auth", true),
  r("/chat/personal", "Your Conversations", "auth", true, { menuLabel: "Personal Chat" }),
  r("/chat/broadcast", "Map Chat", "auth", true),
  r("/notifications", "Notifications", "auth", true),
  r("/likes/profilelikedyou", "Liked You", "auth", true, { menuLabel: "Likes" }),
  r("/likes/profilelikedyourpics", "Your Pics", "auth", false),
  r("/likes/youlikedprofile", "You Liked", "auth", false),
  r("/likes/youlikedprofilepics", "Their Pics", "auth", false),
  r("/games", "Community", "auth", true),
  r("/games/gptbuster", "GPT Buster", "auth", true),
  r("/games/ratinggame", "The Rating Game", "auth", true),
  r("/games/photocrop", "Help my Photos", "auth", true),
  r("/games/arbitration", "Community Arbitration", "auth", true),
  r("/games/identify", "3 2 1 Identify", "auth", true),
  r("/games/hotornot", "Hot or Not", "auth", true),
  r("/games/healthreport", "Health Incident Report", "auth", false),
  r("/games/cooties", "You got Cooties", "auth", false),
  r("/games/dungeon", "Bad Boy Dungeon", "auth", false),
  r("/games/:game", "Coming Soon", "auth", false),
  r("/profile/:profileId", "Profile", "auth", false),
  r("/profileEdit", "Profile Editor", "auth", true, { menuLabel: "Edit Profile" }),
  r("/profilePicEdit", "Edit Picture", "auth", false),
  r("/profilePicUpload", "Profile Picture Upload", "auth", false),
  r("/profilePicCarousel", "Pictures", "auth", false),
  r("/profilePicRateSwipe", "Rate Pictures", "auth", false),
  r("/settings", "Account Settings", "auth", true, { menuLabel: "Account" }),
  r("/billing", "Membership Dues", "auth", true),
  r("/contactus", "Contact Us", "auth", false),
  r("/aboutus", "About Us", "public", true),
  r("/support", "Support", "public", false),
  r("/tos", "Terms of Service and Privacy Policy", "any", false),
  r("/sorry", "Ooops!", "public", false),
  r("/offline", "Offline", "auth", false),
  r("/dashboard", "Admin Dashboard", "admin", true),
  r("/admin/moderation", "Moderation", "admin", true),
  r("/admin/members/:profileId", "Member", "admin", false),
  r("/logout", "Logout", "auth", true),
];

/** What the menu needs to know about the visitor. */
export interface Viewer {
  loggedIn: boolean;
  roles: readonly string[];
}

/** May this viewer open the route? Public and any routes are open to all. */
function canOpen(route: RouteDef, viewer: Viewer): boolean {
  if (route.access === "auth") return viewer.loggedIn;
  if (route.access === "admin") return viewer.loggedIn && viewer.roles.includes("ADMIN");
  return true;
}

/** The menu entries for a viewer: spec §2 side menu visibility rules. */
export function menuFor(viewer: Viewer): { path: string; label: string }[] {
  return ROUTES.filter((rt) => rt.menu && canOpen(rt, viewer) && !(rt.loggedOutOnly && viewer.loggedIn)).map((rt) => ({
    path: rt.path,
    label: rt.menuLabel ?? rt.title,
  }));
}
