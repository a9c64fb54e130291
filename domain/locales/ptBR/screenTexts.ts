/** Brazilian Portuguese texts of the screens' titles and headings (domain/screenTexts.ts). */

import type { Translation } from "../../i18n.ts";
import type { EnScreenTexts } from "../en/screenTexts.ts";

export const SCREEN_TEXTS_PT_BR: Translation<EnScreenTexts> = {
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
  secretChatMarker: "Chat secreto",
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
  finishing: "Salvando onde você está…",
  finishFailed:
    "Não foi possível salvar onde você está, então ninguém por perto veria você ainda. Verifique sua conexão e tente de novo.",
  finishRetry: "Tentar de novo",
};
