"""The stateless rules API and the score-helper page."""

from __future__ import annotations

import pytest

from rules import games, gesoseka, kontsina, vanilla_gwent

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", ["gesoseka", "kontsina", "vanilla_gwent"])
def test_score_helper_answers_its_documented_example(api, game: str) -> None:
    helper = games.SCORE_HELPERS[game]
    response = api.post(f"/api/v1/rules/{game}/score/", dict(helper.example_request), format="json")
    assert response.status_code == 200
    assert response.json() == dict(helper.example_response)


def test_gesoseka_score_is_the_engines_score(api) -> None:
    board = {"fields": [{"groups": [{"kind": "series", "cards": ["8H", "8C", "8D"]}]}, {}]}
    response = api.post("/api/v1/rules/gesoseka/score/", board, format="json")
    assert response.json()["points"] == [80, 0]  # three 8s: 8 x 10
    assert gesoseka.score_board(gesoseka.board_from_dict(board)).points == (80, 0)


@pytest.mark.parametrize(
    ("game", "body", "code"),
    [
        ("gesoseka", {"fields": [{"cards": ["ZZ"]}, {}]}, "gesoseka.unknown_card"),
        ("gesoseka", {"fields": [{"cards": ["7H", "7H"]}, {}]}, "gesoseka.duplicate_card"),
        (
            "gesoseka",
            {"fields": [{"groups": [{"kind": "series", "cards": ["8H", "9C"]}]}, {}]},
            "gesoseka.not_a_series",
        ),
        ("kontsina", {"piles": [["2C"]]}, "kontsina.two_piles"),
        ("vanilla_gwent", {"events": [{"player": 0, "action": "play", "card": "JK"}]}, None),
        ("generic", {}, "games.no_score_helper"),
        ("chess", {}, "games.unknown_game"),
        ("gesoseka", ["not", "an", "object"], "result.shape"),
    ],
)
def test_bad_boards_get_a_400_naming_the_rule(api, game, body, code) -> None:
    response = api.post(f"/api/v1/rules/{game}/score/", body, format="json")
    assert response.status_code == 400
    if code:
        assert response.json()["code"] == code
    assert response.json()["detail"]


def test_vanilla_gwent_joker_with_no_unit_is_refused(api) -> None:
    body = {"events": [{"player": 0, "action": "play", "card": "JK", "target": "5C"}]}
    response = api.post("/api/v1/rules/vanilla_gwent/score/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"].startswith("vanilla_gwent.")
    assert response.json()["where"] == "event 1"


def test_outcome_endpoint_reads_game_rounds(api) -> None:
    body = {"games": [{"rounds": [[40, 30], [35, 20]]}]}
    data = api.post("/api/v1/rules/gesoseka/outcome/", body, format="json").json()
    assert data["games"][0]["winner"] == 0 and data["games"][0]["decided"] is True
    assert data["match"]["finished"] is True and data["match"]["winner"] == 0
    too_many = {"games": [{"rounds": [[1, 2], [2, 1], [3, 3], [4, 1]]}]}
    response = api.post("/api/v1/rules/gesoseka/outcome/", too_many, format="json")
    assert response.status_code == 400 and response.json()["code"].startswith("gesoseka.")
    kontsina_round = {"games": [{"rounds": [[6, 0]]}], "kontsina_rounds": 1}
    response = api.post("/api/v1/rules/kontsina/outcome/", kontsina_round, format="json")
    assert response.json()["code"] == "kontsina.round_points"


def test_outcome_of_a_game_still_going_on_says_another_round_may_be_recorded(api) -> None:
    body = {"games": [{"rounds": [[30, 30]], "alignments": ["might", None]}]}
    data = api.post("/api/v1/rules/vanilla_gwent/outcome/", body, format="json").json()
    assert data["games"][0]["round_winners"] == [[0]]  # Might alone wins the tie
    assert data["games"][0]["can_add_round"] is True and data["match"]["finished"] is False


def test_rules_schema_documents_the_examples(api) -> None:
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/v1/rules/{game}/score/"]["post"]
    examples = operation["requestBody"]["content"]["application/json"]["examples"]
    assert len(examples) == 3


def test_score_helper_page_scores_a_gesoseka_field(client) -> None:
    assert client.get("/score/").status_code == 200
    response = client.post(
        "/score/gesoseka/",
        {
            "board-deck": "french32",
            "board-decks": 1,
            "p1-cards": "10S+1",
            "p1-groups": "series: 8H 8C 8D",
            "p2-placed": "KD",
        },
    )
    assert response.status_code == 200
    text = response.content.decode()
    # The King of diamonds placed in player 2's field scores 20 for them and doubles every
    # group with a diamond for everyone else: player 1's three 8s, 80 x 2, plus 10S+1.
    assert "Score: 171 \N{EN DASH} 20" in text


def test_score_helper_page_shows_the_rule_that_failed(client) -> None:
    response = client.post(
        "/score/gesoseka/",
        {"board-deck": "french32", "board-decks": 1, "p1-groups": "series: 8H 9C"},
    )
    assert response.status_code == 200
    assert "player 1, group 1" in response.content.decode()


def test_score_helper_page_scores_kontsina_piles(client) -> None:
    piles = kontsina.EXAMPLE_PILES["piles"]
    response = client.post(
        "/score/kontsina/",
        {"pile_a": " ".join(piles[0]), "pile_b": " ".join(piles[1]), "layout": "KS 3D 5H 9C"},
    )
    expected = kontsina.EXAMPLE_SCORE["points"]
    assert f"Score: {expected[0]} \N{EN DASH} {expected[1]}" in response.content.decode()


def test_vanilla_gwent_module_is_registered() -> None:
    assert games.rules_for("vanilla_gwent").outcome is vanilla_gwent.game_outcome
