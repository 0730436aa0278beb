"""What the page says, in each language: the round's end explains a score of 0, your
own bubble speaks to you, All Fives shows the ends that count, and the new-game form
names its parts (issue: what a new player tripped over)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.server.live import Server

LANGUAGES = ["en", "de", "pl", "ru"]


def _page(web: Server, browser: Browser, language: str):  # type: ignore[no-untyped-def]
    page = browser.new_page()
    page.goto(f"{web.url}/")
    page.evaluate("l => localStorage.setItem('bones.lang', l)", language)
    page.reload()
    page.wait_for_selector("#new-game")
    return page


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_domino_against_a_lone_double_blank_explains_its_zero(
        web: Server, browser: Browser, language: str) -> None:
    page = _page(web, browser, language)
    lines = page.evaluate("""async () => {
        const { roundEnd } = await import(new URL('roundend.js', document.scripts[0].src));
        const table = { variant: 'draw', status: 'between', seats: [{}, {}], ready: [],
                        rules: { players: 2 }, rematch: [] };
        const reveal = { round: 0, hands: [[], ['0-0']], count_points: [0, 0],
                         result: { winner: 0, reason: 'domino', points: [0, 0], ended_by: 0 },
                         scores_before: [0, 0], scores_after: [0, 0], eggs: 0 };
        const screen = { message: { table, reveal, you: 1, view: {} }, seatName: (s) => `S${s}`,
                         sideName: (s) => `S${s}`, say: () => 'went out', fair: null };
        const panel = roundEnd(screen);
        return [...panel.querySelectorAll('.explain li')].map((li) => li.textContent);
    }""")
    assert len(lines) == 1 and lines[0].endswith(page.evaluate("""async () => {
        const { t } = await import(new URL('i18n.js', document.scripts[0].src));
        return t('noPipsLeft'); }"""))
    page.close()


@pytest.mark.parametrize("language", ["de", "pl", "ru"])
def test_your_own_bubble_speaks_to_you(web: Server, browser: Browser, language: str) -> None:
    page = _page(web, browser, language)
    words = page.evaluate("""async () => {
        const { TableScreen } = await import(new URL('table.js', document.scripts[0].src));
        const { t } = await import(new URL('i18n.js', document.scripts[0].src));
        const screen = Object.create(TableScreen.prototype);
        screen.bubbles = {};
        screen.render = () => {};
        const drew = [{ seat: 0, move: 'draw', tile: '1-1' },
                      { seat: 0, move: 'draw', tile: '2-1' },
                      { seat: 1, move: 'draw', tile: null },
                      { seat: 1, move: 'pass', tile: null }];
        screen.bubble(drew, 0);
        return { mine: screen.bubbles[0].words, theirs: screen.bubbles[1].words,
                 you: t('drewYou', { n: 2 }), other: t('drew', { n: 1 }) };
    }""")
    assert words["mine"] == words["you"] != "drewYou"
    assert words["theirs"].startswith(words["other"])
    page.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_new_game_form_names_its_parts(web: Server, browser: Browser,
                                           language: str) -> None:
    page = _page(web, browser, language)
    page.check("input[name=variant][value=kozel]", force=True)
    legends = page.locator("#new-game legend").all_inner_texts()
    assert len(legends) == len(set(legends))
    roles = page.locator(".seat-choice > span").all_inner_texts()
    assert len(roles) == 3 and len(set(roles)) == 3
    assert not any(any(c.isdigit() for c in role) for role in roles)  # no "Seat 2"
    playing_as = page.locator(".playing-as").inner_text()  # a guest at once, who may sign up
    assert "Guest" in playing_as
    sign_up = page.locator("#sign-up-link").inner_text()
    assert sign_up and (language == "en") == (sign_up == "Sign up")
    keep = page.locator("#keep-games").inner_text()  # why: a member's games on any device
    assert keep and (language == "en") == (keep == "Your games then follow you to any device.")
    if language != "en":
        assert page.locator("input[name=variant][value=allfives] + strong").inner_text() \
            != "All Fives"
    if language == "de":
        texts = page.evaluate("""async () => {
            const { t } = await import(new URL('i18n.js', document.scripts[0].src));
            return [t('fairCommit', { hash: 'x' }), t('fairOk', { n: 2 }),
                    t('chooseEnd', { tile: '6-3' })];
        }""")
        assert not any("Gabe" in text for text in texts) and "Wohin soll" not in texts[2]
    page.close()


def test_all_fives_shows_the_ends_that_count(web: Server, browser: Browser) -> None:
    """The numbers shown add up to the sum shown: the spinner's empty arms, which count
    nothing, are not listed; a double at an end counts both halves."""
    page = _page(web, browser, "en")
    cases = page.evaluate("""async () => {
        const { TableScreen } = await import(new URL('table.js', document.scripts[0].src));
        const screen = Object.create(TableScreen.prototype);
        const views = [
          { line: [[3, 6], [6, 6], [6, 1]], arms: { up: [], down: [] }, ends: [3, 1, 6, 6],
            count: 4 },
          { line: [[6, 6], [6, 1]], arms: {}, ends: [6, 1], count: 13 },
          { line: [[5, 5]], arms: {}, ends: [5, 5], count: 10 },
          { line: [[3, 6], [6, 6], [6, 1]], arms: { up: [[6, 4]], down: [[6, 2], [2, 2]] },
            ends: [3, 1, 4, 2], count: 12 },
        ];
        return views.map((view) => {
          screen.message = { view: { ...view, boneyard_count: 0 },
                             table: { rules: { variant: 'allfives' } } };
          const counted = screen.centre().querySelector('.ends').dataset.counted;
          return [counted, view.count];
        });
    }""")
    for counted, count in cases:
        shown = counted.split(" ")
        assert sum(int(a) for part in shown for a in part.split("+")) == count, counted
    assert cases[0][0] == "3 1"
    page.close()


def test_no_language_says_one_key_twice() -> None:
    """A key given twice in a language's strings keeps only the last: one meaning would
    silently lose its words (two screens once shared "where.left")."""
    text = (Path(__file__).resolve().parents[2] / "src/bones/web/i18n.js").read_text()
    blocks = re.split(r"\n  (en|de|pl|ru): \{", text.split("export const LANGUAGES")[0])
    for language, body in zip(blocks[1::2], blocks[2::2], strict=True):
        keys = re.findall(r'^    "?([\w.]+)"?:', body, re.M)
        twice = sorted({k for k in keys if keys.count(k) > 1})
        assert not twice, f"{language}: {twice}"


@pytest.mark.parametrize("variant", ["draw", "block", "kozel", "allfives"])
def test_the_new_game_form_prints_no_null(web: Server, browser: Browser, variant: str) -> None:
    """The form handed the page's own replaceChildren a missing part, which printed
    "null" ("nullnullnull" above "Playing as…"); with a friend's seat too."""
    page = _page(web, browser, "en")
    page.check(f"input[name=variant][value={variant}]", force=True)
    assert "null" not in page.locator("#new-game").inner_text()
    page.select_option("select[name=seat1]", "friend")
    assert "null" not in page.locator("#new-game").inner_text()
    page.close()


def test_a_first_visit_logs_nothing_in_the_console(web: Server, browser: Browser) -> None:
    """A browser that never came before asked who it was and logged the refusal
    ("401 (Unauthorized)") before it was made a guest."""
    context = browser.new_context()
    page = context.new_page()
    logged: list[str] = []
    page.on("console", lambda m: logged.append(m.text) if m.type in ("error", "warning")
            else None)
    page.goto(f"{web.url}/")
    page.wait_for_selector("#new-game")
    page.wait_for_selector("#account-link")  # signed in as a guest by now
    assert logged == []
    context.close()


@pytest.mark.parametrize(("language", "ends"), [("de", ("links", "rechts")),
                                               ("ru", ("слева", "справа"))])
def test_a_hint_names_its_move_in_the_player_s_language(
        web: Server, browser: Browser, language: str, ends: tuple[str, str]) -> None:
    """Hints said "Сложный сыграл бы 5-4 left": the end of the line is named in the
    player's language, as everywhere a move is written out."""
    from tests.web.driver import READY, Player

    page = _page(web, browser, language)
    player = Player(page, web, random.Random(5))
    for _ in range(5):  # a hint that names an end (a lead has none)
        player.new_game("draw", players=2, target="null", name=None)
        page.wait_for_function(READY, timeout=60_000)
        page.click("#hint")
        line = page.locator("#hint-line").inner_text()
        if any(word in line for word in (*ends, "left", "right")):
            break
    assert not re.search(r"\b(left|right|up|down)\b", line), line
    assert any(word in line for word in ends), line
    page.close()


@pytest.mark.parametrize(("language", "said"), [
    ("pl", "33 oczka, zaokrąglone w dół do 30"), ("ru", "33 очка, округлено вниз до 30"),
    ("en", "33 pips, rounded down to 30")])
def test_counts_take_their_language_s_plural(web: Server, browser: Browser, language: str,
                                             said: str) -> None:
    """A Polish round's end said "33 oczek" for "33 oczka": every count goes through
    the language's plural rules."""
    page = _page(web, browser, language)
    assert page.evaluate("""async () => {
        const { t } = await import(new URL('i18n.js', document.scripts[0].src));
        return t('rounded', { n: 33, m: 30 }); }""") == said
    page.close()


def test_the_server_s_refusals_are_said_in_the_player_s_language(web: Server,
                                                                  browser: Browser) -> None:
    """"wrong name or password" and "the name … is taken" reached a German page in
    English: a refusal is said by its status or code, the English kept for programs."""
    taken = f"Tk{random.randrange(10**6)}"
    assert web.account(taken).get("/api/me").status_code == 200
    page = _page(web, browser, "de")
    page.goto(f"{web.url}/account")
    login = page.locator("#login")
    login.locator("input[name=name]").fill(taken)
    login.locator("input[name=password]").fill("not the password")
    login.locator("button[type=submit]").click()
    login.locator(".form-error:text-is('Falscher Name oder falsches Passwort')").wait_for()
    signup = page.locator("#signup")
    signup.locator("input[name=name]").fill(taken)
    signup.locator("input[name=password]").fill("correct horse")
    signup.locator("button[type=submit]").click()
    signup.locator(".form-error", has_text="Dieser Name ist vergeben").wait_for()
    page.close()


@pytest.mark.parametrize(("language", "first"), [("en", "15 s + 2 min"), ("de", "15 s + 2 Min."),
                                                 ("ru", "15 с + 2 мин")])
def test_the_clock_choices_are_in_the_player_s_language(web: Server, browser: Browser,
                                                        language: str, first: str) -> None:
    page = _page(web, browser, language)
    page.select_option("select[name=seat1]", "friend")
    assert page.locator("select[name=clock] option").first.inner_text() == first
    page.close()
