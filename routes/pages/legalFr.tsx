/** The About and Terms of Service / Privacy Policy bodies in French (routes/pages/legal.tsx). */

import type { ReactElement } from "react";
import { type AboutText, LEAFLET, OSM, UNSPLASH } from "./legalParts.tsx";

export const LINKS_FR = {
  tos: "Conditions d'utilisation",
  pp: "Politique de confidentialité",
  support: "Aide",
  contact: "Nous contacter",
};

export const ABOUT_FR: AboutText = {
  intro:
    "est une communauté sociale et de rencontres fondée sur la localisation, pour les adultes gays et lesbiennes, animée par ses membres dans un esprit bénévole.",
  valuesTitle: "Nos valeurs",
  values: [
    ["Communauté", "des membres qui aident des membres."],
    ["Sécurité", "ta position, tes photos et tes données sont protégées dès la conception."],
    ["Plaisir", "faire des rencontres doit être agréable."],
    ["Responsabilité", "nous veillons les uns sur les autres."],
    ["Évolution", "nous progressons sans cesse, ensemble."],
  ],
  volunteersTitle: "Bénévoles",
  volunteers:
    "Les membres qui aident la communauté gagnent des crédits de bénévole dans les jeux de la communauté. Un membre standard a 0 crédit de bénévole ; les membres Pro ou bénévoles ont des fonctions illimitées.",
  thanksTitle: "Remerciements",
  thanks: [
    ["Données cartographiques © les contributeurs d'", OSM, "."],
    ["Cartes dessinées avec ", LEAFLET, "."],
    ["Photos d'illustration d'", UNSPLASH, "."],
  ],
};

export const TOS_FR = (): ReactElement => (
  <>
    <h1>Conditions d'utilisation</h1>
    <ol>
      <li>Tu dois avoir 18 ans ou plus pour utiliser ce service. Aucun contenu impliquant des mineurs, jamais.</li>
      <li>Aucune activité illégale, aucun harcèlement, spam ou logiciel malveillant.</li>
      <li>
        Tu restes propriétaire du contenu que tu publies. Tu nous accordes une licence pour l'héberger, le stocker et le
        montrer aux autres membres comme le service l'exige.
      </li>
      <li>Les infractions entraînent la suspension ou la fermeture de ton compte.</li>
      <li>Les litiges sont réglés par un arbitrage contraignant selon les lois de l'Arizona.</li>
    </ol>
    <p className="muted">En cas de différence entre cette traduction et le texte anglais, l'anglais prévaut.</p>
    <h2 id="pp">Politique de confidentialité</h2>
    <ul>
      <li>Tes données sont traitées aux États-Unis.</li>
      <li>Nous ne vendons pas tes données personnelles.</li>
      <li>
        Tu peux consulter, mettre à jour ou supprimer tes données à tout moment depuis les Réglages du compte, ou en
        nous écrivant.
      </li>
      <li>
        Les autres membres ne voient jamais ta position exacte : ils voient une position approximative dans une case de
        grille d'environ 1 km. Les métadonnées des photos (comme le GPS) sont supprimées à l'envoi.
      </li>
      <li>
        Télécharger mes données (Réglages du compte) t'envoie par e-mail un lien vers un ZIP de tout ce que nous gardons
        sur toi. Le lien fonctionne une fois, pendant 24 heures, et seulement quand tu es connecté.
      </li>
      <li>
        Supprimer mon compte (Réglages du compte) supprime en quelques minutes ton profil, tes photos, tes j'aime, tes
        notes, les messages que tu as envoyés, tes lieux et tout le reste te concernant. Les membres à qui tu as écrit
        gardent les messages qu'ils t'ont envoyés, affichés comme envoyés à un membre supprimé. Deux choses sont gardées
        : le journal d'audit des modérateurs (qui a fait quoi, quand et pourquoi) et, si ton compte a été suspendu ou
        banni, une empreinte à sens unique de ton adresse e-mail, pour qu'un bannissement ne puisse pas être contourné
        par une nouvelle inscription.
      </li>
    </ul>
  </>
);
