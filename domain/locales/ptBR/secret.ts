/** Brazilian Portuguese texts of secret chats (domain/secretChats.ts). */
import type { Translation } from "../../i18n.ts";
import type { EnSecret } from "../en/secretChats.ts";

export const SECRET_TEXTS: Translation<EnSecret> = {
  verifiedReportPrefix: "[Mensagem secreta verificada]",
  suggest: "Onde você está, um chat secreto deixa o que você escreve aqui só entre os seus dispositivos e os dele.",
  startSecretChat: "Iniciar um chat secreto",
  starting: "Iniciando o chat secreto…",
  secretChat: "Chat secreto",
  secretNotice: "Criptografia de ponta a ponta: só os seus dispositivos e os dele podem ler estas mensagens.",
  safetyCode: "Código de segurança",
  safetyCodeHint: "Compare este código com o dele pessoalmente: se os dois mostrarem o mesmo, ninguém está no meio.",
  peerCannot:
    "Ainda não é possível participar de um chat secreto: cada dispositivo dele precisa abrir o Lambda uma vez com chats secretos.",
  loseHistory:
    "As mensagens secretas ficam só nos seus dispositivos: perder todos os dispositivos significa perder este histórico.",
  placeholder: "Mensagem secreta",
  send: "Enviar",
  report: "Denunciar",
  reported: "Denunciado",
  cannotOpen: "Esta mensagem não pode ser lida neste dispositivo.",
  queued: "Sem conexão: guardada neste dispositivo e enviada quando a conexão voltar.",
  notSent: "Não enviada",
  devicesChanged: "Os dispositivos dele mudaram: compare o código de segurança de novo.",
  otherDevice: "Este chat secreto pertence a outro dispositivo seu; este não pode lê-lo.",
  askToJoin: "Pedir ao seu outro dispositivo para adicionar este",
  waitingApproval: "Esperando o seu outro dispositivo adicionar este…",
  newDeviceAsks: "Outro dispositivo seu pede para entrar neste chat secreto.",
  addNewDevice: "Adicionar",
  unsupported: "Este navegador não consegue guardar as chaves de um chat secreto.",
  notVerified: "O texto denunciado não corresponde à mensagem: a denúncia não foi registrada.",
};
