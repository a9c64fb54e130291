/** The app-feel texts (domain/feelTexts.ts) in Spanish. */

import type { Translation } from "../../i18n.ts";
import type { EnFeelTexts } from "../en/feel.ts";

export const FEEL_ES: Translation<EnFeelTexts> = {
  filter: "Filtrar",
  filters: "Filtros",
  age: "Edad",
  ageFrom: "Desde",
  ageTo: "Hasta",
  distance: "Distancia",
  anyDistance: "Cualquier distancia",
  within: (d: string) => `A menos de ${d}`,
  onlineNow: "En línea ahora",
  withPictures: "Con fotos",
  tags: "Etiquetas",
  showResults: "Ver resultados",
  whoIsAround: "Quién está cerca",
  seeEveryone: "Ver a todos",
  nobodyAroundYet: "Todavía no hay nadie cerca. Fija tu lugar en el mapa para conocer gente cercana.",
  openMap: "Abrir el mapa",
  dismiss: "Cerrar",
  back: "Atrás",
  today: "Hoy",
  yesterday: "Ayer",
  retry: "Reintentar",
  confirmBlock: (name: string) => `¿Bloquear a ${name}? No te verá y tú no le verás.`,
  yesBlock: "Bloquear",
  settingsSections: "Configuración",
  sectionAccount: "Cuenta",
  sectionPrivacy: "Privacidad y seguridad",
  sectionNotifications: "Notificaciones",
  sectionDevices: "Dispositivos y llaves de acceso",
  sectionData: "Mis datos",
  noChatsYet: "Aún no hay conversaciones. Saluda a alguien cercano.",
  findPeople: "Buscar gente cerca",
  nextProfile: "Perfil siguiente",
  previousProfile: "Perfil anterior",
  blockingHides: (name: string) =>
    `Al bloquear, tú y ${name} dejan de verse en todas partes: mapa, listas, chat y me gusta.`,
  /** "Show me to everyone" in discreet mode: the same choice, without saying what the app is for. */
  showToEveryoneDiscreet: "Mostrarme a todos los que están cerca, incluso donde eso es peligroso",
  removeTag: (tag: string) => `Quitar la etiqueta ${tag}`,
  removePasskey: (name: string) => `Quitar la llave de acceso ${name}`,
  dragPicture: (n: number) => `Arrastra la foto ${n} para moverla`,
};
