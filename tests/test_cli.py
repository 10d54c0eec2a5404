"""The command line, driven in-process: exit codes, output, help, and the README."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from pipeline import __version__, cli
from pipeline.cli import app, main
from pipeline.cli_output import counter
from pipeline.rules import ENGINE
from pipeline.run import run_lake
from tests.test_jsonl import GOOD, SAMPLES, mutated

ROOT = Path(__file__).resolve().parent.parent
CROUPIER = str(Path(sys.executable).parent / "croupier")
runner = CliRunner()


def _commands() -> list[str]:
    group = get_command(app)
    return sorted(group.commands)  # type: ignore[attr-defined]


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"croupier {__version__} ({ENGINE})"


@pytest.mark.parametrize("command", _commands())
def test_every_command_has_help_with_an_example_and_a_readme_section(command: str) -> None:
    result = runner.invoke(app, [command, "--help"])
    assert result.exit_code == 0
    assert "Example" in result.stdout
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"### `croupier {command}`" in readme
    assert re.search(rf"^\$ croupier {command} ", readme, re.MULTILINE)


@pytest.mark.parametrize("command", _commands())
def test_bracketed_text_in_help_is_shown_not_taken_for_markup(command: str) -> None:
    # help is rendered as rich markup: an unescaped [dask] would vanish as an unknown tag
    group = get_command(app)
    params = group.commands[command].params  # type: ignore[attr-defined]
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "300"})
    for param in params:
        for word in re.findall(r"\S*\[[^\]\s]+\]\S*", getattr(param, "help", None) or ""):
            if not re.fullmatch(r"\[/?[a-z ]*\]", word):  # a style tag such as [bold]
                assert word.replace("\\[", "[") in result.stdout, (param.name, word)


@pytest.mark.parametrize("command", _commands())
def test_help_paragraphs_are_reflowed_not_broken_where_the_source_wraps(command: str) -> None:
    # a narrow terminal must not show the docstring's own line breaks on top of its wrapping
    group = get_command(app)
    doc = group.commands[command].help  # type: ignore[attr-defined]
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "1000"})
    for paragraph in doc.split("\n\n"):
        text = " ".join(re.sub(r"\[/?[a-z ]*\]", "", paragraph).split())
        assert text in result.stdout


def _write(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def test_convert_is_canonical_and_idempotent(tmp_path: Path) -> None:
    messy = json.dumps(mutated("seats.0.stack", "100.5"), indent=None, separators=(" , ", " : "))
    source = _write(tmp_path / "in.jsonl", [messy.encode()])
    first, second = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert main(["convert", str(source), "--to", "jsonl", "-o", str(first), "-q"]) == 0
    assert main(["convert", str(first), "-o", str(second), "-q"]) == 0
    assert first.read_bytes() == second.read_bytes()
    assert b'"stack":"100.50"' in first.read_bytes()


def test_convert_round_trips_the_samples_byte_for_byte(tmp_path: Path) -> None:
    for sample in SAMPLES:
        once, twice = tmp_path / f"{sample.stem}.1", tmp_path / f"{sample.stem}.2"
        assert main(["convert", str(sample), "-o", str(once), "-q"]) == 0
        assert main(["convert", str(once), "-o", str(twice), "-q"]) == 0
        assert once.read_bytes() == twice.read_bytes()
        hands = [line for line in sample.read_bytes().splitlines() if line.strip()]
        assert once.read_bytes().count(b"\n") == len(hands)


@pytest.mark.parametrize(
    ("fixture", "options"),
    [
        ("pokerstars/mixed-games.txt", ["--input-format", "pokerstars"]),
        ("pokerstars/mixed-games.txt", []),
        ("phh/extensions.phhs", []),
        ("ohh/omaha_run_twice.ohh", []),
    ],
)
def test_convert_of_stdin_reads_its_format_as_a_file_is_read(
    fixture: str, options: list[str], tmp_path: Path
) -> None:
    source = ROOT / "tests" / "fixtures" / fixture
    named = tmp_path / "named.jsonl"
    assert main(["convert", str(source), "-o", str(named), "-q", *options]) == 0
    result = runner.invoke(app, ["convert", "-", "-o", "-", *options], input=source.read_bytes())
    assert result.exit_code == 0, result.stderr
    assert result.stdout_bytes.count(b"\n") > 0
    assert result.stdout_bytes == named.read_bytes()


def test_convert_reports_and_records_rejects_and_goes_on(tmp_path: Path) -> None:
    lines = [
        json.dumps(GOOD).encode(),
        b"{broken",
        json.dumps(mutated("game.variant", "stud")).encode(),
        json.dumps(mutated("hand_id", "G-2")).encode(),
    ]
    source = _write(tmp_path / "in.jsonl", lines)
    out, rejects = tmp_path / "out.jsonl", tmp_path / "rejects.jsonl"
    result = runner.invoke(app, ["convert", str(source), "-o", str(out), "--rejects", str(rejects)])
    assert result.exit_code == 0
    assert "converted 2 hands, rejected 2" in result.stderr
    assert "malformed-json" in result.stderr
    assert "unsupported-game" in result.stderr
    assert [json.loads(line)["hand_id"] for line in out.read_text().splitlines()] == ["G-1", "G-2"]
    recorded = [json.loads(line) for line in rejects.read_text().splitlines()]
    assert [(r["line"], r["code"]) for r in recorded] == [
        (2, "malformed-json"),
        (3, "unsupported-game"),
    ]
    assert recorded[1]["field"] == "$.game.variant"


def test_convert_and_generate_summaries_in_json_say_what_was_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--format json puts one summary object on stdout (and nothing on stderr): the hands
    written and each reject; with -o - (the hands on stdout) it is a usage error."""
    lines = [json.dumps(GOOD).encode(), b"{broken"]
    source = _write(tmp_path / "in.jsonl", lines)
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["convert", str(source), "-o", str(out), "--format", "json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert (summary["hands"], summary["rejected"], summary["to"]) == (1, 1, "jsonl")
    assert [(r["line"], r["code"]) for r in summary["rejects"]] == [(2, "malformed-json")]
    assert result.stderr == ""
    made = tmp_path / "made.jsonl"
    args = ["generate", "-n", "3", "--seed", "4", "-o", str(made), "--format", "json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "hands": 3,
        "seed": 4,
        "faults": 0.0,
        "output": str(made),
    }
    assert len(made.read_bytes().splitlines()) == 3
    for command in (["convert", str(source)], ["generate", "-n", "1"]):
        assert main([*command, "-o", "-", "--format", "json"]) == 2
        assert "-o - writes the hands there" in capsys.readouterr().err


def test_convert_of_a_missing_file_is_one_line_and_exit_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["convert", str(tmp_path / "absent.jsonl"), "-o", str(tmp_path / "out.jsonl")])
    assert code == 3
    err = capsys.readouterr().err
    assert "No such file" in err
    assert "Traceback" not in err
    assert not (tmp_path / "out.jsonl").exists()


def test_unknown_output_format_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["convert", "x.jsonl", "--to", "pdf", "-o", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert "unknown format 'pdf'" in result.stderr


def test_no_arguments_shows_help() -> None:
    assert main([]) == 2


def test_the_main_help_lists_the_exit_codes_the_readme_gives() -> None:
    text = " ".join(runner.invoke(app, ["--help"]).stdout.split())
    for code, meaning in (("0", "done"), ("1", "violations found"), ("2", "usage error")):
        assert f"{code} {meaning}" in text
    assert "3 input or environment error" in text and "130 interrupted" in text


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("5-3", "players N-M needs N <= M, not '5-3'"),
        ("1-4", "players must be between 2 and 10, not '1-4'"),
        ("six", "players must be N or N-M, not 'six'"),
    ],
)
def test_generate_players_errors_say_what_is_wrong(players: str, message: str) -> None:
    result = runner.invoke(app, ["generate", "-n", "1", "-o", "-", "--players", players])
    assert result.exit_code == 2
    assert message in " ".join(result.stderr.split())


@pytest.mark.parametrize(
    "args",
    [
        ["--version"],
        ["check", "--help"],
        ["check", "data/sample", "--format", "json", "--all"],
        ["convert", "data/sample/plo.jsonl", "-o", "-"],
        ["generate", "--hands", "50", "-o", "-"],
    ],
)
def test_a_closed_stdout_ends_any_command_quietly_with_141(args: list[str]) -> None:
    # croupier … | head -1: the reader is gone before the command writes; not exit 1
    # ("violations found"), no traceback, no "Exception ignored" at interpreter exit
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [CROUPIER, *args], stdout=write_end, stderr=subprocess.PIPE, cwd=ROOT, timeout=120
        )
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr.decode()) == (141, "")


def test_boolean_flags_show_no_type_in_help() -> None:
    # `--replace <bool>` reads as if the flag took a value; other types are still shown
    wide = {"COLUMNS": "200"}
    for args in (["--help"], *([command, "--help"] for command in _commands())):
        shown = runner.invoke(app, args, env=wide).stdout
        assert "<bool>" not in shown, args
    shown = runner.invoke(app, ["run", "--help"], env=wide).stdout
    assert re.search(r"--replace\s+Ingest inputs again", shown)
    assert re.search(r"--quiet\s+-q\s+No progress", shown)
    assert re.search(r"--out\s+<path>\s+The lake folder", shown)
    assert re.search(r"--scheduler\s+ADDR\s", shown)
    root = runner.invoke(app, ["--help"], env=wide).stdout
    assert re.search(r"--version\s+Show the version", root)


def test_flags_still_parse_after_their_type_is_hidden_in_help(tmp_path: Path) -> None:
    assert runner.invoke(app, ["--help"]).exit_code == 0  # help shown first, then flags used
    result = runner.invoke(app, ["check", "data/sample/plo.jsonl", "--all", "-q"])
    assert result.exit_code == 0
    assert result.stdout.count("\n") == len(
        [line for line in (ROOT / "data/sample/plo.jsonl").read_text().splitlines() if line]
    )


def test_stats_output_with_the_table_format_writes_csv_not_the_terminal(tmp_path: Path) -> None:
    # as query does: a table written to a file is CSV (before, -o was silently ignored)
    lake = tmp_path / "lake"
    run_lake([str(ROOT / "data" / "sample")], lake, workers=1)
    written = tmp_path / "stats.txt"
    result = runner.invoke(app, ["stats", "--lake", str(lake), "-o", str(written)])
    assert result.exit_code == 0
    assert result.stdout == ""
    csv = runner.invoke(app, ["stats", "--lake", str(lake), "--format", "csv"])
    assert csv.exit_code == 0
    assert written.read_text(encoding="utf-8") == csv.stdout
    assert csv.stdout.startswith("player,")
    nobody = tmp_path / "nobody.csv"
    result = runner.invoke(
        app, ["stats", "--lake", str(lake), "--player", "nobody", "-o", str(nobody)]
    )
    assert result.exit_code == 0
    assert nobody.read_text(encoding="utf-8").splitlines() == [csv.stdout.splitlines()[0]]


def test_explain_input_that_is_stdin_or_not_a_file_says_so_not_no_such_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for given, said in (("-", "standard input"), (str(fifo), "not a regular file")):
        assert main(["explain", "SAMPLE-0001", "--input", given]) == 2
        err = capsys.readouterr().err
        text = " ".join(err.split())
        assert "no such file" not in text, text
        assert said in text, text
        assert given in text, text


@pytest.mark.parametrize("where", ["folder", "missing/rejects.jsonl"])
def test_convert_with_a_rejects_file_it_cannot_write_fails_before_writing_the_output(
    tmp_path: Path, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _write(tmp_path / "in.jsonl", [json.dumps(GOOD).encode(), b"{broken"])
    (tmp_path / "folder").mkdir()
    out = tmp_path / "out.jsonl"
    code = main(["convert", str(source), "-o", str(out), "--rejects", str(tmp_path / where)])
    assert code == 3
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert "--rejects" in err and "Traceback" not in err, err
    assert not out.exists()  # a failed command leaves no output behind


def test_a_file_named_twice_into_a_new_lake_is_not_reported_as_already_ingested(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _write(tmp_path / "in.jsonl", [json.dumps(GOOD).encode()])
    lake = tmp_path / "lake"
    assert main(["run", str(source), str(source), "--out", str(lake), "--workers", "1"]) == 0
    err = " ".join(capsys.readouterr().err.split())
    # the lake was new: nothing was ingested before, one file was named twice
    assert re.search(r"files skipped \(already ingested\) │ 0 │", err), err
    assert re.search(r"files skipped \(named twice, or a copy\) │ 1 │", err), err


def test_run_fail_on_violation_exits_1_when_a_hand_breaks_a_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clean = _write(tmp_path / "clean.jsonl", [json.dumps(GOOD).encode()])
    faulty = tmp_path / "faulty.jsonl"
    assert (
        main(["generate", "--hands", "40", "--faults", "1", "--seed", "3", "-o", str(faulty)]) == 0
    )
    lake = tmp_path / "lake"
    args = ["--out", str(lake), "--workers", "1", "-q", "--fail-on-violation"]
    assert main(["run", str(clean), *args]) == 0  # DESIGN.md: 1 only for violations found
    assert main(["run", str(faulty), *args]) == 1
    assert main(["run", str(faulty), "--out", str(tmp_path / "other"), "-q"]) == 0  # default
    capsys.readouterr()


def test_a_long_commands_progress_names_every_thousandth_hand_only() -> None:
    said: list[str] = []
    count = counter(said.append, "of 2,500 hands")
    for n in range(1, 2501):
        count(n)
    assert said == ["1,000 of 2,500 hands", "2,000 of 2,500 hands"]


def test_generate_check_and_convert_name_their_progress_steps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    said: list[str] = []

    @contextlib.contextmanager
    def steps(doing: str, *, quiet: bool = False) -> Iterator[Callable[[str], None]]:
        yield lambda step: said.append(f"{doing}: {step}")

    monkeypatch.setattr(cli, "steps", steps)
    log = tmp_path / "hands.jsonl"
    assert main(["generate", "--hands", "2000", "--seed", "3", "-o", str(log), "-q"]) == 0
    main(["check", str(log), "-q"])
    assert main(["convert", str(log), "--to", "phh", "-o", str(tmp_path / "h.phhs"), "-q"]) == 0
    assert said == [
        "generating: 1,000 of 2,000 hands",
        "generating: 2,000 of 2,000 hands",
        "checking: 1,000 read",
        "checking: 2,000 read",
        "converting: 1,000 hands",
        "converting: 2,000 hands",
    ]
