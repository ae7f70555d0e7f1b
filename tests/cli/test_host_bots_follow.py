"""A host's ``--bots`` seats follow their host's "no" to playing again (``HostGone.said_no``,
``RemoteAgain.follow_host``): they live in the host's process and close with it. Before, each
said yes at the game's end and, once the host said no, yes again to going on without the host,
so the other players read that the bots wanted another game while the table was closing. Since
the games night the bots answer once every person at the table answered (they follow the
game the people chose, ``play_again.follow_answer``)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from lancards.cli.lobby.host_bots import HostGone
from lancards.cli.play_again import again_status
from lancards.cli.remote_again import RemoteAgain
from lancards.p2p.protocol.rematch import Finished, Rematch
from lancards.p2p.protocol.table import Outgoing, start_local
from tests.p2p.core_harness import identities


class Table:
    """Every seat's agreement at the end of one game, their messages delivered at once (as
    the links would); the host's bot seats are :class:`RemoteAgain` bots whose link is this."""

    def __init__(self, gone: HostGone) -> None:
        self.people = identities(4)  # the host, its bots (seats 2 and 3), a person who joined
        table = start_local(self.people, "level8-master", {}, table="00000000000000cc",
                            bots={p.public_key: "normal" for p in self.people[1:3]})
        done = Finished(table, "cd" * 32, (0,), (0, 10, 20, 30), 0)
        self.rematches = {p.public_key: Rematch(p, done) for p in self.people}
        self.bots: dict[bytes, RemoteAgain] = {}
        self.queue: list[tuple[bytes, Outgoing]] = []
        self.busy = False
        for bot in self.people[1:3]:
            again = RemoteAgain.__new__(RemoteAgain)
            again.rematch = self.rematches[bot.public_key]
            again.bot, again.host_said_no = True, lambda: gone.declined
            again.link = SimpleNamespace(answer=lambda yes, game=None, r=again.rematch: self.send(
                r, r.answer(yes, game)), send=lambda outs, r=again.rematch: self.send(r, outs))
            again.node = SimpleNamespace(store=None, next_table=lambda table: None)
            again.folder = None
            again._save = lambda *args: None  # type: ignore[method-assign]  # no folders here
            again._changed, again._told, again._saved = None, False, set()
            self.bots[bot.public_key] = again
            gone.followers.append(again.follow_host)
        for again in self.bots.values():
            again._on_change()  # as the constructor does: a bot answers once the people did

    def send(self, sender: Rematch, outs: list[Outgoing]) -> None:
        """Deliver in the order sent, as links do (a bot's answer made while a message is
        delivered goes after what its seat sent before: answers are passed on, 6.1)."""
        self.queue += [(sender.me.public_key, out) for out in outs]
        if self.busy:
            return
        self.busy = True
        while self.queue:
            key, out = self.queue.pop(0)
            for to in out.to:
                got = self.rematches[to].receive_bytes(key, out.envelope.encode())
                self.queue += [(to, o) for o in got]
                if to in self.bots:
                    self.bots[to]._on_change()  # the link tells it of every change
        self.busy = False

    def answers(self, seat: int) -> dict[str, Any]:
        """What ``seat`` holds of every player's answer: nick -> yes, or None."""
        r = self.rematches[self.people[seat].public_key]
        return {p.nick: (r.answers[p.public_key][0].yes if p.public_key in r.answers else None)
                for p in self.people}


def test_the_hosts_bots_say_no_with_their_host() -> None:
    gone = HostGone()
    table = Table(gone)
    host, ada, bram, person = (p.nick for p in table.people)
    assert table.answers(3) == {host: None, ada: None, bram: None, person: None}
    table.send(table.rematches[table.people[3].public_key],
               table.rematches[table.people[3].public_key].answer(True))
    assert table.answers(3) == {host: None, ada: None, bram: None, person: True}  # the host?
    gone.said_no()  # the host's person pressed q at the game-over panel
    hosts = table.rematches[table.people[0].public_key]
    table.send(hosts, hosts.answer(False))
    # the person who joined reads that the host and its bots will not play again: none of
    # them says yes (nor yes to going on without the host)
    assert table.answers(3) == {host: False, ada: False, bram: False, person: True}
    joined = table.rematches[table.people[3].public_key]
    assert sorted(joined.nick(k) for k in joined.declined()) == sorted([host, ada, bram])
    status = again_status(joined)  # what the joined person's game-over panel says
    assert sorted(status["declined"]) == sorted([host, ada, bram]) and status["waiting"] == []


def test_a_bot_that_hears_its_hosts_no_first_says_no_too() -> None:
    """The host's "no" may reach a bot's link before ``said_no`` was called (a resumed host):
    the bot answers no, never yes without the host."""
    gone = HostGone()
    table = Table(gone)
    gone.declined = True  # said, the followers not called yet
    hosts = table.rematches[table.people[0].public_key]
    table.send(hosts, hosts.answer(False))
    assert table.answers(3)[table.people[1].nick] is False
    assert table.answers(3)[table.people[2].nick] is False


def test_the_bots_say_yes_again_without_a_person_who_declined() -> None:
    """Following the host is no more than that: a joined person's "no" leaves the bots going
    on without them, as before (once the host answered: the bots follow the people's game,
    ``follow_answer``)."""
    gone = HostGone()
    table = Table(gone)
    joined = table.rematches[table.people[3].public_key]
    table.send(joined, joined.answer(False))
    hosts = table.rematches[table.people[0].public_key]
    table.send(hosts, hosts.answer(True))  # the host goes on without them: its bots too
    bots = [table.rematches[p.public_key].answers[p.public_key][0] for p in table.people[1:3]]
    assert [(a.yes, list(a.without)) for a in bots] == [
        (True, [table.people[3].public_key.hex()])] * 2


def test_the_host_tables_no_tells_its_bots_first() -> None:
    """``q`` at the host's game-over panel (``SeriesMixin.play_again(False)``) calls
    ``said_no`` before its own answer leaves."""
    from lancards.cli.session_series import SeriesMixin

    order: list[str] = []
    session = SeriesMixin.__new__(SeriesMixin)
    session.again = SimpleNamespace(answer=lambda yes: order.append(f"answer {yes}"))
    session.said_no = lambda: order.append("bots follow")
    session._changed = lambda: None  # type: ignore[method-assign]
    session.play_again(False)
    session.play_again(True)
    assert order == ["bots follow", "answer False", "answer True"]
