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

__all__ = ["LANGUAGES", "letter"]

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
}


def letter(kind: str, lang: str, link: str, name: str) -> tuple[str, str]:
    """The subject and body of the mail ``kind`` (``confirm``, ``reset``) to the player
    ``name``, in ``lang`` (English for a language bones does not speak)."""
    subject, body = LETTERS[kind].get(lang, LETTERS[kind]["en"])
    return subject, body.format(name=name, link=link)
