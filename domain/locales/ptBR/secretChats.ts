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
  sendPicture: "Enviar uma foto",
  sendingPicture: "Criptografando e enviando a foto…",
  picture: "Foto secreta",
  pictureGone: "Esta foto não está mais no servidor, e este dispositivo não tem uma cópia dela.",
  pictureOffline: "Uma foto precisa de conexão: envie de novo quando estiver online.",
  pictureUnreadable: "Este arquivo não pode ser lido como uma foto.",
  unsend: "Cancelar envio",
  unsentMine:
    "Você cancelou o envio. É um pedido: os dispositivos da pessoa apagam a cópia deles; uma cópia guardada de outro jeito (uma captura de tela) fica.",
  unsentTheirs: "A pessoa cancelou o envio desta mensagem: este dispositivo apagou a cópia.",
  viewOnce: "Ver uma vez",
  viewOnceHint:
    "Ver uma vez é um pedido ao dispositivo da pessoa: ele mostra a foto uma vez e depois a apaga. Nada impede uma captura de tela.",
  viewOnceOpen: "Foto de visualização única: abrir",
  viewOnceSent: "Foto de visualização única",
  viewed: "Vista",
  close: "Fechar",
  exportNone: "Este dispositivo não guarda nenhuma conversa secreta.",
  exportNote:
    "Uma cópia das suas conversas secretas como este dispositivo as decifrou e guarda. O servidor não tem nada disso: guarde este arquivo em segurança.",
};
