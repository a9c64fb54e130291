/** English texts of secret chats (domain/secretChats.ts): the catalogue's keys and the words the translations follow. */

export const EN_SECRET = {
  /** Before the text a reporter revealed, in the admin queue, once its franking verified. */
  verifiedReportPrefix: "[Verified secret message]",
  /** Under a conversation's header where being gay is a crime (the safety mode): it suggests a secret chat. */
  suggest: "Where you are, a secret chat keeps what you write here between your devices and theirs.",
  startSecretChat: "Start a secret chat",
  starting: "Starting the secret chat…",
  secretChat: "Secret chat",
  secretNotice: "End-to-end encrypted: only your devices and theirs can read these messages.",
  safetyCode: "Safety code",
  safetyCodeHint: "Compare this code with theirs in person: if both show the same, no one is in between.",
  peerCannot:
    "They cannot take part in a secret chat yet: each of their devices needs to open Lambda once with secret chats.",
  loseHistory: "Secret messages are kept only on your devices: losing every device loses this history.",
  placeholder: "Secret message",
  send: "Send",
  report: "Report",
  reported: "Reported",
  cannotOpen: "This message cannot be read on this device.",
  queued: "Offline: kept on this device and sent when the connection is back.",
  notSent: "Not sent",
  devicesChanged: "Their devices changed: compare the safety code again.",
  otherDevice: "This secret chat belongs to another of your devices; this one cannot read it.",
  askToJoin: "Ask your other device to add this one",
  waitingApproval: "Waiting for your other device to add this one…",
  newDeviceAsks: "Another of your devices asks to join this secret chat.",
  addNewDevice: "Add it",
  unsupported: "This browser cannot keep the keys of a secret chat.",
  notVerified: "The reported text does not match the message: it was not filed.",
  sendPicture: "Share a picture",
  sendingPicture: "Encrypting and uploading the picture…",
  picture: "Secret picture",
  pictureGone: "This picture is no longer on the server, and this device has no copy of it.",
  pictureOffline: "A picture needs the connection: send it again when you are online.",
  pictureUnreadable: "This file cannot be read as a picture.",
  unsend: "Unsend",
  unsentMine:
    "You unsent this. It is a request: their devices delete their copy; a copy kept another way (a screenshot) stays.",
  unsentTheirs: "They unsent this message: this device deleted its copy.",
  viewOnce: "View once",
  viewOnceHint:
    "View once is a request to their device: it shows the picture once, then deletes it. Nothing can stop a screenshot.",
  viewOnceOpen: "View-once picture: open",
  viewOnceSent: "View-once picture",
  viewed: "Viewed",
  close: "Close",
  exportNone: "This device holds no secret chat.",
  exportNote:
    "A copy of your secret chats as this device decrypted and keeps them. The server has none of it: keep this file safe.",
} as const;

export type EnSecret = typeof EN_SECRET;
