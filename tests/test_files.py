"""Files written whole or not at all, readable as any new file is."""

from __future__ import annotations

import hashlib
import os
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.files import replaced, sha256_of
from pipeline.run import run_lake
from tests.test_lake import SAMPLES


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    yield
    os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_file_gets_the_umasks_permissions_not_0600(tmp_path: Path, umask_022: None) -> None:
    with replaced(tmp_path / "out.jsonl") as out:
        out.write(b"x\n")
    assert (tmp_path / "out.jsonl").read_bytes() == b"x\n"
    assert _mode(tmp_path / "out.jsonl") == 0o644
    run_lake([str(SAMPLES)], tmp_path / "lake", workers=1)
    assert _mode(tmp_path / "lake" / "_manifest.json") == 0o644


def test_a_failed_write_leaves_the_target_and_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    target.write_bytes(b"before\n")

    def write_half() -> None:
        with replaced(target) as out:
            out.write(b"half")
            raise RuntimeError("stopped")

    with pytest.raises(RuntimeError):
        write_half()
    assert target.read_bytes() == b"before\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl"]


def test_errors_name_the_target_not_the_temporary_file(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    with pytest.raises(IsADirectoryError) as error, replaced(tmp_path / "folder") as out:
        out.write(b"x")
    assert error.value.filename == str(tmp_path / "folder")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]
    with pytest.raises(FileNotFoundError) as missing, replaced(tmp_path / "no" / "x") as out:
        out.write(b"x")
    assert missing.value.filename == str(tmp_path / "no" / "x")


def test_generate_into_a_folder_is_one_line_and_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad").mkdir()
    assert main(["generate", "-n", "3", "-o", str(tmp_path / "bad"), "-q"]) == 3
    assert capsys.readouterr().err.strip() == f"error: Is a directory: {tmp_path / 'bad'}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad"]


def test_an_error_of_the_block_about_another_file_keeps_its_name(tmp_path: Path) -> None:
    def read_a_missing_input() -> None:
        with replaced(tmp_path / "out.jsonl"):
            (tmp_path / "missing.jsonl").read_bytes()

    with pytest.raises(FileNotFoundError) as error:
        read_a_missing_input()
    assert error.value.filename == str(tmp_path / "missing.jsonl")
    assert list(tmp_path.iterdir()) == []


def test_a_link_stays_a_link_and_the_file_it_points_to_keeps_its_permissions(
    tmp_path: Path,
) -> None:
    real = tmp_path / "real.jsonl"
    real.write_bytes(b"old\n")
    real.chmod(0o640)
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    with replaced(link) as out:
        out.write(b"new\n")
    assert link.is_symlink() and real.read_bytes() == b"new\n"
    assert _mode(real) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.jsonl", "real.jsonl"]


def test_what_is_not_a_regular_file_is_written_to_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    with replaced(fifo) as out:
        out.write(b"hands\n")
    reader.join(timeout=10)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)  # not a regular file put in its place
    assert got == [b"hands\n"]


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="no /proc/self/fd here")
def test_a_descriptor_s_name_is_appended_to_not_replaced_nor_truncated(tmp_path: Path) -> None:
    """``-o /dev/stdout`` with stdout redirected to a file (``>> log``): the file keeps what
    it held, and what is written follows it."""
    log = tmp_path / "log.txt"
    log.write_bytes(b"HEADER\n")
    fd = os.open(log, os.O_WRONLY | os.O_APPEND)
    try:
        with replaced(f"/proc/self/fd/{fd}") as out:
            out.write(b"hands\n")
    finally:
        os.close(fd)
    assert log.read_bytes() == b"HEADER\nhands\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.txt"]


def test_a_loop_of_links_is_open_s_error_and_stays_a_link(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.symlink_to(b)
    b.symlink_to(a)
    with pytest.raises(OSError, match="symbolic links") as error, replaced(a) as out:
        out.write(b"x")
    assert error.value.filename == str(a)
    assert a.is_symlink() and b.is_symlink()


def test_sha256_of_a_file_or_of_its_first_bytes(tmp_path: Path) -> None:
    data = bytes(range(256)) * 9000  # more than one 1 MiB block
    (tmp_path / "f").write_bytes(data)
    assert sha256_of(tmp_path / "f") == (hashlib.sha256(data).hexdigest(), len(data))
    for limit in (0, 1, 1 << 20, (1 << 20) + 7, len(data), len(data) + 5):
        head = data[:limit]
        assert sha256_of(tmp_path / "f", limit) == (hashlib.sha256(head).hexdigest(), len(head))
