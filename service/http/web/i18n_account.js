// The account panel in every language: sign up, sign in (password or a code from another
// device), sign out here or everywhere, the code for another device, and "My games" of an
// account. i18n.js merges these into its table.

const en = {
  "acct.title": "Account", "acct.help": "Optional: with an account your games and seats follow you to any device. You can always play without one.",
  "acct.name": "Name", "acct.password": "Password (at least 8 characters)", "acct.signin": "Sign in", "acct.signup": "Create account",
  "acct.codelabel": "Code from another device", "acct.codesignin": "Sign in with code",
  "acct.signedin": "Signed in as {name}.", "acct.newcode": "Sign in on another device", "acct.signout": "Sign out",
  "acct.signoutall": "Sign out everywhere", "acct.codeis": "On the other device, enter this code within {minutes} minutes:",
  "acct.failed": "That did not work; try again.", "acct.wrong": "Wrong name or password.", "acct.taken": "This name, or one that looks like it, is taken.",
  "acct.short": "The password needs at least 8 characters.", "acct.slow": "Too many attempts; wait a minute.",
  "acct.badname": "A name has 1 to 24 visible characters, without < or >.",
  "acct.minehelp": "The deals and matches of your account, from every device you signed in on.",
};

const pt = {
  "acct.title": "Conta", "acct.help": "Opcional: com uma conta, os seus jogos e lugares acompanham-no em qualquer dispositivo. Pode sempre jogar sem conta.",
  "acct.name": "Nome", "acct.password": "Palavra-passe (pelo menos 8 caracteres)", "acct.signin": "Entrar", "acct.signup": "Criar conta",
  "acct.codelabel": "Código de outro dispositivo", "acct.codesignin": "Entrar com o código",
  "acct.signedin": "Sessão iniciada como {name}.", "acct.newcode": "Entrar noutro dispositivo", "acct.signout": "Sair",
  "acct.signoutall": "Sair em todos os dispositivos", "acct.codeis": "No outro dispositivo, introduza este código dentro de {minutes} minutos:",
  "acct.failed": "Não resultou; tente de novo.", "acct.wrong": "Nome ou palavra-passe errados.", "acct.taken": "Este nome, ou um parecido, já está ocupado.",
  "acct.short": "A palavra-passe precisa de pelo menos 8 caracteres.", "acct.slow": "Demasiadas tentativas; espere um minuto.",
  "acct.badname": "Um nome tem de 1 a 24 caracteres visíveis, sem < nem >.",
  "acct.minehelp": "As mãos e partidas da sua conta, de todos os dispositivos em que entrou.",
};

const nl = {
  "acct.title": "Account", "acct.help": "Niet verplicht: met een account volgen je spellen en plaatsen je naar elk apparaat. Spelen zonder account kan altijd.",
  "acct.name": "Naam", "acct.password": "Wachtwoord (minstens 8 tekens)", "acct.signin": "Inloggen", "acct.signup": "Account maken",
  "acct.codelabel": "Code van een ander apparaat", "acct.codesignin": "Inloggen met code",
  "acct.signedin": "Ingelogd als {name}.", "acct.newcode": "Inloggen op een ander apparaat", "acct.signout": "Uitloggen",
  "acct.signoutall": "Overal uitloggen", "acct.codeis": "Voer deze code binnen {minutes} minuten in op het andere apparaat:",
  "acct.failed": "Dat lukte niet; probeer het opnieuw.", "acct.wrong": "Verkeerde naam of wachtwoord.", "acct.taken": "Deze naam, of een die erop lijkt, is al bezet.",
  "acct.short": "Het wachtwoord heeft minstens 8 tekens nodig.", "acct.slow": "Te veel pogingen; wacht een minuut.",
  "acct.badname": "Een naam heeft 1 tot 24 zichtbare tekens, zonder < of >.",
  "acct.minehelp": "De spellen en partijen van je account, van elk apparaat waarop je ingelogd bent.",
};

const ar = {
  "acct.title": "الحساب", "acct.help": "اختياري: مع حساب تتبعك ألعابك ومقاعدك إلى أي جهاز. يمكنك دائمًا اللعب بدون حساب.",
  "acct.name": "الاسم", "acct.password": "كلمة المرور (8 أحرف على الأقل)", "acct.signin": "تسجيل الدخول", "acct.signup": "إنشاء حساب",
  "acct.codelabel": "رمز من جهاز آخر", "acct.codesignin": "الدخول بالرمز",
  "acct.signedin": "أنت مسجل الدخول باسم {name}.", "acct.newcode": "الدخول من جهاز آخر", "acct.signout": "تسجيل الخروج",
  "acct.signoutall": "تسجيل الخروج من كل الأجهزة", "acct.codeis": "أدخل هذا الرمز في الجهاز الآخر خلال {minutes} دقائق:",
  "acct.failed": "لم ينجح ذلك؛ حاول مرة أخرى.", "acct.wrong": "الاسم أو كلمة المرور غير صحيحة.", "acct.taken": "هذا الاسم، أو اسم يشبهه، مأخوذ.",
  "acct.short": "تحتاج كلمة المرور إلى 8 أحرف على الأقل.", "acct.slow": "محاولات كثيرة جدًا؛ انتظر دقيقة.",
  "acct.badname": "الاسم من 1 إلى 24 حرفًا ظاهرًا، بدون < أو >.",
  "acct.minehelp": "جولات حسابك ومبارياته، من كل جهاز دخلت منه.",
};

const fi = {
  "acct.title": "Tili", "acct.help": "Vapaaehtoinen: tilin kanssa pelisi ja paikkasi seuraavat sinua mille tahansa laitteelle. Ilman tiliäkin voi aina pelata.",
  "acct.name": "Nimi", "acct.password": "Salasana (vähintään 8 merkkiä)", "acct.signin": "Kirjaudu", "acct.signup": "Luo tili",
  "acct.codelabel": "Koodi toiselta laitteelta", "acct.codesignin": "Kirjaudu koodilla",
  "acct.signedin": "Kirjautuneena nimellä {name}.", "acct.newcode": "Kirjaudu toisella laitteella", "acct.signout": "Kirjaudu ulos",
  "acct.signoutall": "Kirjaudu ulos kaikkialta", "acct.codeis": "Syötä tämä koodi toisella laitteella {minutes} minuutin kuluessa:",
  "acct.failed": "Se ei onnistunut; yritä uudelleen.", "acct.wrong": "Väärä nimi tai salasana.", "acct.taken": "Tämä nimi, tai sen näköinen, on jo varattu.",
  "acct.short": "Salasanassa on oltava vähintään 8 merkkiä.", "acct.slow": "Liian monta yritystä; odota minuutti.",
  "acct.badname": "Nimessä on 1–24 näkyvää merkkiä, ilman merkkejä < tai >.",
  "acct.minehelp": "Tilisi jaot ja ottelut kaikilta laitteilta, joilla olet kirjautunut.",
};

export const ACCOUNT_STRINGS = { en, pt, nl, ar, fi };
