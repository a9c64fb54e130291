/** Spanish texts of secret chats (domain/secretChats.ts). */
import type { Translation } from "../../i18n.ts";
import type { EnSecret } from "../en/secretChats.ts";

export const SECRET_TEXTS: Translation<EnSecret> = {
  verifiedReportPrefix: "[Mensaje secreto verificado]",
  suggest: "Donde estás, un chat secreto deja lo que escribes aquí solo entre tus dispositivos y los suyos.",
  startSecretChat: "Iniciar un chat secreto",
  starting: "Iniciando el chat secreto…",
  secretChat: "Chat secreto",
  secretNotice: "Cifrado de extremo a extremo: solo tus dispositivos y los suyos pueden leer estos mensajes.",
  safetyCode: "Código de seguridad",
  safetyCodeHint: "Compara este código con el suyo en persona: si ambos muestran el mismo, nadie está en medio.",
  peerCannot:
    "Todavía no puede participar en un chat secreto: cada uno de sus dispositivos debe abrir Lambda una vez con chats secretos.",
  loseHistory:
    "Los mensajes secretos se guardan solo en tus dispositivos: si pierdes todos tus dispositivos, pierdes este historial.",
  placeholder: "Mensaje secreto",
  send: "Enviar",
  report: "Denunciar",
  reported: "Denunciado",
  cannotOpen: "Este mensaje no se puede leer en este dispositivo.",
  queued: "Sin conexión: se guarda en este dispositivo y se envía cuando vuelva la conexión.",
  notSent: "No enviado",
  devicesChanged: "Sus dispositivos cambiaron: vuelve a comparar el código de seguridad.",
  otherDevice: "Este chat secreto pertenece a otro de tus dispositivos; este no puede leerlo.",
  askToJoin: "Pedir a tu otro dispositivo que añada este",
  waitingApproval: "Esperando a que tu otro dispositivo añada este…",
  newDeviceAsks: "Otro de tus dispositivos pide unirse a este chat secreto.",
  addNewDevice: "Añadirlo",
  unsupported: "Este navegador no puede guardar las claves de un chat secreto.",
  notVerified: "El texto denunciado no coincide con el mensaje: no se registró.",
  sendPicture: "Enviar una foto",
  sendingPicture: "Cifrando y enviando la foto…",
  picture: "Foto secreta",
  pictureGone: "Esta foto ya no está en el servidor y este dispositivo no tiene una copia.",
  pictureOffline: "Una foto necesita conexión: envíala de nuevo cuando estés en línea.",
  pictureUnreadable: "Este archivo no se puede leer como una foto.",
  unsend: "Anular envío",
  unsentMine:
    "Anulaste el envío. Es una petición: sus dispositivos borran su copia; una copia guardada de otro modo (una captura de pantalla) se queda.",
  unsentTheirs: "Anuló el envío de este mensaje: este dispositivo borró su copia.",
  viewOnce: "Ver una vez",
  viewOnceHint:
    "Ver una vez es una petición a su dispositivo: muestra la foto una vez y luego la borra. Nada puede impedir una captura de pantalla.",
  viewOnceOpen: "Foto para ver una vez: abrir",
  viewOnceSent: "Foto para ver una vez",
  viewed: "Vista",
  close: "Cerrar",
  exportNone: "Este dispositivo no guarda ningún chat secreto.",
  exportNote:
    "Una copia de tus chats secretos tal como este dispositivo los descifró y los guarda. El servidor no tiene nada de esto: guarda este archivo en un lugar seguro.",
};
