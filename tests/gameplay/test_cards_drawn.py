"""Cards drawn as cards (issue 14): the ``{% card %}`` tag, its twin in the browser
(``static/js/cards.js``), and the pages that show cards: the draft page, the tournament
page's drafted pools and the score helper's result show rank and suit symbol, red or black,
with the card's name for screen readers, and no bare codes."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template
from django.utils import translation

from gameplay.models import DraftSeat
from gameplay.services import drafts as services
from gameplay.templatetags.card_tags import draw
from rules.cards import DeckType, one_deck
from tests.factories import draft_pods

CARDS_JS = Path(settings.BASE_DIR) / "static" / "js" / "cards.js"
#: A code as the rules write one, as a whole word.
BARE_CODE = re.compile(r"(?<![\w])(?:10|[2-9JQKA])[CDHS](?![\w])|(?<![\w])JK(?![\w])")
ALL_CODES = [str(c) for c in dict.fromkeys(one_deck(DeckType.STANDARD_54))]


def render(source: str, **context: object) -> str:
    return Template("{% load card_tags %}" + source).render(Context(context))


def visible_text(markup: str) -> str:
    """What a sighted reader sees: the text between tags (attributes and scripts left out)."""
    markup = re.sub(r"<script\b.*?</script>", " ", markup, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def drawn(markup: str) -> list[str]:
    return re.findall(r'class="playcard[^"]*" data-card="([^"]*)"', markup)


# ----------------------------------------------------------------------------- the tag


def test_the_queen_of_hearts_is_a_red_q_with_a_heart_and_its_name() -> None:
    out = render("{% card 'QH' %}")
    assert 'class="playcard red"' in out
    assert '<span class="rank">Q</span><span class="suit">♥</span>' in out
    assert 'aria-label="Queen of hearts"' in out and 'title="Queen of hearts"' in out
    assert 'role="img"' in out
    assert "QH" not in visible_text(out)


@pytest.mark.parametrize(
    ("code", "colour", "rank", "symbol", "name"),
    [
        ("7C", "black", "7", "♣", "Seven of clubs"),
        ("10S", "black", "10", "♠", "Ten of spades"),
        ("AD", "red", "A", "♦", "Ace of diamonds"),
        ("jh", "red", "J", "♥", "Jack of hearts"),
        ("K♣", "black", "K", "♣", "King of clubs"),
    ],
)
def test_every_suit_has_its_symbol_and_colour(
    code: str, colour: str, rank: str, symbol: str, name: str
) -> None:
    out = render("{% card code %}", code=code)
    assert f'class="playcard {colour}"' in out
    assert f'<span class="rank">{rank}</span><span class="suit">{symbol}</span>' in out
    assert f'aria-label="{name}"' in out


def test_a_joker_is_drawn_as_a_joker() -> None:
    out = render("{% card 'JK' size='large' %}")
    assert 'class="playcard joker large"' in out
    assert 'aria-label="Joker"' in out
    assert '<span class="rank">Joker</span><span class="suit">★</span>' in out


def test_the_code_in_data_card_is_the_rules_own_spelling() -> None:
    assert drawn(render("{% card ' qd ' %}{% card '10♠' %}{% card 'joker' %}")) == [
        "QD",
        "10S",
        "JK",
    ]


@pytest.mark.parametrize("code", ["ZZ", "1C", "11H", "²C", "7X", "<b>7H</b>"])
def test_a_text_that_is_not_a_card_is_shown_as_typed_never_a_500(code: str) -> None:
    out = render("{% card code %}", code=code)
    assert 'class="playcard unknown"' in out
    assert f'aria-label="{html.escape(code)} (not a card)"' in out
    assert code in visible_text(out)
    assert "<b>" not in out  # escaped, as everything typed


def test_a_literal_in_a_template_is_escaped_too() -> None:
    assert "&lt;i&gt;" in render("{% card '<i>' %}")


def test_no_code_draws_nothing() -> None:
    assert render("[{% card '' %}{% card None %}{% card ' ' %}]") == "[]"
    assert render("{% cards None %}") == '<span class="card-row"></span>'


def test_a_row_keeps_the_order_given_and_is_small_unless_told() -> None:
    out = render("{% cards pool %}", pool=["7H", "JK", "2C", "7H"])
    assert out.startswith('<span class="card-row">')
    assert drawn(out) == ["7H", "JK", "2C", "7H"]
    assert out.count("playcard red small") == 2 and "playcard joker small" in out
    assert 'playcard black large"' in render("{% cards pool size='large' %}", pool=["2C"])


def test_an_unknown_size_is_ignored() -> None:
    assert 'class="playcard red"' in render("{% card 'QH' size='huge' %}")


def test_codes_in_the_rules_words_become_inline_cards_and_words_stay_words() -> None:
    text = "series of 2 cards worth 8 (7D+1, 8C); 8H left it, JK as 8 <b>AS</b>"
    out = render("{{ text|cards_in_text }}", text=text)
    assert drawn(out) == ["7D", "8C", "8H", "JK", "AS"]
    assert "playcard red inline" in out
    assert "&lt;b&gt;" in out and "<b>" not in out
    seen = visible_text(out)
    assert "as 8" in seen and "+1" in seen and "left it" in seen
    assert not BARE_CODE.search(seen)


# --------------------------------------------------------------- the browser's twin


def _node(script: str) -> object:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("no Node.js to run static/js/cards.js")
    result = subprocess.run(
        [node, "-e", f"const Cards = require({json.dumps(str(CARDS_JS))});\n{script}"],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return json.loads(result.stdout)


def test_the_browser_draws_exactly_the_markup_the_server_draws() -> None:
    codes = [*ALL_CODES, "qd", "10♠", "K♦", " 7h ", "joker", "*", "ZZ", "1C", "<i>&'\"", "²C"]
    sizes = ["", "small", "large", "inline", "huge"]
    script = (
        f"const codes = {json.dumps(codes)}, sizes = {json.dumps(sizes)}, out = [];\n"
        "codes.forEach(c => sizes.forEach(s => out.push(Cards.html(c, { size: s }))));\n"
        "console.log(JSON.stringify(out));"
    )
    browser = _node(script)
    server = [
        render("{% card code size=size %}", code=code, size=size)
        for code in codes
        for size in sizes
    ]
    assert browser == server


def test_the_browser_names_every_card_as_the_server_does() -> None:
    script = (
        f"console.log(JSON.stringify({json.dumps(ALL_CODES)}.map(c => Cards.describe(c).name)));"
    )
    names = _node(script)
    assert isinstance(names, list) and len(names) == 53
    assert "Queen of hearts" in names and "Ten of diamonds" in names and "Joker" in names
    for code, name in zip(ALL_CODES, names, strict=True):
        assert f'aria-label="{name}"' in render("{% card code %}", code=code)


def test_a_pool_sorts_by_suit_or_by_rank_and_keeps_copies() -> None:
    pool = ["7H", "JK", "2S", "AD", "7S", "10C", "7H", "QH"]
    script = (
        f"const pool = {json.dumps(pool)};\n"
        "console.log(JSON.stringify([Cards.sorted(pool, 'suit'), Cards.sorted(pool, 'rank'),"
        " Cards.sorted(pool, 'picked')]));"
    )
    by_suit, by_rank, as_picked = _node(script)
    # By suit: spades, hearts, clubs, diamonds (the colours alternate), low to high; jokers last.
    assert by_suit == ["2S", "7S", "7H", "7H", "QH", "10C", "AD", "JK"]
    # By rank: 2 to Ace, then the jokers; a rank's suits in the same order.
    assert by_rank == ["2S", "7S", "7H", "7H", "10C", "QH", "AD", "JK"]
    assert as_picked == pool


# ---------------------------------------------------------------------------- the pages


@pytest.mark.django_db
def test_the_draft_page_loads_the_card_drawing_and_the_pool_sort(client) -> None:
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    seat = DraftSeat.objects.select_related("registration__player__user").get(pod=pod, position=0)
    client.force_login(seat.registration.player.user)
    page = client.get(f"/drafts/{pod.pk}/").content.decode()
    assert "css/cards.css" in page
    scripts = re.findall(r'<script src="[^"]*/js/(\w+)\.js"', page)
    assert scripts.index("cards") < scripts.index("draft")
    assert 'data-sort="suit"' in page and 'data-sort="rank"' in page
    # The pack and the pool are drawn by the script from the snapshot: no code as text.
    assert not BARE_CODE.search(visible_text(page))


@pytest.mark.django_db
def test_the_tournament_page_draws_the_drafted_pools_as_cards(client) -> None:
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    pod = services.end_pod(actor=organiser, pod=pod)
    client.force_login(organiser)
    page = client.get(f"/tournaments/{pod.tournament_id}/").content.decode()
    section = page.split('<section id="drafts">', 1)[1].split("</section>", 1)[0]
    assert len(drawn(section)) == 4 * 7
    assert 'aria-label="' in section and "playcard" in section
    assert not BARE_CODE.search(visible_text(section))


@pytest.mark.django_db
def test_the_score_helper_draws_each_lines_cards(client) -> None:
    response = client.post(
        "/score/gesoseka/",
        {
            "board-deck": "standard54",
            "board-decks": 1,
            "p1-cards": "7H 10S QD JK",
            "p1-groups": "series: 8H 8C 8D",
            "p2-cards": "9C 2C",
        },
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    result = response.content.decode()
    assert 'id="score-card"' in result, visible_text(result)
    codes = drawn(result)
    for code in ("7H", "10S", "QD", "JK", "8H", "8C", "8D", "9C", "2C"):
        assert code in codes
    assert 'aria-label="Queen of diamonds"' in result
    assert not BARE_CODE.search(visible_text(result))


@pytest.mark.django_db
def test_the_kontsina_cards_in_no_pile_are_drawn(client) -> None:
    response = client.post(
        "/score/kontsina/", {"pile_a": "10D 2C 3C", "pile_b": "AS 7H"}, HTTP_HX_REQUEST="true"
    )
    result = response.content.decode()
    assert "47 cards in neither score pile" in result
    assert len(drawn(result)) >= 47
    assert not BARE_CODE.search(visible_text(result))


@pytest.mark.parametrize(
    ("language", "corner", "name"),
    [
        ("en", "Q", "Queen of hearts"),
        ("fr", "D", "Dame de cœur"),
        ("el", "\u039d", "Ντάμα κούπα"),  # Greek capital nu: ντάμα
    ],
)
def test_a_card_is_named_and_lettered_in_the_readers_language(
    language: str, corner: str, name: str
) -> None:
    with translation.override(language):
        drawn = draw("QH")
    assert f'<span class="rank">{corner}</span>' in drawn
    assert f'aria-label="{name}"' in drawn
    assert 'data-card="QH"' in drawn  # the code is the rules' own in every language


def test_the_greek_clubs_and_spades_are_the_players_words() -> None:
    with translation.override("el"):
        assert 'aria-label="Άσος μπαστούνι"' in draw("AS")
        assert 'aria-label="Δυάρι σπαθί"' in draw("2C")
        assert '<span class="rank">\u03a1</span>' in draw("KD")  # rho: ρήγας
