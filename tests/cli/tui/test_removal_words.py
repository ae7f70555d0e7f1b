"""A removal by vote as people read it (issue 25, item 8): the question wraps at 80 columns
instead of being cut, the "your vote is signed" line goes once nobody is waited for, and the
result marks who left and who was removed, saying why a game ended early."""

from __future__ import annotations

import dataclasses

import pytest

from lancards.cli.i18n import _
from lancards.cli.session import Banner, TableSnapshot
from lancards.cli.tui.results import final_lines
from lancards.cli.tui.width import text_width
from lancards.engine.core import Outcome
from tests.cli.tui.harness import driven
from tests.p2p.test_rescue_screen import AskingSession, _session

pytestmark = pytest.mark.timeout(60)

QUESTION = ("remove Cyd? (y/n) Cyd has not answered for the table's patience; every other "
            "player must agree, then the game goes on without them")


class Waiting(AskingSession):
    """Also waits for Cyd (the networked session's ``extra["waiting"]``) until told not."""

    waiting = True

    def snapshot(self) -> TableSnapshot:
        snap = super().snapshot()
        banners = tuple(Banner(b.kind, QUESTION) if b.text.startswith("remove ") else b
                        for b in snap.banners)
        extra = {**snap.extra, **({"waiting": "waiting for Cyd"} if self.waiting else {})}
        return dataclasses.replace(snap, banners=banners, extra=extra)


def test_the_vote_question_wraps_whole_and_the_signed_line_goes_when_done() -> None:
    base = _session()
    session = Waiting("level8-master", names=base.names, state=base.state, bot_delay=60)
    session.votes, session.declined = [], []
    with driven(session, 80, 24) as d:
        screen = d.text()
        assert all(text_width(line) <= 80 for line in screen.splitlines())
        assert "then the game goes on without them" in " ".join(screen.split()), screen
        screen = d.press("y")
        assert session.votes == [2] and "your vote is signed" in screen
        session.waiting = False
        session._changed()
        d.settle()
        assert "your vote is signed" not in d.text()


def test_the_result_marks_leavers_and_the_removed_and_says_why_it_ended_early() -> None:
    names = ("Ann", "Ben", "Cyd")
    # the places as the engine ranks them: the later leaver higher (ruling D-2)
    level8 = Outcome((0,), (4, 3, 2), {"rounds": 5, "places": [1, 2, 3], "left": [2, 1]})
    lines = final_lines(level8, names, "level8", removed=(2,))
    assert lines == ["result: Ann wins after 5 rounds", "Ann: level 4",
                     "Ben: level 3 (left the table)", "Cyd: level 2 (removed by vote)",
                     "the game ended early: after Cyd and Ben went, too few players were "
                     "left to play on"]
    eights = Outcome((1,), (40, 10, 90), {"rounds": 3, "left": [2], "tie_break": "none"})
    lines = final_lines(eights, names, "eights")
    assert lines[3] == "Cyd: left the table" and "ended early" in lines[-1]  # not its 90
    normal = Outcome((0,), (9, 3, 2), {"rounds": 9, "left": [2]})
    assert "ended early" not in final_lines(normal, names, "level8")[-1]


def test_the_result_lists_the_players_by_their_final_places() -> None:
    """The winner (8s Rule!: the lowest total) first, a seat that left last whatever its
    total; equal places in seat order. In seat order a person who left read their own
    ``You: 0 points`` first."""
    names = ("You", "Ada", "Bram", "Cleo")
    eights = Outcome((2,), (0, 170, 150, 170), {"rounds": 8, "left": [0], "tie_break": "none",
                                                 "places": [4, 2, 1, 2]})
    assert final_lines(eights, names, "eights") == [
        "result: Bram wins with the lowest total", "Bram: 150 points", "Ada: 170 points",
        "Cleo: 170 points", "You: left the table"]  # not "You: 0 points": it read as the lowest
    level8 = Outcome((3,), (2, 5, 5, 9), {"rounds": 7, "left": [], "places": [4, 2, 2, 1]})
    assert final_lines(level8, names, "level8") == [
        "result: Cleo wins after 7 rounds", "Cleo: WIN", "Ada: level 5", "Bram: level 5",
        "You: level 2"]


def test_the_log_and_the_banner_say_removed_by_vote_not_left() -> None:
    from types import SimpleNamespace

    from lancards.cli.net_session import NetworkSession, removed_seats
    from lancards.cli.saved_log import SavedLog

    def entry(author: int, payload: dict[str, object]) -> SimpleNamespace:
        return SimpleNamespace(author=author, payload=payload)

    entries = [entry(0, {"t": "rescue", "seat": 2, "votes": [{}, {}]}),
               entry(1, {"t": "rescue", "seat": 2, "votes": []}),
               entry(1, {"t": "leave", "seat": 1})]
    core = SimpleNamespace(record=SimpleNamespace(entries=entries), state=SimpleNamespace(),
                           seat_of=lambda author: author, left_seats=lambda: (2, 1),
                           was_removed=lambda seat: any(  # as GameCore's: a rescue about it
                               e.payload.get("t") == "rescue" and e.payload.get("seat") == seat
                               for e in entries))
    assert removed_seats(core) == (2,)  # type: ignore[arg-type]
    fake = SimpleNamespace(core=core, names=("Ann", "Ben", "Cyd"), seat=0, _log=[],
                           _logged=0, node=SimpleNamespace(notices=[]), _saved=SavedLog(None),
                           game=None)
    NetworkSession._update_log(fake)  # type: ignore[arg-type]
    assert [line.text for line in fake._log] == [
        "Cyd was removed from the table by the others' votes (no answer for the table's "
        "patience)", "Ben left the table"]


def test_the_vote_question_wraps_at_a_space_continued_indented_never_mid_word() -> None:
    """The banner wrapped by characters (prompt-toolkit's ``wrap_lines``): at 80 columns
    "remove cyd? ... every" ended at the 80th column and the next row went on unindented
    (the persona suite's rescue evening); with "Cyd" the first row ends "every" too, so the
    check is on the continuation row: indented, and every word whole."""
    base = _session()
    session = Waiting("level8-master", names=base.names, state=base.state, bot_delay=60)
    session.votes, session.declined = [], []
    with driven(session, 80, 24) as d:
        rows = d.text().splitlines()
        at = next(i for i, row in enumerate(rows) if "remove Cyd?" in row)
        first, second = rows[at].rstrip(), rows[at + 1].rstrip()
        assert text_width(first) <= 80
        assert second.startswith("   "), rows[at:at + 2]  # the continuation indent
        joined = first.split("WAITING: ", 1)[1] + " " + second.strip()
        assert joined == QUESTION, joined


def test_the_german_leave_mark_fits_du(german) -> None:
    """The trial of 2026-12-06 read "Du: 40 Punkte (hat den Tisch verlassen)", which needs
    "hast" after Du: the mark is a participle like the log's, whoever left; the players panel
    says the same words."""
    from types import SimpleNamespace

    from lancards.cli.tui.controller import gone_words

    names = ("Du", "Ada", "Bram")
    eights = Outcome((1,), (40, 10, 90), {"rounds": 3, "left": [0], "tie_break": "none",
                                           "places": [3, 1, 2]})
    assert final_lines(eights, names, "eights")[1:4] == [
        "Ada: 10 Punkte", "Bram: 90 Punkte", "Du: vom Tisch gegangen"]
    game = SimpleNamespace(left_seats=lambda view: (0, 2))
    snap = SimpleNamespace(extra={"removed": (2,)}, game=game, view=None)
    assert gone_words(snap) == {0: "vom Tisch gegangen", 2: "per Abstimmung entfernt"}


def test_the_german_question_says_j_n_and_j_votes(german) -> None:
    """The LAN trial's German table asked "(y/n)" and ignored j: it says "(j/n)" and j (ja)
    votes, y still too; in English j is no answer."""
    from lancards.cli.removal_words import REMOVE_QUESTION
    from lancards.cli.tui.leaving import yes_keys

    assert _(REMOVE_QUESTION).format(name="Cyd").startswith("Cyd entfernen? (j/n) Cyd hat ")
    assert yes_keys() == ("y", "Y", "j", "J")
    session = _session()
    with driven(session, 80, 24) as d:
        d.press("j")
        assert session.votes == [2]
        session.offer = 2
        session._cached = None
        d.press("y")
        assert session.votes == [2, 2]


def test_in_english_j_answers_nothing() -> None:
    session = _session()
    with driven(session, 80, 24) as d:
        d.press("j")
        assert session.votes == [] and session.declined == []
