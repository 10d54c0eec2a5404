"""Coverage-guided fuzzing of the readers with atheris (libFuzzer), outside pytest.

Each ``fuzz_<format>.py`` script calls :func:`run` with its format. Inputs go through the
same checks as ``tests/test_fuzz_readers.py`` (only hands and rejects, within a time
limit, every hand accounted for) and then through replay, settlement and the lake's
rows; any exception is a crash, saved by libFuzzer under ``-artifact_prefix``. The seed
files (corpus, samples, fixtures) are copied into a temporary folder that starts the
fuzzer's corpus; libFuzzer's own flags pass through::

    .venv/bin/python fuzz/fuzz_jsonl.py -max_total_time=300 -artifact_prefix=/tmp/crash-

Needs ``atheris`` (``pip install -e '.[fuzz]'``).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import atheris  # type: ignore[import-untyped]  # noqa: E402

with atheris.instrument_imports(include=["pipeline"]):
    import pipeline.check
    import pipeline.formats
    import pipeline.lake.rows
    import pipeline.settle  # noqa: F401

from tests.strategies import seed_files  # noqa: E402
from tests.test_fuzz_readers import read_checked, through_the_lake  # noqa: E402


def run(fmt: str) -> None:
    """Fuzz the reader of ``fmt`` until libFuzzer stops (``-max_total_time``, a crash)."""

    def one_input(data: bytes) -> None:
        through_the_lake(read_checked(fmt, data))

    with tempfile.TemporaryDirectory(prefix=f"croupier-fuzz-{fmt}-") as folder:
        for i, path in enumerate(seed_files(fmt)):
            (Path(folder) / f"seed-{i}{path.suffix}").write_bytes(path.read_bytes())
        args = [*sys.argv, "-max_len=65536", "-timeout=20", folder]
        atheris.Setup(args, one_input)
        atheris.Fuzz()
