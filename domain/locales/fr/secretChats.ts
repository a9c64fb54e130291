/** French texts of secret chats (domain/secretChats.ts). */
import type { Translation } from "../../i18n.ts";
import type { EnSecret } from "../en/secretChats.ts";

export const SECRET_TEXTS: Translation<EnSecret> = {
  verifiedReportPrefix: "[Message secret vérifié]",
  suggest: "Là où vous êtes, une discussion secrète garde ce que vous écrivez ici entre vos appareils et les siens.",
  startSecretChat: "Démarrer une discussion secrète",
  starting: "Démarrage de la discussion secrète…",
  secretChat: "Discussion secrète",
  secretNotice: "Chiffrée de bout en bout : seuls vos appareils et les siens peuvent lire ces messages.",
  safetyCode: "Code de sécurité",
  safetyCodeHint:
    "Comparez ce code avec le sien en personne : si les deux sont identiques, personne ne s’est glissé entre vous.",
  peerCannot:
    "Cette personne ne peut pas encore participer à une discussion secrète : chacun de ses appareils doit ouvrir Lambda une fois avec les discussions secrètes.",
  loseHistory:
    "Les messages secrets ne sont gardés que sur vos appareils : perdre tous vos appareils, c’est perdre cet historique.",
  placeholder: "Message secret",
  send: "Envoyer",
  report: "Signaler",
  reported: "Signalé",
  cannotOpen: "Ce message ne peut pas être lu sur cet appareil.",
  queued: "Hors ligne : gardé sur cet appareil et envoyé au retour de la connexion.",
  notSent: "Non envoyé",
  devicesChanged: "Ses appareils ont changé : comparez de nouveau le code de sécurité.",
  otherDevice: "Cette discussion secrète appartient à un autre de vos appareils ; celui-ci ne peut pas la lire.",
  askToJoin: "Demander à votre autre appareil d’ajouter celui-ci",
  waitingApproval: "En attente de votre autre appareil pour ajouter celui-ci…",
  newDeviceAsks: "Un autre de vos appareils demande à rejoindre cette discussion secrète.",
  addNewDevice: "L’ajouter",
  unsupported: "Ce navigateur ne peut pas garder les clés d’une discussion secrète.",
  notVerified: "Le texte signalé ne correspond pas au message : le signalement n’a pas été enregistré.",
  sendPicture: "Envoyer une photo",
  sendingPicture: "Chiffrement et envoi de la photo…",
  picture: "Photo secrète",
  pictureGone: "Cette photo n’est plus sur le serveur, et cet appareil n’en a pas de copie.",
  pictureOffline: "Une photo a besoin de la connexion : renvoyez-la quand vous serez en ligne.",
  pictureUnreadable: "Ce fichier ne peut pas être lu comme une photo.",
  unsend: "Annuler l’envoi",
  unsentMine:
    "Vous avez annulé l’envoi. C’est une demande : ses appareils suppriment leur copie ; une copie gardée autrement (une capture d’écran) reste.",
  unsentTheirs: "Il a annulé l’envoi de ce message : cet appareil a supprimé sa copie.",
  viewOnce: "Voir une fois",
  viewOnceHint:
    "Voir une fois est une demande à son appareil : il montre la photo une fois, puis la supprime. Rien ne peut empêcher une capture d’écran.",
  viewOnceOpen: "Photo à voir une fois : ouvrir",
  viewOnceSent: "Photo à voir une fois",
  viewed: "Vue",
  close: "Fermer",
  exportNone: "Cet appareil ne garde aucune discussion secrète.",
  exportNote:
    "Une copie de vos discussions secrètes telles que cet appareil les a déchiffrées et les garde. Le serveur n’en a rien : gardez ce fichier en lieu sûr.",
};
