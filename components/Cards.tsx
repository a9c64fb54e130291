/** A grid of link cards (home, games). */

import {
  BookOpen,
  Bot,
  Bug,
  Crop,
  Dices,
  Flame,
  Heart,
  Info,
  Layers,
  LayoutGrid,
  Link,
  LogIn,
  LogOut,
  type LucideIcon,
  MapPinned,
  Megaphone,
  MessageCircle,
  Pencil,
  Scale,
  ScanSearch,
  Settings,
  Star,
  Stethoscope,
  UserPlus,
} from "./icons.ts";
import { titleText } from "../domain/texts.ts";
import { discreetTitle } from "../domain/brand.ts";
import { type Phrase, phrase } from "../domain/phrases.ts";

export interface CardItem {
  path: string;
  label: string;
  /** Its icon, from the app's one icon set (lucide). */
  icon: LucideIcon;
  text?: string;
}

/** Cards linking to routes; `discreet`: their plain titles (discreet mode names nothing). */
export function Cards({ items, discreet }: { items: readonly CardItem[]; discreet?: boolean }) {
  return (
    <ul className="cards">
      {items.map((it) => (
        <li key={it.label}>
          <a className="card" href={it.path}>
            <span className="card-icon" aria-hidden="true">
              <it.icon className="icon" aria-hidden="true" />
            </span>
            <span className="card-label">{titleText(discreetTitle(it.label, discreet))}</span>
            {it.text && <span className="card-text">{phrase(it.text as Phrase)}</span>}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** Home cards for logged-out visitors. */
export const HOME_CARDS_LOGGED_OUT: CardItem[] = [
  { path: "/login", label: "Login", icon: LogIn },
  { path: "/register", label: "Register", icon: UserPlus },
];

/** Home cards for members (spec §2 Home), in order. */
export const HOME_CARDS: CardItem[] = [
  { path: "/search/map", label: "Gaydar Map", icon: MapPinned },
  { path: "/search/tile", label: "Profile Tiles", icon: LayoutGrid },
  { path: "/search/swype", label: "Swype Profiles", icon: Layers },
  { path: "/search/profile", label: "Read Profiles", icon: BookOpen },
  { path: "/chat/personal", label: "Personal Chat", icon: MessageCircle },
  { path: "/chat/broadcast", label: "Map Chat", icon: Megaphone },
  { path: "/games", label: "Community", icon: Dices },
  { path: "/likes/profilelikedyou", label: "View Likes", icon: Heart },
  { path: "/profileEdit", label: "Edit Profile", icon: Pencil },
  { path: "/settings", label: "Account", icon: Settings },
  { path: "/aboutus", label: "About Us", icon: Info },
  { path: "/logout", label: "Logout", icon: LogOut },
];

/** Game cards (spec §2 Games). Games not built yet lead to a 'coming' page. */
export const GAME_CARDS: CardItem[] = [
  { path: "/games/gptbuster", label: "GPT Buster", icon: Bot, text: "Spot machine-written or fake profiles." },
  { path: "/games/cooties", label: "You got Cooties", icon: Bug },
  { path: "/games/hotornot", label: "Hot or Not", icon: Flame, text: "Find your best picture, privately." },
  { path: "/games/ratinggame", label: "The Rating Game", icon: Star, text: "Swipe to rate pictures." },
  { path: "/games/photocrop", label: "Help my Photos", icon: Crop, text: "Suggest a better crop." },
  { path: "/games/identify", label: "3 2 1 Identify", icon: ScanSearch },
  { path: "/games/dungeon", label: "Bad Boy Dungeon", icon: Link },
  { path: "/games/healthreport", label: "Health Incident Report", icon: Stethoscope },
  { path: "/games/arbitration", label: "Community Arbitration", icon: Scale, text: "Vote on reported violations." },
];
