/**
 * Texts of the app's screens that are ours, not the spec's (issue 12: the photo-first profile,
 * the chat screen, the conversation list, onboarding), in the three languages; and the chat
 * list's relative times ("2 min", "Yesterday").
 */

import { catalogue, type Locale } from "./i18n.ts";

const EN = {
  pictureOf: (i: number, n: number) => `Picture ${i} of ${n}`,
  previousPicture: "Previous picture",
  nextPicture: "Next picture",
  addPicture: "Add a picture",
  profileActions: "Profile actions",
  chat: "Chat",
  notes: "Notes",
  actions: "Actions",
  away: (d: string) => `${d} away`,
  backToProfile: "Back to the profile",
  viewProfile: "Profile",
  attachPictures: "Attach pictures",
  unread: (n: number) => (n === 1 ? "1 unread message" : `${n} unread messages`),
  picture: "Picture",
  you: "You:",
  now: "now",
  minutes: (n: number) => `${n} min`,
  yesterday: "Yesterday",
  welcomeTitle: "Welcome",
  stepOf: (i: number, n: number) => `Step ${i} of ${n}`,
  nameStep: "Who are you?",
  nameHint: "Your name shows on your profile. Others see your age, never your birthdate. Members must be 18 or older.",
  birthdateRequired: "Please enter your birthdate.",
  pictureStep: "Add a first picture",
  pictureWhy:
    "Members with a picture get far more likes and replies: it is the first thing others see on the grid. You can crop it, add more or make some private later.",
  choosePicture: "Choose a picture",
  characteristicsStep: "What are you into?",
  characteristicsHint: "Tick what describes you: others can look for it. Each one is saved as you tick it.",
  locationStep: "Where are you?",
  locationHint:
    "The grid and the map show who is around you. Others see you at a fixed point about a kilometre from where you are, never your exact place.",
  modeRandom: "A random point near Phoenix",
  modeRandomWhy: "Where you start until you choose one of the others.",
  modeWalk: "Walk: place yourself",
  modeGps: "GPS: this device's location",
  modeGpsWhy:
    "So the people you see are really around you. Your browser asks for permission; your exact position never leaves our server.",
  useGps: "Use my location",
  useWalk: "I'll place myself on the map",
  locationNow: (mode: string) => `Now: ${mode}`,
  next: "Continue",
  skip: "Skip for now",
  back: "Back",
  finish: "Show me who is around",
};

export const SCREEN_TEXTS = catalogue("SCREEN_TEXTS", EN, {
  es: {
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
  },
  "pt-BR": {
    pictureOf: (i: number, n: number) => `Foto ${i} de ${n}`,
    previousPicture: "Foto anterior",
    nextPicture: "Próxima foto",
    addPicture: "Adicionar uma foto",
    profileActions: "Ações do perfil",
    chat: "Chat",
    notes: "Notas",
    actions: "Ações",
    away: (d: string) => `a ${d}`,
    backToProfile: "Voltar ao perfil",
    viewProfile: "Perfil",
    attachPictures: "Anexar fotos",
    unread: (n: number) => (n === 1 ? "1 mensagem não lida" : `${n} mensagens não lidas`),
    picture: "Foto",
    you: "Você:",
    now: "agora",
    minutes: (n: number) => `${n} min`,
    yesterday: "Ontem",
    welcomeTitle: "Boas-vindas",
    stepOf: (i: number, n: number) => `Passo ${i} de ${n}`,
    nameStep: "Quem é você?",
    nameHint:
      "Seu nome aparece no seu perfil. Os outros veem sua idade, nunca sua data de nascimento. É preciso ter 18 anos ou mais.",
    birthdateRequired: "Informe sua data de nascimento.",
    pictureStep: "Adicione uma primeira foto",
    pictureWhy:
      "Perfis com foto recebem muito mais curtidas e respostas: é a primeira coisa que os outros veem na grade. Depois você pode recortá-la, adicionar mais ou deixar algumas privadas.",
    choosePicture: "Escolher uma foto",
    characteristicsStep: "Do que você curte?",
    characteristicsHint: "Marque o que descreve você: os outros podem procurar por isso. Cada uma é salva ao marcar.",
    locationStep: "Onde você está?",
    locationHint:
      "A grade e o mapa mostram quem está por perto. Os outros veem você num ponto fixo a cerca de um quilômetro de onde está, nunca no lugar exato.",
    modeRandom: "Um ponto aleatório perto de Phoenix",
    modeRandomWhy: "Onde você começa até escolher uma das outras.",
    modeWalk: "Caminhar: posicione-se você",
    modeGps: "GPS: a localização deste aparelho",
    modeGpsWhy:
      "Para que as pessoas que você vê estejam mesmo por perto. Seu navegador pede permissão; sua posição exata nunca sai do nosso servidor.",
    useGps: "Usar minha localização",
    useWalk: "Vou me posicionar no mapa",
    locationNow: (mode: string) => `Agora: ${mode}`,
    next: "Continuar",
    skip: "Pular por enquanto",
    back: "Voltar",
    finish: "Ver quem está por perto",
  },
});

/**
 * When a message was sent, as a chat list says it: "now", "2 min" within the hour, the time of
 * day today ("14:05"), "Yesterday", the weekday within a week, else the date. `at` is now;
 * both are read in the reader's time zone (the browser's; the server prints UTC instead).
 */
export function chatTimeText(ts: number, at: number, lang: Locale): string {
  const s = Math.max(0, Math.round((at - ts) / 1000));
  if (s < 60) return SCREEN_TEXTS.now;
  if (s < 3600) return SCREEN_TEXTS.minutes(Math.floor(s / 60));
  const d = new Date(ts), today = new Date(at);
  const dayStart = (x: Date) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  const days = Math.round((dayStart(today) - dayStart(d)) / 86_400_000);
  if (days <= 0) return d.toLocaleTimeString(lang, { hour: "numeric", minute: "2-digit" });
  if (days === 1) return SCREEN_TEXTS.yesterday;
  if (days < 7) return d.toLocaleDateString(lang, { weekday: "long" });
  const sameYear = d.getFullYear() === today.getFullYear();
  return d.toLocaleDateString(lang, { month: "short", day: "numeric", ...(sameYear ? {} : { year: "numeric" }) });
}
