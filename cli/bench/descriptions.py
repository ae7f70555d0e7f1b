"""The longer description ``lancards bench TARGET --help`` prints for each target.

A target module's docstring is for developers (markup, classes, issues); its ``--help`` says in
plain words what is measured and names the JSON figures, through the catalogue like every
player-facing string (``_(DESCRIPTION[name])`` in :mod:`lancards.cli.bench.command`).
"""

from __future__ import annotations

from lancards.cli.i18n import N_

__all__ = ["DESCRIPTION"]

DESCRIPTION: dict[str, str] = {
    "engine": N_(
        "Bots play whole games against each other in this process, on one core: games and "
        "actions per second for each rule set (games_per_s, actions_per_s), then the time of "
        "legal_actions for random Level 8 Master hands of 11 cards with two jokers (median_ms, "
        "p95_ms, max_ms). Medians over the repeats; one JSON line per measurement."),
    "deck": N_(
        "Every peer's part of the mental-poker deck, N peers in this one process, in CPU time: "
        "one shuffle with its proof (prove_ms), checking one proof (verify_ms), the whole "
        "shuffle phase (shuffle_cpu_s) and its critical path when each peer has a processor of "
        "its own (critical_path_s, pipelined; critical_path_unpipelined_s, in turn), one peer's "
        "share of dealing 10 cards to every seat (deal_cpu_per_peer_s) and one private draw "
        "(draw_cpu_ms). Medians over the runs; one JSON line per configuration (peers x "
        "cards)."),
    "net": N_(
        "Every peer in a process of its own on 127.0.0.1, playing whole games with bots: the "
        "time to deal (deal_s), the time from a move to every peer having verified it "
        "(move_median_ms, move_p95_ms) and the bytes each peer hands to its links (wire_bytes, "
        "per record entry and per move). With --observers, observers watch the game as well. "
        "One JSON line per peer count."),
    "play": N_(
        "What a person waits for at lancards play, on the same networked table with the "
        "player's seat on autoplay: from Enter to the dealt hand (dealt_s) and from a round's "
        "last move to the next dealt hand (next_round_s); with --waits, from the player's move "
        "to their next turn while the bots play at their pace (wait_mean_s, wait_p95_s). "
        "Wall-clock seconds, medians over the runs; one JSON line per player count."),
    "resume": N_(
        "A whole game is played in this process, then the resume of one seat is timed from its "
        "journal cut at several lengths: reading the journal (read_s), verifying every entry "
        "again (replay_s), taking in what the others played meanwhile (catch_up_s) and the sum "
        "(current_s), with and without a checkpoint. With --process-fractions every seat runs "
        "as a lancards node process and the resumed one is timed from its start to being "
        "current (process_to_current_s)."),
    "leave": N_(
        "N peers in this process play a few moves, then the seat to move leaves for good: the "
        "size of the entry that carries the leave (entry_bytes), the leaver's CPU to make it "
        "(make_ms), one other peer's CPU to check it (accept_ms) and the time until the next "
        "player can move (critical_path_ms, serial_ms). With --escrow, the cost of the option "
        "rescue at the start instead; with --rescue, a seat vanishes and the others vote it "
        "out. Medians over the runs; one JSON line per configuration."),
}
"""One paragraph per target: what it measures and the figures it prints."""
