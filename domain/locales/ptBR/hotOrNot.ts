/** Hot or Not's texts in Brazilian Portuguese (GAME_TEXTS.hotOrNot), apart so other languages do not load them. */

import type { Translation } from "../../i18n.ts";
import type { EnHotOrNot } from "../en/hotOrNot.ts";
import { formatDay } from "../../volunteer.ts";
import { HOT_DAYS, HOT_MAX_PICS, HOT_MIN_PICS, HOT_TARGET_VOTES } from "../../hotOrNot.ts";

export const HOT_OR_NOT_PT_BR: Translation<EnHotOrNot> = {
  intro:
    "Qual das suas fotos funciona melhor? Teste em particular e ajude outras pessoas escolhendo entre duas fotos delas.",
  testTitle: "Teste suas fotos",
  testHelp:
    `Escolha de ${HOT_MIN_PICS} a ${HOT_MAX_PICS} das suas fotos públicas. Os membros votam em pares sem ver seu nome nem seu perfil. O teste vai até cada foto ter ${HOT_TARGET_VOTES} votos contados, ou ${HOT_DAYS} dias. Só você vê o resultado.`,
  needPictures: "Você precisa de pelo menos 2 fotos públicas para começar um teste.",
  addPictures: "Adicionar fotos",
  pick: (n: number) => `Foto ${n}`,
  picked: (n: number) => `${n} escolhidas`,
  start: "Começar o teste",
  started: "Seu teste está rodando.",
  running: (ts: number) =>
    `Rodando até cada foto ter ${HOT_TARGET_VOTES} votos contados, ou até ${formatDay(ts)} no máximo.`,
  votes: (n: number) => `${n} de ${HOT_TARGET_VOTES} votos`,
  stop: "Parar o teste",
  resultTitle: "Seu resultado",
  resultPrivate: "Só você vê isto. Nenhuma nota aparece no seu perfil, nas buscas ou para os administradores.",
  share: (pct: number, low: number, high: number) => `Escolhida em ${pct}% das vezes (provavelmente ${low}–${high}%)`,
  noVotes: "Ainda sem votos contados",
  ended: (ts: number) => `Terminou em ${formatDay(ts)}.`,
  stopped: (ts: number) => `Parado em ${formatDay(ts)}.`,
  bestLabel: "A melhor",
  careless: (n: number) =>
    n === 1 ? "1 voto descuidado não foi contado." : `${n} votos descuidados não foram contados.`,
  bestFirst: "Colocar a melhor primeiro",
  bestFirstDone: "Pronto: sua melhor foto agora é a primeira.",
  earlier: "Testes anteriores",
  voteTitle: "Votar",
  voteHelp:
    "Duas fotos de um mesmo membro: qual seria a melhor primeira foto? Toque nela, ou pule. Com calma: votos rápidos, ou sempre do mesmo lado, não contam. Um voto contado ganha um crédito.",
  leftPicture: "Foto da esquerda",
  rightPicture: "Foto da direita",
  choose: "Esta",
  skip: "Pular",
  voteEmpty: "Nenhuma foto para comparar agora. Volte mais tarde.",
  counted: "Contado. Obrigado!",
  notCountedFast: "Não contado: olhe as duas fotos com calma.",
  notCountedSide: "Não contado: você continua escolhendo o mesmo lado.",
  skipped: "Pulada.",
  queued: "Salvo neste aparelho: será enviado quando você estiver on-line de novo.",
  testEnded: "Esse teste acabou de terminar.",
  keepTitle: "Manter minha melhor foto primeiro",
  keepHelp:
    "O app conta as curtidas e as aberturas de perfil que cada foto pública sua recebe e mantém a melhor primeiro, testando as outras de vez em quando. Você pode desligar e desfazer as mudanças.",
  keepOn: "Ligado",
  keepOff: "Desligado",
  moved: (ts: number) => `O app colocou esta foto primeiro em ${formatDay(ts)}.`,
  undo: "Desfazer: voltar à minha ordem",
  undone: "Sua ordem voltou, e o ajuste está desligado.",
  failed: "Não deu certo. Tente de novo.",
};
