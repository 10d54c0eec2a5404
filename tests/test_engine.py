"""The rules engine's two forms: compiled by Cython, and the pure-Python sources.

Where the package was built with a C compiler (the default: ``make install``), the engine
modules run compiled, and every other test exercises that form. The tests here check that
it is the form in use, that it judges hands exactly as the sources do, that a compiled
module older than its source is refused, and they run the sources' doctests (which pytest's
doctest collector skips when the module is compiled: see the root ``conftest.py``).
"""

from __future__ import annotations

import doctest
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from msgspec.structs import replace

import pipeline.rules
from pipeline.model import HandRecord
from pipeline.rules import replay
from pipeline.rules.engine import (
    COMPILED,
    RECORD,
    StaleBuild,
    check_fresh,
    compiled_file,
    source_digests,
    stale_modules,
)
from tests.handbuilder import BOARD, blinds, board, build, call, raise_to

RULES = Path(pipeline.rules.__file__).resolve().parent
ROOT = RULES.parents[1]
PURE = bool(os.environ.get("CROUPIER_PURE_PYTHON"))
CROUPIER = str(Path(sys.executable).parent / "croupier")
"""The installed console script (what a user runs)."""
COMPILER = shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0])

# Replays generated hands of every game and structure, faults included, and prints one JSON
# line per hand: everything a Replay says, and its players' statistic flags. Run once as
# installed, once forcing the sources.
DIGEST = r"""
import importlib.abc, importlib.util, json, sys
from pathlib import Path

RULES = Path(sys.argv[1])
if sys.argv[2] == "source":
    names = sys.argv[3].split(",")

    class FromSource(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path, target=None):
            short = fullname.rpartition(".")[2]
            if fullname.startswith("pipeline.rules.") and short in names:
                return importlib.util.spec_from_file_location(fullname, RULES / f"{short}.py")
            return None

    sys.meta_path.insert(0, FromSource())

from pipeline.generate.play import GameChoice, generate_hands
from pipeline.lake.rows import hand_positions
from pipeline.rules import replay
from pipeline.rules.stats import seat_flags

print(json.dumps({"module": sys.modules["pipeline.rules.replay"].__file__}))
for seed, players in ((11, (2, 3)), (12, (5, 10))):
    choice = GameChoice(min_players=players[0], max_players=players[1])
    for hand in generate_hands(300, seed=seed, choice=choice, faults=0.3):
        r = replay(hand)
        print(json.dumps({
            "hand": hand.hand_id,
            "status": str(r.status),
            "violations": [
                [str(v.code), v.seq, v.seat, v.expected, v.actual, v.rule, v.message]
                for v in r.violations
            ],
            "steps": [[str(x) if hasattr(x, "value") else x for x in s[:12]] + [
                [str(c) for c in s.codes]] for s in r.steps],
            "chips": [r.seats, r.invested, r.dead, r.antes, r.stacks, r.folded, r.all_in],
            "boards": r.boards,
            "hole": sorted(r.hole_cards.items()),
            "uncalled": r.uncalled,
            "end": [str(r.street), r.showdown],
            "flags": seat_flags(r, hand_positions(hand, r.seats)),
        }, default=str))
"""


def _digest(form: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", DIGEST, str(RULES), form, ",".join(COMPILED)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return done.stdout.splitlines()


def test_every_compiled_module_has_its_c_types_and_nothing_else_does() -> None:
    assert sorted(p.stem for p in RULES.glob("*.pxd")) == sorted(COMPILED)
    assert all((RULES / f"{name}.py").exists() for name in COMPILED)


@pytest.mark.skipif(PURE, reason="CROUPIER_PURE_PYTHON is set: the engine is pure Python")
@pytest.mark.skipif(COMPILER is None, reason="no C compiler here: the engine is pure Python")
def test_the_engine_runs_compiled_where_it_was_built() -> None:
    # make install compiles it; a silent fallback to the sources would show here
    assert pipeline.rules.ENGINE == "compiled"
    for name in COMPILED:
        module = sys.modules[f"pipeline.rules.{name}"]
        assert module.__file__ is not None
        assert not module.__file__.endswith(".py"), module.__file__


@pytest.mark.skipif(pipeline.rules.ENGINE != "compiled", reason="nothing compiled to compare")
def test_compiled_and_source_engines_judge_every_hand_alike() -> None:
    compiled, source = _digest("compiled"), _digest("source")
    assert not json.loads(compiled[0])["module"].endswith(".py")
    assert json.loads(source[0])["module"].endswith("replay.py")
    assert len(compiled) == len(source) == 601
    statuses = {json.loads(line)["status"] for line in compiled[1:]}
    assert {"ok", "violations"} <= statuses  # faults were injected and judged
    for ours, theirs in zip(compiled[1:], source[1:], strict=True):
        assert ours == theirs


def test_a_compiled_module_not_built_from_its_source_is_refused(tmp_path: Path) -> None:
    for name in COMPILED:  # a whole (fake) build
        (tmp_path / f"{name}.py").write_text(f"x = {name!r}\n")
        (tmp_path / f"{name}{_suffix()}").write_bytes(b"")
    (tmp_path / "betting.pxd").write_text("cdef object x\n")
    assert stale_modules(tmp_path) == [RECORD]  # compiled, but nothing says from what
    (tmp_path / RECORD).write_text(json.dumps(source_digests(tmp_path)))
    assert stale_modules(tmp_path) == []
    check_fresh(tmp_path)
    os.utime(tmp_path / "betting.py", (1, 1))  # file times do not matter (installers set them)
    assert stale_modules(tmp_path) == []
    (tmp_path / "betting.pxd").write_text("cdef object x, y\n")  # the C types changed
    assert stale_modules(tmp_path) == ["betting.pxd"]
    with pytest.raises(StaleBuild, match=r"not built from betting\.pxd.*make install"):
        check_fresh(tmp_path)


def test_the_installed_engine_matches_its_record() -> None:
    if pipeline.rules.ENGINE == "compiled":
        recorded = json.loads((RULES / RECORD).read_text())
        assert recorded == source_digests(RULES)
        assert len(recorded) == 2 * len(COMPILED)


def test_sources_without_a_build_are_never_stale(tmp_path: Path) -> None:
    (tmp_path / "state.py").write_text("")
    assert compiled_file("state", tmp_path) is None
    assert stale_modules(tmp_path) == []


@pytest.mark.parametrize("name", [n for n in COMPILED if ">>>" in (RULES / f"{n}.py").read_text()])
def test_doctests_of_the_engine_sources(name: str) -> None:
    spec = importlib.util.spec_from_file_location(f"_source_{name}", RULES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    failed, attempted = doctest.testmod(module, verbose=False)
    assert attempted > 0
    assert failed == 0


def _suffix() -> str:
    import importlib.machinery

    return importlib.machinery.EXTENSION_SUFFIXES[0]


def test_the_command_line_says_a_stale_build_in_one_line() -> None:
    # as if the engine had been edited since it was compiled: exit 3, no traceback
    code = (
        "import importlib.abc, sys\n"
        "from pipeline.rules.engine import StaleBuild\n"
        "class Stale(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name == 'pipeline.cli':\n"
        "            raise StaleBuild('the compiled rules engine is older than betting.py')\n"
        "sys.meta_path.insert(0, Stale())\n"
        "from pipeline.entry import main\n"
        "raise SystemExit(main())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "--version"], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 3
    assert done.stderr == "croupier: the compiled rules engine is older than betting.py\n"
    assert done.stdout == ""


@pytest.mark.parametrize(
    ("args", "code"),
    [(["--version"], 0), (["check", "data/sample/hilo.jsonl"], 0), (["nonsense"], 2)],
)
def test_the_console_script_exits_with_the_commands_code(args: list[str], code: int) -> None:
    done = subprocess.run(
        [CROUPIER, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == code, done.stderr


def test_the_console_script_exits_1_on_violations(tmp_path: Path) -> None:
    hands = tmp_path / "faults.jsonl"
    generate = ["generate", "--hands", "50", "--faults", "1", "--seed", "1", "-o", str(hands)]
    made = subprocess.run([CROUPIER, *generate], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    done = subprocess.run([CROUPIER, "check", str(hands)], capture_output=True, text=True)
    assert done.returncode == 1, done.stdout[-500:]


def _scaled(hand: HandRecord, factor: int) -> HandRecord:
    """Return ``hand`` with every amount multiplied (past what a reader would let through)."""
    game = replace(
        hand.game,
        small_blind=hand.game.small_blind * factor,
        big_blind=hand.game.big_blind * factor,
    )
    seats = tuple(replace(s, stack=s.stack * factor) for s in hand.seats)
    actions = tuple(
        replace(
            a,
            amount=None if a.amount is None else a.amount * factor,
            to=None if a.to is None else a.to * factor,
        )
        for a in hand.actions
    )
    return replace(hand, game=game, seats=seats, actions=actions)


@pytest.mark.skipif(pipeline.rules.ENGINE != "compiled", reason="pure Python holds any int")
@pytest.mark.parametrize("factor", [10**17, 2**62 // 10_000])
def test_amounts_beyond_64_bits_are_refused_not_wrapped(factor: int) -> None:
    # 10**17 per cent: a stack does not fit in 64 bits; 2**62 // 10,000: each stack fits,
    # the pot of three does not: C arithmetic must raise, not wrap around
    hand = build(
        [
            *blinds(),
            raise_to(3, "100.00", all_in=True),
            call(1, "99.50", all_in=True),
            call(2, "99.00", all_in=True),
            *[board(cards) for cards in BOARD],
        ],
        betting="no-limit",
    )
    assert not replay(hand).errors
    with pytest.raises(ValueError, match=r"2\*\*63 units or more"):
        replay(_scaled(hand, factor))


def test_a_partly_compiled_engine_is_refused(tmp_path: Path) -> None:
    for name in COMPILED:
        (tmp_path / f"{name}.py").write_text("")
    (tmp_path / f"state{_suffix()}").write_bytes(b"")  # one module compiled, the others not
    with pytest.raises(StaleBuild, match=r"incomplete \(context, betting, .* not compiled\)"):
        check_fresh(tmp_path)
