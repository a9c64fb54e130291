/** Brazilian Portuguese texts of the games (domain/games.ts). */

import type { Translation } from "../../i18n.ts";
import type { EnGames } from "../en/games.ts";
import { HEALTH_PT_BR } from "./health.ts";
import { HOT_OR_NOT_PT_BR } from "./hotOrNot.ts";
import { formatDay, VOLUNTEER_CREDITS, VOLUNTEER_ROLE_DAYS, VOLUNTEER_WINDOW_DAYS } from "../../volunteer.ts";

export const GAMES_PT_BR: Translation<EnGames> = {
  credits: (n: number) => `Créditos de voluntário: ${n}`,
  creditsNote:
    "Um julgamento real vale um crédito: Legal ou Meh, um voto, ou um recorte que o dono usou. Pular não vale nada. No máximo 20 por dia.",
  volunteerUntil: (ts: number) => `Voluntário até ${formatDay(ts)}. Obrigado por ajudar!`,
  volunteerStanding: "Você é voluntário. Obrigado por ajudar!",
  volunteerProgress: (recent: number, toGo: number) =>
    `${recent} ${
      recent === 1 ? "crédito" : "créditos"
    } nos últimos ${VOLUNTEER_WINDOW_DAYS} dias: faltam ${toGo} para você ser voluntário.`,
  get volunteerHow() {
    return `Ganhe ${VOLUNTEER_CREDITS} créditos em ${VOLUNTEER_WINDOW_DAYS} dias e você será voluntário por ${VOLUNTEER_ROLE_DAYS} dias: como os membros Pro, voluntários não têm limites diários. Cada crédito enquanto você ficar com ${VOLUNTEER_CREDITS} ou mais mantém o papel.`;
  },
  volunteerProgressLabel: "Créditos para o papel de voluntário",
  membershipLink: "Assinatura: Pro e voluntários",
  human: "Humano",
  machine: "Máquina ou falso",
  communitySays: "A comunidade até agora:",
  nextProfile: "Próximo perfil",
  gptIntro: "Este texto de perfil foi escrito por uma pessoa de verdade, ou por uma máquina ou um perfil falso?",
  gptEmpty: "Não há textos de perfil para julgar perto de você agora. Volte mais tarde.",
  ratingIntro:
    "Avalie fotos de membros por perto: Legal, Meh ou Pular. Legal e Meh valem um crédito; Pular não vale nada.",
  ratingEmpty: "Não há fotos para avaliar perto de você agora. Volte mais tarde.",
  arbIntro:
    "Um membro denunciou este perfil. Leia a denúncia e o perfil e diga se ele viola as regras. No fim, um administrador decide.",
  arbEmpty: "Não há denúncias abertas para você julgar agora. Obrigado por ajudar!",
  violation: "Violação",
  noViolation: "Sem violação",
  reportReason: "Motivo",
  reportText: "O que quem denunciou escreveu",
  reportedProfile: "O perfil denunciado",
  noText: "(sem texto)",
  nextReport: "Próxima denúncia",
  cropIntro:
    "Sugira um recorte de retrato melhor para a foto de um membro. O dono decide se usa; você ganha um crédito quando ele usa.",
  cropHelp: "Ajude um membro",
  cropForYou: "Recortes sugeridos para suas fotos",
  cropYourPicture: "Sua foto com o recorte sugerido",
  cropAccept: "Usar este recorte",
  cropDismiss: "Dispensar",
  cropAccepted: "Pronto: sua foto agora usa este recorte.",
  cropDismissed: "Dispensado.",
  cropSize: "Tamanho",
  cropLeftRight: "Esquerda / direita",
  cropUpDown: "Cima / baixo",
  cropSuggest: "Sugerir este recorte",
  cropSkip: "Pular",
  cropSent: "Obrigado! Sua sugestão foi enviada. Você ganha um crédito se o dono usar.",
  cropEmpty: "Nenhuma foto perto de você precisa de ajuda agora. Volte mais tarde.",
  adminReports: "Denúncias (administradores)",
  adminNoReports: "Nenhuma denúncia.",
  adminConfirm: "Confirmar violação",
  adminDismiss: "Dispensar",
  adminFlagged: "Perfis sinalizados (administradores)",
  adminNoFlagged: "Nenhum perfil sinalizado.",
  saveFailed: "Não foi possível salvar seu voto. Tente de novo.",
  loadFailed: "Não foi possível carregar o próximo. Tente de novo.",
  backToGames: "Voltar aos jogos",
  health: HEALTH_PT_BR,
  hotOrNot: HOT_OR_NOT_PT_BR,
};
