/** Spanish texts of the screens' titles and headings (domain/screenTexts.ts). */

import type { Translation } from "../../i18n.ts";
import type { EnScreenTexts } from "../en/screenTexts.ts";

export const SCREEN_TEXTS_ES: Translation<EnScreenTexts> = {
  pictureOf: (i: number, n: number) => `Foto ${i} de ${n}`,
  previousPicture: "Foto anterior",
  nextPicture: "Foto siguiente",
  addPicture: "Añadir una foto",
  profileActions: "Acciones del perfil",
  chat: "Chat",
  notes: "Notas",
  actions: "Acciones",
  away: (d: string) => `a ${d}`,
  backToProfile: "Volver al perfil",
  viewProfile: "Perfil",
  attachPictures: "Adjuntar fotos",
  unread: (n: number) => (n === 1 ? "1 mensaje sin leer" : `${n} mensajes sin leer`),
  picture: "Foto",
  you: "Tú:",
  secretChatMarker: "Chat secreto",
  now: "ahora",
  minutes: (n: number) => `${n} min`,
  yesterday: "Ayer",
  welcomeTitle: "Bienvenida",
  stepOf: (i: number, n: number) => `Paso ${i} de ${n}`,
  nameStep: "¿Quién eres?",
  nameHint:
    "Tu nombre aparece en tu perfil. Los demás ven tu edad, nunca tu fecha de nacimiento. Hay que tener 18 años o más.",
  birthdateRequired: "Indica tu fecha de nacimiento.",
  pictureStep: "Añade una primera foto",
  pictureWhy:
    "Los perfiles con foto reciben muchos más likes y respuestas: es lo primero que ven los demás en la cuadrícula. Luego puedes recortarla, añadir más o hacer algunas privadas.",
  choosePicture: "Elegir una foto",
  characteristicsStep: "¿Qué te va?",
  characteristicsHint: "Marca lo que te describe: los demás pueden buscarlo. Cada una se guarda al marcarla.",
  locationStep: "¿Dónde estás?",
  locationHint:
    "La cuadrícula y el mapa muestran quién está cerca. Los demás te ven en un punto fijo a un kilómetro de donde estás, nunca en tu lugar exacto.",
  modeRandom: "Un punto al azar cerca de Phoenix",
  modeRandomWhy: "Donde empiezas hasta que elijas una de las otras.",
  modeWalk: "Caminar: sitúate tú",
  modeGps: "GPS: la ubicación de este dispositivo",
  modeGpsWhy:
    "Para que la gente que ves esté de verdad cerca. Tu navegador pedirá permiso; tu posición exacta nunca sale de nuestro servidor.",
  useGps: "Usar mi ubicación",
  useWalk: "Me situaré en el mapa",
  locationNow: (mode: string) => `Ahora: ${mode}`,
  next: "Continuar",
  skip: "Saltar por ahora",
  back: "Atrás",
  finish: "Ver quién está cerca",
  finishing: "Guardando dónde estás…",
  finishFailed:
    "No se pudo guardar dónde estás, así que nadie cerca te vería todavía. Revisa tu conexión e inténtalo de nuevo.",
  finishRetry: "Intentar de nuevo",
};
