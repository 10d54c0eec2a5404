"""The two forms of the hot modules: compiled by Cython, and the pure-Python sources.

Where the package was built with a C compiler (the default: ``make install``), the modules
of :data:`pipeline.compiled.COMPILED` (the rules engine, and the decoding and settlement
around it) run compiled, and every other test exercises that form. The tests here check
that it is the form in use, that it reads, judges, settles and writes hands exactly as the
sources do, that a compiled module not built from its source is refused, and they run the
sources' doctests (which pytest's doctest collector skips when the module is compiled: see
the root ``conftest.py``).
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
import tomllib
from pathlib import Path

import pytest
from msgspec.structs import replace

import pipeline
import pipeline.records
import pipeline.rules
from pipeline import judged_view
from pipeline.compiled import (
    COMPILED,
    RECORD,
    SHARED,
    StaleBuild,
    check_fresh,
    compiled_file,
    module_name,
    refuse_stale,
    source_digests,
    stale_modules,
    stray_modules,
)
from pipeline.formats import jsonl_wire, wire_view
from pipeline.lake import settlement_view
from pipeline.model import Action, HandRecord, Seat
from pipeline.pots import Award
from pipeline.rules import replay
from pipeline.rules.forced import dealt_seats
from tests.handbuilder import BOARD, blinds, board, build, call, raise_to

PACKAGE = Path(pipeline.__file__).resolve().parent
ROOT = PACKAGE.parent
PURE = bool(os.environ.get("CROUPIER_PURE_PYTHON"))
CROUPIER = str(Path(sys.executable).parent / "croupier")
"""The installed console script (what a user runs)."""
COMPILER = shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0])

# Reads generated hands of every game and structure (faults injected, some lines broken)
# from their JSON lines, replays, settles and turns them into the lake's rows, and prints a
# JSON line for each: everything a Replay says, its players' statistic flags, each reject,
# then every row of every table. Run once as installed, once forcing the sources.
DIGEST = r"""
import importlib.abc, importlib.util, json, sys
from pathlib import Path

PACKAGE = Path(sys.argv[1])
MODULES = {"pipeline." + name.replace("/", "."): name for name in sys.argv[3].split(",")}
if sys.argv[2] == "source":

    class FromSource(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path, target=None):
            name = MODULES.get(fullname)
            if name is None:
                return None
            return importlib.util.spec_from_file_location(fullname, PACKAGE / f"{name}.py")

    sys.meta_path.insert(0, FromSource())

from pipeline.formats.jsonl import decode_line, encode_hand
from pipeline.generate.play import GameChoice, generate_hands
from pipeline.lake.rows import ChunkRows
from pipeline.rules import replay
from pipeline.rules.stats import hand_positions, seat_flags
from pipeline.settle import settle_many
from pipeline.violations import Reject

print(json.dumps({"files": [sys.modules[name].__file__ for name in sorted(MODULES)]}))
rows = ChunkRows("digest")
for seed, players in ((11, (2, 3)), (12, (5, 10))):
    choice = GameChoice(min_players=players[0], max_players=players[1])
    judged = []
    for n, hand in enumerate(generate_hands(300, seed=seed, choice=choice, faults=0.3)):
        line = encode_hand(hand)
        if n % 50 == 7:  # an amount no reader takes
            line = line.replace(b'"stack":"', b'"stack":"-', 1)
        elif n % 50 == 13:  # cut short
            line = line[: len(line) // 2]
        item = decode_line(line, "digest.jsonl", n + 1, complete=n % 2 == 0)
        if isinstance(item, Reject):
            rows.add_reject(item)
            print(json.dumps({"reject": [str(item.code), item.field, item.message]}))
            continue
        r = replay(item)
        judged.append((item, r))
        print(json.dumps({
            "hand": item.hand_id,
            "status": str(r.status),
            "violations": [
                [str(v.code), v.seq, v.seat, v.expected, v.actual, v.rule, v.message]
                for v in r.violations
            ],
            "steps": [[str(x) if hasattr(x, "value") else x for x in s.values()[:12]] + [
                [str(c) for c in s.codes]] for s in r.steps],
            "chips": [r.seats, r.invested, r.dead, r.antes, r.stacks, r.folded, r.all_in],
            "boards": r.boards,
            "hole": sorted(r.hole_cards.items()),
            "uncalled": r.uncalled,
            "end": [str(r.street), r.showdown],
            "flags": seat_flags(r, hand_positions(item, r.seats)),
        }, default=str))
    settled = settle_many([r for _, r in judged])
    for (hand, r), s in zip(judged, settled, strict=True):
        rows.add_hand(hand, r, s)
for name, table in rows.tables().items():
    for row in table.to_pylist():
        print(json.dumps({name: row}, default=str, sort_keys=True))
"""


def _digest(form: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", DIGEST, str(PACKAGE), form, ",".join(COMPILED)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return done.stdout.splitlines()


def test_every_c_types_file_belongs_to_a_compiled_module() -> None:
    # the engine's modules share C types: each has its .pxd; the others need none, but for
    # the one that fills NumPy arrays (lake/columns), the ones that gather a hand's rows
    # (lake/rows, and lake/action_rows for the actions'), settlement's dicts and lists and
    # the pots' levels, the decoder's loops over characters and integers, and the views of
    # the hand's records they all read, of the JSON Lines wire structs the decoder reads,
    # and of the judged hand's structs that settlement and the rows read
    types = {p.relative_to(PACKAGE).with_suffix("").as_posix() for p in PACKAGE.rglob("*.pxd")}
    assert types <= set(COMPILED)
    others = {"lake/columns", "lake/rows", "lake/action_rows", "settle", "pots", "reconcile"}
    others.add("records")
    others |= {"formats/jsonl", "formats/limits", "formats/wire_view"}
    others |= {"judged_view", "lake/settlement_view"}
    assert types - others == {name for name in COMPILED if name.startswith("rules/")}
    # and a wheel built from the sources carries every one (a module compiled without its
    # .pxd would build, untyped, and run slower without a word)
    data = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    packaged = data["tool"]["setuptools"]["package-data"]["pipeline"]
    folders = {name.rpartition("/")[0] for name in types}  # "": the package's own folder
    assert {f"{folder}/*.pxd" if folder else "*.pxd" for folder in folders} <= set(packaged)
    assert all((PACKAGE / f"{name}.py").exists() for name in COMPILED)
    assert len(set(COMPILED)) == len(COMPILED)


@pytest.mark.skipif(PURE, reason="CROUPIER_PURE_PYTHON is set: the package is pure Python")
@pytest.mark.skipif(COMPILER is None, reason="no C compiler here: the package is pure Python")
def test_the_hot_modules_run_compiled_where_they_were_built() -> None:
    # make install compiles them; a silent fallback to the sources would show here
    assert pipeline.rules.ENGINE == "compiled"
    for name in COMPILED:
        module = importlib.import_module(module_name(name))
        assert module.__file__ is not None
        assert not module.__file__.endswith(".py"), module.__file__


@pytest.mark.skipif(pipeline.rules.ENGINE != "compiled", reason="nothing compiled to compare")
def test_compiled_and_source_forms_read_judge_settle_and_write_every_hand_alike() -> None:
    compiled, source = _digest("compiled"), _digest("source")
    assert not any(f.endswith(".py") for f in json.loads(compiled[0])["files"])
    assert all(f.endswith(".py") for f in json.loads(source[0])["files"])
    assert len(compiled) == len(source)
    lines = [json.loads(line) for line in compiled[1:]]
    statuses = {line["status"] for line in lines if "status" in line}
    assert {"ok", "violations"} <= statuses  # faults were injected and judged
    assert sum("reject" in line for line in lines) == 24  # 2 broken lines in 50, 600 hands
    tables = {next(iter(line)) for line in lines if "hand" not in line and "reject" not in line}
    assert tables == {"hands", "seats", "actions", "pots", "awards", "violations", "rejects"}
    for ours, theirs in zip(compiled[1:], source[1:], strict=True):
        assert ours == theirs


def test_a_compiled_module_not_built_from_its_source_is_refused(tmp_path: Path) -> None:
    _fake_build(tmp_path)
    (tmp_path / "rules" / "betting.pxd").write_text("cdef object x\n")
    assert stale_modules(tmp_path) == [RECORD]  # compiled, but nothing says from what
    (tmp_path / RECORD).write_text(json.dumps(source_digests(tmp_path)))
    assert stale_modules(tmp_path) == []
    check_fresh(tmp_path)
    os.utime(tmp_path / "settle.py", (1, 1))  # file times do not matter (installers set them)
    assert stale_modules(tmp_path) == []
    (tmp_path / "rules" / "betting.pxd").write_text("cdef object x, y\n")  # C types changed
    (tmp_path / "formats" / "jsonl.py").write_text("x = 2\n")
    assert stale_modules(tmp_path) == ["rules/betting.pxd", "formats/jsonl.py"]
    with pytest.raises(StaleBuild, match=r"not built from rules/betting\.pxd, formats/jsonl\.py"):
        check_fresh(tmp_path)
    # the records' layout, which the compiled modules read (records.pxd), is a source too
    (tmp_path / "model.py").write_text("x = 1\n")
    (tmp_path / RECORD).write_text(json.dumps(source_digests(tmp_path)))
    check_fresh(tmp_path)
    (tmp_path / "model.py").write_text("x = 2\n")
    assert stale_modules(tmp_path) == ["model.py"]


def test_a_stale_build_refuses_to_load_its_compiled_modules_only(tmp_path: Path) -> None:
    package = tmp_path / "fakepkg"
    _fake_build(package)
    (package / "__init__.py").write_text("")
    (package / "plain.py").write_text("x = 1\n")
    assert refuse_stale(package, "fakepkg") is not None  # no record of what was compiled
    finder = sys.meta_path[0]
    sys.path.insert(0, str(tmp_path))
    try:
        with pytest.raises(StaleBuild, match="make install"):
            importlib.import_module("fakepkg.settle")
        with pytest.raises(StaleBuild):
            importlib.import_module("fakepkg.rules.state")
        assert importlib.import_module("fakepkg.plain").x == 1  # the package itself loads
    finally:
        sys.meta_path.remove(finder)
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.split(".")[0] == "fakepkg"]:
            del sys.modules[name]
    (package / RECORD).write_text(json.dumps(source_digests(package)))
    assert refuse_stale(package, "fakepkg") is None
    assert finder not in sys.meta_path


def test_a_module_compiled_by_another_version_of_the_list_is_refused(tmp_path: Path) -> None:
    # a build made at a commit that compiled more modules, then a checkout of this one: the
    # compiled file would be imported before its source, running code no source says
    package = tmp_path / "fakepkg"
    _fake_build(package)
    (package / RECORD).write_text(json.dumps(source_digests(package)))
    (package / "__init__.py").write_text("")
    (package / "formats" / "ohh.py").write_text("x = 1\n")
    assert stray_modules(package) == []
    check_fresh(package)
    (package / "formats" / f"ohh{_suffix()}").write_bytes(b"")
    assert stray_modules(package) == ["formats/ohh"]
    with pytest.raises(StaleBuild, match=r"compiled modules this version does not compile"):
        check_fresh(package)
    assert refuse_stale(package, "fakepkg") is not None
    finder = sys.meta_path[0]
    sys.path.insert(0, str(tmp_path))
    try:
        with pytest.raises(StaleBuild, match=r"formats/ohh"):
            importlib.import_module("fakepkg.formats.ohh")
    finally:
        sys.meta_path.remove(finder)
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.split(".")[0] == "fakepkg"]:
            del sys.modules[name]


def test_the_installed_build_matches_its_record() -> None:
    if pipeline.rules.ENGINE == "compiled":
        recorded = json.loads((PACKAGE / RECORD).read_text())
        assert recorded == source_digests(PACKAGE)
        pxd = sum(1 for name in COMPILED if (PACKAGE / f"{name}.pxd").exists())
        assert len(recorded) == len(COMPILED) + pxd + len(SHARED)
        assert "model.py" in recorded  # the records' layout, which the compiled view reads


def test_a_missing_record_is_an_error_in_either_form() -> None:
    # compiled, a field of a record typed by its view is read from memory: a None there
    # must raise as Python does (the nonecheck directive), never read address zero
    with pytest.raises(AttributeError, match="'NoneType' object has no attribute 'seats'"):
        dealt_seats(None, [])  # type: ignore[arg-type]


def test_the_compiled_view_of_the_records_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    # the view of every record reads each of its fields from its place
    assert pipeline.records.layout_problems() == []

    # a view that reads two fields swapped, or one field short, is caught and named
    def swapped(a: Action) -> tuple[object, ...]:
        return (a.amount, a.all_in, a.blind, a.burn, a.cards, a.run, a.seat, a.to, a.type)

    def short(s: Seat) -> tuple[object, ...]:
        return (s.bounty, s.player, s.seat, s.sitting_out)

    views = dict(pipeline.records._VIEWS)
    views[Action], views[Seat] = swapped, short
    monkeypatch.setattr(pipeline.records, "_VIEWS", tuple(views.items()))
    problems = pipeline.records.layout_problems()
    assert problems == [
        "Action: the view reads 9 fields of 9, and the wrong value for all_in, amount",
        "Seat: the view reads 4 fields of 5, and the wrong value for none",
    ]


def test_the_compiled_view_of_the_wire_structs_is_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the JSON Lines reader's view of every wire struct reads each field from its place
    assert wire_view.layout_problems() == []
    assert "formats/jsonl_wire.py" in SHARED  # an edit to the structs makes the build stale

    def swapped(w: jsonl_wire.CallW) -> tuple[object, ...]:
        return (w.amount, w.all_in, w.seat)

    views = dict(wire_view._VIEWS)
    views[jsonl_wire.CallW] = swapped
    monkeypatch.setattr(wire_view, "_VIEWS", tuple(views.items()))
    assert wire_view.layout_problems() == [
        "CallW: the view reads 3 fields of 3, and the wrong value for all_in, amount"
    ]


def test_the_compiled_view_of_the_judged_structs_is_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the settlement's and the rows' view of the replay, pots and awards reads each field
    # from its place, and so does the rows' view of the settlement
    assert judged_view.layout_problems() == []

    def swapped(a: Award) -> tuple[object, ...]:
        return (a.cards_used, a.amount, a.description, a.half, a.pot, a.rules, a.runout)

    views = dict(judged_view._VIEWS)
    views[Award] = swapped
    monkeypatch.setattr(judged_view, "_VIEWS", tuple(views.items()))
    assert judged_view.layout_problems() == [
        "Award: the view reads 7 fields of 8, and the wrong value for amount, cards_used"
    ]
    assert settlement_view.layout_problems() == []  # the settlement's, apart: settle defines it


def test_sources_without_a_build_are_never_stale(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "state.py").write_text("")
    assert compiled_file("rules/state", tmp_path) is None
    assert stale_modules(tmp_path) == []


@pytest.mark.parametrize(
    "name", [n for n in COMPILED if ">>>" in (PACKAGE / f"{n}.py").read_text()]
)
def test_doctests_of_the_compiled_sources(name: str) -> None:
    unique = "_source_" + name.replace("/", "_")
    spec = importlib.util.spec_from_file_location(unique, PACKAGE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    failed, attempted = doctest.testmod(module, verbose=False)
    assert attempted > 0
    assert failed == 0


def _fake_build(root: Path, compiled: tuple[str, ...] = COMPILED) -> None:
    """Write a source for every module, and an empty compiled file for each of ``compiled``
    (by default all of them: a whole, fake, build)."""
    for name in COMPILED:
        source = root / f"{name}.py"
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(f"x = {name!r}\n")
    for name in compiled:
        (root / f"{name}{_suffix()}").write_bytes(b"")


def _suffix() -> str:
    import importlib.machinery

    return importlib.machinery.EXTENSION_SUFFIXES[0]


def test_the_command_line_says_a_stale_build_in_one_line() -> None:
    # as if the engine had been edited since it was compiled: exit 3, no traceback
    code = (
        "import importlib.abc, sys\n"
        "from pipeline.compiled import StaleBuild\n"
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


def test_the_command_line_keeps_numpys_blas_to_one_thread() -> None:
    # set before NumPy loads, so that its OpenBLAS starts no spinning threads; a value the
    # user set is kept
    code = (
        "import os, sys\n"
        "from pipeline import entry\n"
        "assert 'numpy' not in sys.modules\n"
        "entry.main()\n"
        "import numpy\n"
        "print(os.environ['OPENBLAS_NUM_THREADS'], 'numpy' in sys.modules)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    for given, expected in ((None, "1 True"), ("2", "2 True")):
        if given is not None:
            env["OPENBLAS_NUM_THREADS"] = given
        done = subprocess.run(
            [sys.executable, "-c", code, "--version"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[-1] == expected


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


def test_a_partly_compiled_build_is_refused(tmp_path: Path) -> None:
    _fake_build(tmp_path, compiled=("rules/state",))  # one module compiled, not the rest
    with pytest.raises(StaleBuild, match=r"incomplete \(records, rules/context, .* not"):
        check_fresh(tmp_path)
