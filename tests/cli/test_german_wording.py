"""German wording of a new user's trial (2026-12-06): the host's waiting screen says who waits
impersonally, an 8 is played "mit Nehmen" / "ohne Nehmen", going out is "alle Karten los", the
footer's q is "beenden" (the End key is "Ende"), commands in German quotes „…“, and the help of
``bench``, ``--local``, ``resume`` and ``node`` in German. Exact words."""

from __future__ import annotations

from lancards.cli.i18n import _, ngettext


def test_the_host_waits_impersonally(german) -> None:
    assert _("lancards · your table, waiting for players") == (
        "lancards · dein Tisch, wartet auf Spieler")  # was "warte auf": who waits?
    assert ngettext("waiting for {count} player", "waiting for {count} players", 1).format(
        count=1) == "wartet auf 1 Spieler"
    assert _("play again: waiting for {names} to answer").format(names="ann") == (
        "noch einmal: wartet auf die Antwort von ann")
