"""The long-rounds campaign's seed layouts (``tests/bot_campaign.py``): the block layout that
extends a campaign must never replay a seed of the plain layout, of another mix or of another
rule set, or the games it counts would not be 10,000 different games."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot_campaign import GAMES, block_jobs, jobs


def _seeds(job: tuple[str, int, str, int, int]) -> range:
    return range(job[4], job[4] + job[3])


@pytest.mark.parametrize("with_hard", [False, True])
def test_block_layout_is_disjoint_from_the_plain_one_and_itself(with_hard: bool) -> None:
    used: dict[int, tuple[str, int, str]] = {}
    for game in GAMES:
        for players in (3, 4, 5):
            plain = jobs(game, players, 10_000, with_hard)
            blocks = block_jobs(game, players, 10_000, 25, with_hard)
            for job in plain + blocks:
                for seed in _seeds(job):
                    assert seed not in used, (job, used[seed])
                    used[seed] = job[:3]
            # every mix gets its full share, in blocks of at most 25
            per_mix: dict[str, int] = {}
            for job in blocks:
                assert 1 <= job[3] <= 25
                per_mix[job[2]] = per_mix.get(job[2], 0) + job[3]
            assert set(per_mix) == {job[2] for job in plain}
            assert set(per_mix.values()) == {plain[0][3]}


def test_blocks_are_interleaved_over_the_mixes() -> None:
    blocks = block_jobs("level8", 5, 9_500, 10, with_hard=True)
    # 35 mixes, 272 games each: 28 blocks a mix, the last of 2 games
    assert len(blocks) == 35 * 28
    assert [job[2] for job in blocks[:35]] == [job[2] for job in blocks[35:70]]
    assert len({job[2] for job in blocks[:35]}) == 35
    assert blocks[0][4] == 5_000_000 + 100_000 + 50_000 + 20_000
    assert blocks[35][4] == blocks[0][4] + 10
    assert [job[3] for job in blocks[-35:]] == [2] * 35


def test_a_plan_over_a_mix_share_of_seeds_is_refused() -> None:
    with pytest.raises(ValueError, match="2801 games a mix"):
        block_jobs("level8", 3, 28_010, 10, with_hard=True)
    with pytest.raises(ValueError, match="block must be at least 1"):
        block_jobs("level8", 3, 100, 0)


def test_from_job_skips_the_first_jobs_of_the_plan(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import tests.bot_campaign as campaign

    played: list[tuple[str, int, str, int, int]] = []
    monkeypatch.setattr(campaign, "play", lambda job, out: played.append(job))
    campaign.main(["--out", str(tmp_path), "--jobs", "1", "--with-hard", "--block", "10",
                   "--plan", "level8:3:9500", "--from-job", "604"])
    everything = block_jobs("level8", 3, 9500, 10, with_hard=True)
    assert len(everything) == 950
    assert played == everything[604:]
    # the seeds are those of a 10,000-game plan's first 950 jobs: a lost folder's
    # 604 jobs and these 346 make 95 blocks of every mix
    assert everything == block_jobs("level8", 3, 10_000, 10, with_hard=True)[:950]
    assert played[0][2] == everything[4][2] and played[0][4] == everything[4][4] + 600
