"""The mails bones sends, in the reader's language (the one their page was in when they
asked): an address to confirm, a password to set again. Plain text: a link and what it
does, nothing a mail program could show otherwise.

>>> subject, body = letter("reset", "de", "https://bones.example/reset#abc", "Ann")
>>> subject
'bones: ein neues Passwort'
>>> "https://bones.example/reset#abc" in body
True
"""

from __future__ import annotations

__all__ = ["ABOUT", "LANGUAGES", "letter"]

LANGUAGES = ("en", "de", "pl", "ru")

LETTERS: dict[str, dict[str, tuple[str, str]]] = {
    "confirm": {
        "en": ("bones: confirm your address",
               "Hello {name},\n\nto confirm that this address is yours, open\n\n{link}\n\n"
               "within a day. If you did not give it to bones, do nothing: it will not be "
               "used.\n"),
        "de": ("bones: bestätige deine Adresse",
               "Hallo {name},\n\num zu bestätigen, dass diese Adresse dir gehört, öffne\n\n"
               "{link}\n\ninnerhalb eines Tages. Hast du sie bones nicht gegeben, tu nichts: "
               "sie wird nicht benutzt.\n"),
        "pl": ("bones: potwierdź swój adres",
               "Cześć {name},\n\naby potwierdzić, że ten adres należy do ciebie, otwórz\n\n"
               "{link}\n\nw ciągu doby. Jeśli nie podałeś go w bones, nic nie rób: nie "
               "zostanie użyty.\n"),
        "ru": ("bones: подтвердите адрес",
               "Здравствуйте, {name}!\n\nЧтобы подтвердить, что этот адрес ваш, откройте\n\n"
               "{link}\n\nв течение суток. Если вы не указывали его в bones, ничего не "
               "делайте: он не будет использован.\n"),
    },
    "reset": {
        "en": ("bones: a new password",
               "Hello {name},\n\nsomeone asked to set a new password for your bones account. "
               "To do it, open\n\n{link}\n\nwithin an hour; it works once. If it was not you, "
               "do nothing: your password stays as it is.\n"),
        "de": ("bones: ein neues Passwort",
               "Hallo {name},\n\njemand möchte ein neues Passwort für dein bones-Konto setzen. "
               "Dazu öffne\n\n{link}\n\ninnerhalb einer Stunde; der Link gilt einmal. Warst "
               "du es nicht, tu nichts: dein Passwort bleibt, wie es ist.\n"),
        "pl": ("bones: nowe hasło",
               "Cześć {name},\n\nktoś poprosił o nowe hasło do twojego konta bones. Aby je "
               "ustawić, otwórz\n\n{link}\n\nw ciągu godziny; link działa raz. Jeśli to nie "
               "ty, nic nie rób: twoje hasło zostaje bez zmian.\n"),
        "ru": ("bones: новый пароль",
               "Здравствуйте, {name}!\n\nКто-то попросил задать новый пароль для вашего "
               "аккаунта bones. Для этого откройте\n\n{link}\n\nв течение часа; ссылка "
               "действует один раз. Если это были не вы, ничего не делайте: пароль "
               "останется прежним.\n"),
    },
    "challenge": {
        "en": ("bones: {by} challenges you",
               "Hello {name},\n\n{by} challenges you to a game. To answer, open\n\n{link}\n\n"
               "You get this mail because you asked for one about challenges (your account "
               "page stops them).\n"),
        "de": ("bones: {by} fordert dich heraus",
               "Hallo {name},\n\n{by} fordert dich zu einer Partie heraus. Zum Antworten "
               "öffne\n\n{link}\n\nDu bekommst diese Mail, weil du sie dir für "
               "Herausforderungen gewünscht hast (auf deiner Kontoseite abstellbar).\n"),
        "pl": ("bones: {by} wyzywa cię",
               "Cześć {name},\n\n{by} wyzywa cię do gry. Aby odpowiedzieć, otwórz\n\n"
               "{link}\n\nDostajesz tę wiadomość, bo poprosiłeś o nie przy wyzwaniach "
               "(wyłączysz je na stronie konta).\n"),
        "ru": ("bones: {by} вызывает вас",
               "Здравствуйте, {name}!\n\n{by} вызывает вас на партию. Чтобы ответить, "
               "откройте\n\n{link}\n\nВы получили это письмо, потому что просили писать о "
               "вызовах (отключается на странице аккаунта).\n"),
    },
    "tournament": {
        "en": ("bones: your tournament is starting",
               "Hello {name},\n\na tournament you joined is starting:\n\n{link}\n\n"
               "You get this mail because you asked for one when a tournament starts (your "
               "account page stops them).\n"),
        "de": ("bones: dein Turnier beginnt",
               "Hallo {name},\n\nein Turnier, dem du beigetreten bist, beginnt:\n\n{link}\n\n"
               "Du bekommst diese Mail, weil du sie dir zum Turnierbeginn gewünscht hast (auf "
               "deiner Kontoseite abstellbar).\n"),
        "pl": ("bones: twój turniej się zaczyna",
               "Cześć {name},\n\nturniej, do którego dołączyłeś, się zaczyna:\n\n{link}\n\n"
               "Dostajesz tę wiadomość, bo poprosiłeś o nie przy starcie turnieju (wyłączysz "
               "je na stronie konta).\n"),
        "ru": ("bones: ваш турнир начинается",
               "Здравствуйте, {name}!\n\nтурнир, в который вы вступили, начинается:\n\n"
               "{link}\n\nВы получили это письмо, потому что просили писать о начале "
               "турниров (отключается на странице аккаунта).\n"),
    },
}
ABOUT = ("challenge", "tournament")
"""What a member may choose to be mailed about."""


def letter(kind: str, lang: str, link: str, name: str, by: str = "") -> tuple[str, str]:
    """The subject and body of the mail ``kind`` (``confirm``, ``reset``, ``challenge``,
    ``tournament``) to the player ``name`` (from ``by``), in ``lang`` (English for a
    language bones does not speak)."""
    subject, body = LETTERS[kind].get(lang, LETTERS[kind]["en"])
    return subject.format(by=by), body.format(name=name, link=link, by=by)
