// The chat panel's words and the set phrases, in every language. chat.js adds them to the tables.

export const CHAT_STRINGS = {
  en: {
    "chat.open": "Chat", "chat.close": "Close chat", "chat.title": "A word at the table",
    "chat.placeholder": "Say something (200 characters at most)", "chat.send": "Send",
    "chat.empty": "Nothing said yet.", "chat.mute": "Mute {name}", "chat.unmute": "Unmute {name}",
    "chat.muted": "Muted", "chat.seat": "Seat {n}", "chat.refused": "Not sent: {why}",
    "chat.phrase.gg": "Good game!", "chat.phrase.nice": "Nice one!", "chat.phrase.thanks": "Thanks!",
    "chat.phrase.hurry": "Your move, please.", "chat.phrase.oops": "Oops!",
    "chat.phrase.hello": "Hello!", "chat.phrase.sorry": "Sorry!",
  },
  pt: {
    "chat.open": "Conversa", "chat.close": "Fechar conversa", "chat.title": "Uma palavra à mesa",
    "chat.placeholder": "Diga algo (no máximo 200 caracteres)", "chat.send": "Enviar",
    "chat.empty": "Ainda ninguém disse nada.", "chat.mute": "Silenciar {name}", "chat.unmute": "Voltar a ouvir {name}",
    "chat.muted": "Silenciado", "chat.seat": "Lugar {n}", "chat.refused": "Não enviado: {why}",
    "chat.phrase.gg": "Bom jogo!", "chat.phrase.nice": "Boa jogada!", "chat.phrase.thanks": "Obrigado!",
    "chat.phrase.hurry": "A sua vez, por favor.", "chat.phrase.oops": "Ups!",
    "chat.phrase.hello": "Olá!", "chat.phrase.sorry": "Desculpe!",
  },
  nl: {
    "chat.open": "Chat", "chat.close": "Chat sluiten", "chat.title": "Een woordje aan tafel",
    "chat.placeholder": "Zeg iets (hoogstens 200 tekens)", "chat.send": "Versturen",
    "chat.empty": "Nog niets gezegd.", "chat.mute": "{name} dempen", "chat.unmute": "{name} weer horen",
    "chat.muted": "Gedempt", "chat.seat": "Plaats {n}", "chat.refused": "Niet verstuurd: {why}",
    "chat.phrase.gg": "Goed gespeeld!", "chat.phrase.nice": "Mooi zo!", "chat.phrase.thanks": "Bedankt!",
    "chat.phrase.hurry": "Jouw beurt, graag.", "chat.phrase.oops": "Oeps!",
    "chat.phrase.hello": "Hallo!", "chat.phrase.sorry": "Sorry!",
  },
  ar: {
    "chat.open": "دردشة", "chat.close": "إغلاق الدردشة", "chat.title": "كلمة على الطاولة",
    "chat.placeholder": "قل شيئًا (200 حرف على الأكثر)", "chat.send": "إرسال",
    "chat.empty": "لم يقل أحد شيئًا بعد.", "chat.mute": "كتم {name}", "chat.unmute": "إلغاء كتم {name}",
    "chat.muted": "مكتوم", "chat.seat": "المقعد {n}", "chat.refused": "لم تُرسل: {why}",
    "chat.phrase.gg": "لعبة جيدة!", "chat.phrase.nice": "أحسنت!", "chat.phrase.thanks": "شكرًا!",
    "chat.phrase.hurry": "دورك من فضلك.", "chat.phrase.oops": "عفوًا!",
    "chat.phrase.hello": "مرحبًا!", "chat.phrase.sorry": "آسف!",
  },
  fi: {
    "chat.open": "Keskustelu", "chat.close": "Sulje keskustelu", "chat.title": "Sana pöydässä",
    "chat.placeholder": "Sano jotain (enintään 200 merkkiä)", "chat.send": "Lähetä",
    "chat.empty": "Kukaan ei ole vielä sanonut mitään.", "chat.mute": "Mykistä {name}", "chat.unmute": "Poista mykistys: {name}",
    "chat.muted": "Mykistetty", "chat.seat": "Paikka {n}", "chat.refused": "Ei lähetetty: {why}",
    "chat.phrase.gg": "Hyvä peli!", "chat.phrase.nice": "Hienoa!", "chat.phrase.thanks": "Kiitos!",
    "chat.phrase.hurry": "Sinun vuorosi, kiitos.", "chat.phrase.oops": "Hups!",
    "chat.phrase.hello": "Hei!", "chat.phrase.sorry": "Anteeksi!",
  },
};
