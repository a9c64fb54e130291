/** The Health Incident Report's texts in Brazilian Portuguese (GAME_TEXTS.health), apart so other languages do not load them. */

import type { Translation } from "../../i18n.ts";
import type { EnHealth } from "../en/health.ts";
import { formatDay } from "../../volunteer.ts";

export const HEALTH_PT_BR: Translation<EnHealth> = {
  conditions: {
    SYPHILIS: "Sífilis",
    GONORRHOEA: "Gonorreia",
    CHLAMYDIA: "Clamídia",
    HIV: "HIV",
    HEPATITIS_A: "Hepatite A",
    HEPATITIS_B: "Hepatite B",
    HEPATITIS_C: "Hepatite C",
    MPOX: "Mpox (varíola dos macacos)",
    OTHER: "Outra infecção",
  },
  advice: {
    SYPHILIS:
      "Faça um exame de sangue para sífilis, mesmo sem sintomas como uma ferida indolor ou manchas na pele. O tratamento é simples, geralmente uma injeção de penicilina. Um exame logo após o contato pode dar negativo: repita se a sua clínica recomendar.",
    GONORRHOEA:
      "Faça o teste: exame de urina e coleta de garganta e reto, conforme o sexo que você teve. Muitas vezes não dá sintomas. O tratamento é com antibióticos, geralmente uma injeção.",
    CHLAMYDIA:
      "Faça o teste: exame de urina e coleta de garganta e reto, conforme o sexo que você teve. Muitas vezes não dá sintomas. O tratamento é com antibióticos.",
    HIV:
      "Faça o teste de HIV. Se o contato pode ter sido nas últimas 72 horas, vá agora a um serviço de saúde sexual ou pronto-socorro e peça a PEP (profilaxia pós-exposição). Repita o teste após a janela que a sua clínica indicar.",
    HEPATITIS_A:
      "Pergunte numa clínica ou ao seu médico pela vacina da hepatite A: aplicada até duas semanas após o contato, pode evitar a doença. Fique atento a febre, cansaço, urina escura ou pele e olhos amarelados.",
    HEPATITIS_B:
      "Faça um exame de sangue para hepatite B. Se não for vacinado, pergunte já pela vacina e pela imunoglobulina: nos dias após o contato podem evitar a infecção.",
    HEPATITIS_C:
      "Faça um exame de sangue para hepatite C (anticorpos, e um teste viral se a sua clínica recomendar). Os tratamentos de hoje curam quase todo mundo.",
    MPOX:
      "Observe febre, ínguas, manchas ou feridas por 21 dias após o contato. Pergunte numa clínica pela vacina da mpox: até quatro dias após o contato pode evitar a doença. Se surgirem sintomas, evite contato próximo e faça o teste.",
    OTHER:
      "Vá a um serviço de saúde sexual ou ao seu médico para um check-up e diga que foi avisado de uma possível exposição.",
  },
  reportIntro:
    "Recebeu o diagnóstico de uma infecção? Avise os membros com quem você trocou mensagens, sem o seu nome: cada um recebe um aviso de saúde em até um dia, e ninguém, nem os administradores, pode ver quem enviou.",
  conditionLabel: "Qual foi o seu diagnóstico?",
  chooseCondition: "Escolha…",
  periodLabel: "Até quando voltar?",
  periodOption: (days: number) => `Os últimos ${days} dias`,
  usualPeriod: (days: number) => `O usual para esta infecção: ${days} dias.`,
  contactsTitle: "Quem avisar",
  contactsHelp:
    "Membros com quem você trocou mensagens (nos dois sentidos) nesse período. Desmarque quem você não quiser avisar.",
  noContacts: "Nenhum membro com quem você trocou mensagens nesse período.",
  send: "Enviar os avisos",
  sending: "Enviando…",
  sent: (n: number) =>
    `Pronto. ${n} ${
      n === 1 ? "membro será avisado" : "membros serão avisados"
    } em até 24 horas, sem o seu nome. Nada deste aviso fica guardado do seu lado. Obrigado por cuidar da comunidade.`,
  remaining: (n: number) => `Você pode enviar mais ${n} ${n === 1 ? "aviso" : "avisos"} este mês.`,
  limitReached: "Você já enviou 2 avisos este mês. Poderá enviar mais no mês que vem.",
  tooNew: "Contas com menos de 7 dias ainda não podem enviar avisos de saúde.",
  notAContact: "Você só pode avisar membros com quem trocou mensagens nesse período.",
  sendFailed: "Não foi possível enviar os avisos. Tente de novo.",
  privacyNote:
    "O aviso diz o quê e quando, nunca quem. A sua escolha de membros não é guardada, e a sua exportação de dados não a mostrará.",
  cootiesIntro:
    "Alguém com quem você trocou mensagens nos contou que recebeu o diagnóstico de uma infecção. Escolheu avisar você de forma anônima: nós também não sabemos quem é.",
  noNotices: "Nenhum aviso de saúde para você. Nada a fazer.",
  noticeTitle: (condition: string) => `Possível exposição: ${condition}`,
  noticeWindow: (since: number, until: number) => `Entre ${formatDay(since)} e ${formatDay(until)}.`,
  whatToDo: "O que fazer",
  generalAdvice:
    "Os testes são confidenciais e você não precisa dizer como soube. Até saber, use camisinha e conte à sua clínica sobre este aviso.",
  reportAbuse: "Denunciar este aviso como abuso",
  abuseReported: "Obrigado. O aviso foi removido e contado como abuso.",
  adminTitle: "Avisos de saúde (administradores: só contagens)",
  adminCounts: (reports: number, notices: number, pending: number, abuse: number) =>
    `Relatos: ${reports}. Avisos mostrados: ${notices}. Aguardando: ${pending}. Denunciados como abuso: ${abuse}.`,
};
