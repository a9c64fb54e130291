/** A grid of link cards (home, games). */

import { titleText } from "../domain/texts.ts";
import { type Phrase, phrase } from "../domain/phrases.ts";

export interface CardItem {
  path: string;
  label: string;
  icon: string;
  text?: string;
}

/** Cards linking to routes. */
export function Cards({ items }: { items: readonly CardItem[] }) {
  return (
    <ul className="cards">
      {items.map((it) => (
        <li key={it.label}>
          <a className="card" href={it.path}>
            <span className="card-icon" aria-hidden="true">{it.icon}</span>
            <span className="card-label">{titleText(it.label)}</span>
            {it.text && <span className="card-text">{phrase(it.text as Phrase)}</span>}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** Home cards for logged-out visitors. */
export const HOME_CARDS_LOGGED_OUT: CardItem[] = [
  { path: "/login", label: "Login", icon: "🔑" },
  { path: "/register", label: "Register", icon: "✨" },
];

/** Home cards for members (spec §2 Home), in order. */
export const HOME_CARDS: CardItem[] = [
  { path: "/search/map", label: "Gaydar Map", icon: "🗺️" },
  { path: "/search/tile", label: "Profile Tiles", icon: "🔲" },
  { path: "/search/swype", label: "Swype Profiles", icon: "👆" },
  { path: "/search/profile", label: "Read Profiles", icon: "📖" },
  { path: "/chat/personal", label: "Personal Chat", icon: "💬" },
  { path: "/chat/broadcast", label: "Map Chat", icon: "📣" },
  { path: "/games", label: "Community", icon: "🎲" },
  { path: "/likes/profilelikedyou", label: "View Likes", icon: "❤️" },
  { path: "/profileEdit", label: "Edit Profile", icon: "✏️" },
  { path: "/settings", label: "Account", icon: "⚙️" },
  { path: "/aboutus", label: "About Us", icon: "ℹ️" },
  { path: "/logout", label: "Logout", icon: "🚪" },
];

/** Game cards (spec §2 Games). Games not built yet lead to a 'coming' page. */
export const GAME_CARDS: CardItem[] = [
  { path: "/games/gptbuster", label: "GPT Buster", icon: "🤖", text: "Spot machine-written or fake profiles." },
  { path: "/games/cooties", label: "You got Cooties", icon: "🦠" },
  { path: "/games/hotornot", label: "Hot or Not", icon: "🔥" },
  { path: "/games/ratinggame", label: "The Rating Game", icon: "⭐", text: "Swipe to rate pictures." },
  { path: "/games/photocrop", label: "Help my Photos", icon: "✂️", text: "Suggest a better crop." },
  { path: "/games/identify", label: "3 2 1 Identify", icon: "🔎" },
  { path: "/games/dungeon", label: "Bad Boy Dungeon", icon: "⛓️" },
  { path: "/games/healthreport", label: "Health Incident Report", icon: "🩺" },
  { path: "/games/arbitration", label: "Community Arbitration", icon: "⚖️", text: "Vote on reported violations." },
];
