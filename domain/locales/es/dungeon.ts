/** Spanish: the texts of Bad Boy Dungeon (domain/dungeon.ts). Neutral Spanish, "tú". */

import type { Translation } from "../../i18n.ts";
import type { EnDungeon } from "../en/dungeon.ts";

export const DUNGEON_ES: Translation<EnDungeon> = {
  rules: {
    rude: "Sé amable: nada de insultos, burlas ni groserías.",
    spam: "Nada de spam: ni mensajes copiados y pegados, ni anuncios, ni enlaces para vender, ni pedir dinero.",
    fake: "Sé tú: tu perfil y tus fotos te muestran a ti, con honestidad.",
    mapchat: "El Chat del mapa es para todos los de cerca: no acoses ni señales a nadie allí.",
    other: "Mantén la comunidad amable y segura.",
  },
  restricted: {
    first_message: "Primeros mensajes (a alguien con quien no tienes conversación)",
    like: "Me gusta en perfiles y fotos",
    map_chat: "Publicaciones en el Chat del mapa",
  },
  intro:
    "Una pausa, no un destierro. Cuando la comunidad coincide en que alguien rompió una regla menor (groserías, spam, un perfil engañoso, acoso en el Chat del mapa), esa persona no puede enviar primeros mensajes, dar me gusta ni publicar en el Chat del mapa durante un tiempo: 24 horas la primera vez, 3 días la segunda en 90 días, 7 días la tercera (y se avisa a los administradores). Las conversaciones ya empezadas siguen.",
  howTitle: "Cómo funciona la mazmorra",
  how: [
    "Alguien denuncia un perfil; el jurado de Arbitraje comunitario dice si rompe las reglas.",
    "Cuando votan al menos 5 personas y el 80 % o más de los votos ponderados dicen «Infracción», una infracción menor envía aquí a la persona al instante. Si no, decide un administrador, en 48 horas como mucho.",
    "Las amenazas, los menores, la violencia y las fotos sin consentimiento nunca llegan aquí: las tratan los administradores.",
    "La persona ve las líneas denunciadas, la regla y el final de la pausa. Un breve test sobre las reglas acorta la pausa una vez en un tercio; una apelación va a los administradores, cuya palabra es definitiva.",
    "Nadie más ve quién está en la mazmorra: ni insignia ni lista.",
  ],
  serving: (n: number) =>
    n === 1 ? "1 persona cumple una pausa ahora mismo." : `${n} personas cumplen una pausa ahora mismo.`,
  cardTitle: "Tu pausa",
  cardLead:
    "La comunidad coincidió en que esto rompió una regla. Esto es lo que se denunció, sin los nombres de otras personas.",
  linesTitle: "Lo que se denunció",
  noLines: "(La denuncia no tenía texto: trataba de tu perfil.)",
  ruleTitle: "La regla",
  restrictedTitle: "Lo que no puedes hacer hasta entonces",
  untilTitle: "Hasta",
  stepOf: (step: number) =>
    step === 1
      ? "Es tu primera pausa."
      : step === 2
      ? "Es tu segunda pausa en 90 días."
      : "Es tu tercera pausa en 90 días: se avisó a los administradores.",
  stillYouCan: "Puedes seguir respondiendo en tus conversaciones, explorar y jugar a los juegos de la comunidad.",
  quizTitle: "El test de las reglas",
  quizLead: "Acierta todas las preguntas y tu pausa se acorta en un tercio, una vez.",
  quizSend: "Comprobar mis respuestas",
  quizPassed: "¡Correcto! Tu pausa se acortó en un tercio.",
  quizWrong: (n: number) =>
    n === 1
      ? "Una respuesta todavía no es correcta. Vuelve a leer la regla e inténtalo otra vez."
      : `${n} respuestas todavía no son correctas. Vuelve a leer las reglas e inténtalo otra vez.`,
  quizUsed: "Ya usaste el test en esta pausa: se acortó en un tercio.",
  appealTitle: "Apelación",
  appealLead:
    "Si crees que la comunidad se equivocó, explica a los administradores por qué. Puedes apelar una vez; su palabra es definitiva.",
  appealLabel: "Por qué no fue una infracción",
  appealSend: "Enviar mi apelación",
  appealPending: "Tu apelación está con los administradores.",
  appealRejected: "Los administradores leyeron tu apelación y mantuvieron la pausa.",
  appealUpheld: "Los administradores aceptaron tu apelación: la pausa terminó.",
  refused: {
    first_message: (until: string) =>
      `Estás en pausa hasta el ${until}: no puedes enviar primeros mensajes hasta entonces. Tus conversaciones siguen. Mira la Mazmorra en Comunidad.`,
    like: (until: string) =>
      `Estás en pausa hasta el ${until}: no puedes dar me gusta hasta entonces. Mira la Mazmorra en Comunidad.`,
    map_chat: (until: string) =>
      `Estás en pausa hasta el ${until}: no puedes publicar en el Chat del mapa hasta entonces. Mira la Mazmorra en Comunidad.`,
  },
  /** An admin's action (end a stay, answer an appeal) found no connection. */
  offline: "Estás sin conexión: no se envió nada. Inténtalo de nuevo cuando vuelvas a tener conexión.",
  sendFailed: "No se pudo enviar, inténtalo de nuevo.",
  /** A quiz kept in the device outbox while offline. */
  quizQueued: "Guardado en este dispositivo: tus respuestas se envían cuando vuelvas a tener conexión.",
  /** An appeal kept in the device outbox while offline. */
  appealQueued: "Guardado en este dispositivo: tu apelación se envía cuando vuelvas a tener conexión.",
  ended: "Tu pausa terminó. Gracias por mantener la comunidad amable.",
  adminTitle: "La mazmorra",
  adminNone: "No hay nadie en la mazmorra y no hay apelaciones pendientes.",
  adminEnd: "Terminar la pausa",
  adminUphold: "Aceptar la apelación (terminar y anular)",
  adminReject: "Rechazar la apelación",
  adminAppeal: "Apelación",
  adminThird: "Tercera pausa en 90 días",
  adminOverdue: "Sin decidir en 48 horas",
  adminLink: "Pausas y apelaciones (la mazmorra)",
  questions: [
    {
      q: "Alguien no responde a tu mensaje. ¿Qué haces?",
      options: [
        "Enviar el mismo mensaje cada hora",
        "Dejarlo: no responder también es una respuesta",
        "Reñirle en el Chat del mapa",
      ],
    },
    {
      q: "¿Qué puedes poner en tu perfil?",
      options: ["Fotos de alguien más guapo", "Fotos tuyas y un texto honesto", "Cualquier edad que dé más me gusta"],
    },
    {
      q: "Alguien es grosero contigo. ¿Cuál es el paso correcto?",
      options: ["Denunciarle o bloquearle", "Insultarle también", "Publicar su nombre en el Chat del mapa"],
    },
    {
      q: "¿Quién ve que estás en la mazmorra?",
      options: ["Todos los de cerca", "Solo tú (y los administradores)", "Las personas a las que escribes"],
    },
  ],
};
