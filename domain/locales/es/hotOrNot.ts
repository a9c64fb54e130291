/** Hot or Not's texts in Spanish (GAME_TEXTS.hotOrNot), apart so other languages do not load them. */

import type { Translation } from "../../i18n.ts";
import type { EnHotOrNot } from "../en/hotOrNot.ts";
import { formatDay } from "../../volunteer.ts";
import { HOT_DAYS, HOT_MAX_PICS, HOT_MIN_PICS, HOT_TARGET_VOTES } from "../../hotOrNot.ts";

export const HOT_OR_NOT_ES: Translation<EnHotOrNot> = {
  intro: "¿Cuál de tus fotos funciona mejor? Pruébalas en privado y ayuda a otros eligiendo entre dos de sus fotos.",
  testTitle: "Prueba tus fotos",
  testHelp:
    `Elige de ${HOT_MIN_PICS} a ${HOT_MAX_PICS} de tus fotos públicas. Los miembros votan por parejas sin ver tu nombre ni tu perfil. La prueba dura hasta que cada foto tenga ${HOT_TARGET_VOTES} votos contados, o ${HOT_DAYS} días. Solo tú ves el resultado.`,
  needPictures: "Necesitas al menos 2 fotos públicas para empezar una prueba.",
  addPictures: "Añadir fotos",
  pick: (n: number) => `Foto ${n}`,
  picked: (n: number) => `${n} elegidas`,
  start: "Empezar la prueba",
  started: "Tu prueba está en marcha.",
  running: (ts: number) =>
    `En marcha hasta que cada foto tenga ${HOT_TARGET_VOTES} votos contados, o el ${formatDay(ts)} como mucho.`,
  votes: (n: number) => `${n} de ${HOT_TARGET_VOTES} votos`,
  stop: "Detener la prueba",
  resultTitle: "Tu resultado",
  resultPrivate:
    "Solo tú ves esto. Nunca se muestra una puntuación en tu perfil, en las búsquedas ni a los administradores.",
  share: (pct: number, low: number, high: number) => `Elegida el ${pct}% de las veces (probablemente ${low}–${high}%)`,
  noVotes: "Aún no hay votos contados",
  ended: (ts: number) => `Terminó el ${formatDay(ts)}.`,
  stopped: (ts: number) => `Detenida el ${formatDay(ts)}.`,
  bestLabel: "La mejor",
  careless: (n: number) => n === 1 ? "1 voto descuidado no se contó." : `${n} votos descuidados no se contaron.`,
  bestFirst: "Poner la mejor primero",
  bestFirstDone: "Hecho: tu mejor foto ahora va primero.",
  earlier: "Pruebas anteriores",
  voteTitle: "Votar",
  voteHelp:
    "Dos fotos de un mismo miembro: ¿cuál sería mejor como primera foto? Tócala, u omítela. Tómate un momento: los votos rápidos, o siempre del mismo lado, no se cuentan. Un voto contado gana un crédito.",
  leftPicture: "Foto de la izquierda",
  rightPicture: "Foto de la derecha",
  choose: "Esta",
  skip: "Omitir",
  voteEmpty: "No hay fotos para comparar ahora mismo. Vuelve más tarde.",
  counted: "Contado. ¡Gracias!",
  notCountedFast: "No contado: tómate un momento para mirar las dos fotos.",
  notCountedSide: "No contado: sigues eligiendo el mismo lado.",
  skipped: "Omitida.",
  queued: "Guardado en este dispositivo: se enviará cuando vuelvas a tener conexión.",
  testEnded: "Esa prueba acaba de terminar.",
  keepTitle: "Mantener mi mejor foto primero",
  keepHelp:
    "La app cuenta los me gusta y las visitas al perfil que gana cada una de tus fotos públicas, y mantiene la mejor primero, probando las otras de vez en cuando. Puedes desactivarlo y deshacer sus cambios.",
  keepOn: "Activado",
  keepOff: "Desactivado",
  moved: (ts: number) => `La app puso esta foto primero el ${formatDay(ts)}.`,
  undo: "Deshacer: volver a mi orden",
  undone: "Tu orden ha vuelto y el ajuste está desactivado.",
  failed: "No funcionó. Inténtalo de nuevo.",
};
