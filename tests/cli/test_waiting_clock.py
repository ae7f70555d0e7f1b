"""One clock per wait in the ``WAITING`` line (``Waiting.shown``, ``p2p/net/waiting.py``): the
LAN trial froze cy for 60 s; another seat read ``WAITING: cy, no connection (their move), 46 s``
(counted from the link's drop), and right after cy was back ``WAITING: cy (their move), 110 s``
(counted from the turn's start). The line now counts from the table's last entry (the turn's
start) whether the link is up or down, so the number never jumps; the table's patience (ruling
D-5, the removal of a vanished seat) still counts from the drop. A fake clock drives the node."""

from __future__ import annotations

from lancards.cli.i18n import set_language
from lancards.cli.peer_words import waiting_banners
from lancards.cli.session import Banner
from lancards.p2p.net.node import PeerNode
from lancards.p2p.net.transport import Mesh
from tests.p2p.core_harness import SOCKET_CONFIG, make_cores


def _frozen_cyd() -> tuple[PeerNode, bytes, list[float]]:
    """ann's node at a 3-seat Level 8 Master table whose turn is cyd's (cyd plays no more),
    on a fake clock: the turn began at t = 1000 s."""
    cores, net = make_cores(3, "level8-master", seed="freeze")
    cyd, ann = (next(c for c in cores if c.me.nick == nick) for nick in ("cyd", "ann"))
    net.bots.pop(cyd)  # cyd moves no more: the table waits for its move
    net.start()
    net.run()
    assert ann.expected() == (cyd.seat, "action")
    clock = [1000.0]
    node = PeerNode(ann, Mesh(ann.me, SOCKET_CONFIG))
    node._clock = lambda: clock[0]
    node._progress_at = 1000.0  # the last entry: the turn's start
    node.connected = {c.me.public_key for c in cores if c is not ann}
    return node, cyd.me.public_key, clock


def test_the_waiting_line_counts_from_the_turns_start_before_and_after_a_freeze() -> None:
    node, cyd, clock = _frozen_cyd()
    clock[0] = 1050.0  # cyd's link drops 50 s into its turn (frozen)
    node.connected.discard(cyd)
    node.down_since[cyd] = 1050.0
    clock[0] = 1096.0
    frozen = node.waiting()
    assert frozen is not None and (frozen.seconds, frozen.shown) == (46.0, 96.0)  # patience: 46
    clock[0] = 1110.0  # cyd is back: its link up, still silent
    node.connected.add(cyd)
    back = node.waiting()
    assert back is not None and back.shown == 110.0
    assert node.waiting_text() == "waiting for cyd (their move), 110 s"
    said = {}
    for lang in ("en", "de"):
        set_language(lang)
        try:
            said[lang] = [waiting_banners(w, True, 120) for w in (frozen, back)]
        finally:
            set_language("en")
    assert said == {
        "en": [[Banner("waiting", "cyd, no connection (their move), 96 s")],
               [Banner("waiting", "cyd (their move), 110 s")]],
        "de": [[Banner("waiting", "cyd, keine Verbindung (Zug), 96 s")],
               [Banner("waiting", "cyd (Zug), 110 s")]]}


def test_a_peer_back_from_a_sleep_tells_no_return_of_the_others() -> None:
    """The LAN trial froze bob for 60 s (SIGSTOP, a lid closed); after SIGCONT bob's own log
    read "ann is back": the links that dropped while bob slept were his own absence, not
    ann's. After a sleep the links that drop within ``BACK_QUIET_S`` are no one's return."""
    from lancards.p2p.net.sleep_watch import SleepWatch
    from lancards.p2p.net.waiting import BACK_QUIET_S, back_notice

    node, cyd, clock = _frozen_cyd()
    wall = [5000.0]
    node.sleep_watch = SleepWatch(lambda: clock[0], lambda: wall[0])
    node._started_at = 900.0  # run() began long before
    node._after_wait()
    clock[0], wall[0] = 1060.0, 5060.0  # 60 s frozen
    node._after_wait()
    assert node.catching_up
    node._dropped[cyd] = 1061.0  # the link to cyd is found dropped after the wake
    assert back_notice(node.core, cyd, node._dropped, 1065.0, node._told_back, node._back_at,
                       node._started_at) is None
    # A drop long after the wake is a return again.
    later = 1061.0 + BACK_QUIET_S + 30
    node._dropped[cyd] = later
    back = back_notice(node.core, cyd, node._dropped, later + 5, node._told_back,
                       node._back_at, node._started_at)
    assert back is not None and back.text == "cyd is back"
