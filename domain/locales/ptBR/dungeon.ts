/** Brazilian Portuguese: the texts of Bad Boy Dungeon (domain/dungeon.ts). "Você". */

import type { Translation } from "../../i18n.ts";
import type { EnDungeon } from "../en/dungeon.ts";

export const DUNGEON_PT_BR: Translation<EnDungeon> = {
  rules: {
    rude: "Seja gentil: nada de insultos, deboche ou grosseria.",
    spam: "Nada de spam: nem mensagens copiadas e coladas, nem anúncios, nem links de venda, nem pedidos de dinheiro.",
    fake: "Seja você: seu perfil e suas fotos mostram você, com honestidade.",
    mapchat: "O Chat do mapa é de todos por perto: não assedie nem exponha ninguém lá.",
    other: "Mantenha a comunidade gentil e segura.",
  },
  restricted: {
    first_message: "Primeiras mensagens (para quem você ainda não conversa)",
    like: "Curtidas em perfis e fotos",
    map_chat: "Posts no Chat do mapa",
  },
  intro:
    "Um tempo, não um banimento. Quando a comunidade concorda que alguém quebrou uma regra leve (grosseria, spam, um perfil enganoso, assédio no Chat do mapa), essa pessoa não pode mandar primeiras mensagens, curtir nem postar no Chat do mapa por um tempo: 24 horas na primeira vez, 3 dias na segunda em 90 dias, 7 dias na terceira (e os admins são avisados). As conversas já em andamento continuam.",
  howTitle: "Como a masmorra funciona",
  how: [
    "Alguém denuncia um perfil; o júri da Arbitragem da comunidade diz se quebra as regras.",
    "Quando pelo menos 5 pessoas votam e 80% ou mais dos votos ponderados dizem 'Violação', uma violação leve manda a pessoa para cá na hora. Senão, um admin decide, em até 48 horas.",
    "Ameaças, menores, violência e fotos sem consentimento nunca vêm para cá: os admins cuidam delas.",
    "A pessoa vê as linhas denunciadas, a regra e o fim do tempo. Um quiz curto sobre as regras encurta o tempo uma vez em um terço; um recurso vai para os admins, cuja palavra é final.",
    "Ninguém mais vê quem está na masmorra: nem selo, nem lista.",
  ],
  serving: (n: number) =>
    n === 1 ? "1 pessoa está cumprindo um tempo agora." : `${n} pessoas estão cumprindo um tempo agora.`,
  cardTitle: "Seu tempo",
  cardLead:
    "A comunidade concordou que isto quebrou uma regra. Veja o que foi denunciado, sem os nomes de outras pessoas.",
  linesTitle: "O que foi denunciado",
  noLines: "(A denúncia não tinha texto: era sobre o seu perfil.)",
  ruleTitle: "A regra",
  restrictedTitle: "O que você não pode fazer até lá",
  untilTitle: "Até",
  stepOf: (step: number) =>
    step === 1
      ? "Este é o seu primeiro tempo."
      : step === 2
      ? "Este é o seu segundo tempo em 90 dias."
      : "Este é o seu terceiro tempo em 90 dias: os admins foram avisados.",
  stillYouCan: "Você ainda pode responder nas suas conversas, navegar e jogar os jogos da comunidade.",
  quizTitle: "O quiz das regras",
  quizLead: "Acerte todas as perguntas e seu tempo encurta em um terço, uma vez.",
  quizSend: "Conferir minhas respostas",
  quizPassed: "Tudo certo: seu tempo encurtou em um terço.",
  quizWrong: (n: number) =>
    n === 1
      ? "Uma resposta ainda não está certa. Leia a regra de novo e tente mais uma vez."
      : `${n} respostas ainda não estão certas. Leia as regras de novo e tente mais uma vez.`,
  quizUsed: "Você já usou o quiz neste tempo: ele encurtou em um terço.",
  appealTitle: "Recurso",
  appealLead:
    "Se você acha que a comunidade errou, diga aos admins por quê. Você pode recorrer uma vez; a palavra dos admins é final.",
  appealLabel: "Por que isto não foi uma violação",
  appealSend: "Enviar meu recurso",
  appealPending: "Seu recurso está com os admins.",
  appealRejected: "Os admins leram seu recurso e mantiveram o tempo.",
  appealUpheld: "Os admins aceitaram seu recurso: o tempo terminou.",
  refused: {
    first_message: (until: string) =>
      `Você está num tempo até ${until}: sem primeiras mensagens até lá. Suas conversas continuam. Veja a Masmorra em Comunidade.`,
    like: (until: string) => `Você está num tempo até ${until}: sem curtidas até lá. Veja a Masmorra em Comunidade.`,
    map_chat: (until: string) =>
      `Você está num tempo até ${until}: sem posts no Chat do mapa até lá. Veja a Masmorra em Comunidade.`,
  },
  /** An admin's action (end a stay, answer an appeal) found no connection. */
  offline: "Você está offline: nada foi enviado. Tente de novo quando voltar a ficar online.",
  sendFailed: "Não foi possível enviar, tente de novo.",
  /** A quiz kept in the device outbox while offline. */
  quizQueued: "Salvo neste aparelho: suas respostas são enviadas quando você voltar a ficar online.",
  /** An appeal kept in the device outbox while offline. */
  appealQueued: "Salvo neste aparelho: seu recurso é enviado quando você voltar a ficar online.",
  ended: "Seu tempo acabou. Obrigado por manter a comunidade gentil.",
  adminTitle: "Masmorra",
  adminNone: "Ninguém está na masmorra e nenhum recurso espera.",
  adminEnd: "Encerrar o tempo",
  adminUphold: "Aceitar o recurso (encerrar e anular)",
  adminReject: "Recusar o recurso",
  adminAppeal: "Recurso",
  adminThird: "Terceiro tempo em 90 dias",
  adminOverdue: "Sem decisão há 48 horas",
  adminLink: "Tempos e recursos (masmorra)",
  questions: [
    {
      q: "Alguém não responde a sua mensagem. O que você faz?",
      options: [
        "Manda a mesma mensagem de hora em hora",
        "Deixa pra lá: não responder também é resposta",
        "Dá uma bronca no Chat do mapa",
      ],
    },
    {
      q: "O que você pode pôr no seu perfil?",
      options: [
        "Fotos de alguém mais bonito",
        "Fotos suas e um texto honesto",
        "Qualquer idade que renda mais curtidas",
      ],
    },
    {
      q: "Alguém é grosseiro com você. Qual é o passo certo?",
      options: ["Denunciar ou bloquear", "Xingar de volta", "Postar o nome da pessoa no Chat do mapa"],
    },
    {
      q: "Quem vê que você está na masmorra?",
      options: ["Todo mundo por perto", "Só você (e os admins)", "As pessoas para quem você escreve"],
    },
  ],
};
