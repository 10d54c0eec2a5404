"""The HTML audit report: one self-contained file that headless Chromium renders cleanly."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.formats.jsonl import write_jsonl
from pipeline.generate import generate_hands
from pipeline.reports.audit import audit
from pipeline.reports.audit_render import render_html
from pipeline.run import run_lake
from tests.test_reports_audit import START, _walk

runner = CliRunner()
HOSTILE = '<script>alert("x")</script>'
SECTIONS = (
    "summary",
    "hands-by-status",
    "fairness-of-the-deal",
    "violations-by-month",
    "violations-by-code",
    "payout-mismatches",
    "players-seated-twice",
    "continuity-button-moves",
)
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The HTML report of a lake with faults, a fair deal, and a player named like a tag."""
    root = tmp_path_factory.mktemp("audit-html")
    with (root / "gen.jsonl").open("wb") as out:
        write_jsonl(generate_hands(600, seed=5, faults=0.2), out)
    odd = _walk(
        "ODD-1",
        START,
        3,
        {1: (HOSTILE, 5000), 2: ("Dee & Co", 5000), 3: (HOSTILE, 5000)},
        table='Ash "&" <Oak>',
    )
    (root / "odd.jsonl").write_text(json.dumps(odd) + "\n", encoding="utf-8")
    run_lake([str(root / "gen.jsonl"), str(root / "odd.jsonl")], root / "lake", workers=1)
    page = root / "audit.html"
    result = runner.invoke(app, ["audit", "--lake", str(root / "lake"), "--html", str(page)])
    assert result.exit_code == 0, result.output
    return page


def test_the_page_is_self_contained_and_escapes_log_text(report: Path) -> None:
    text = report.read_text(encoding="utf-8")
    assert text == render_html(audit(report.parent / "lake"))
    lowered = text.lower()
    for external in ("<script", "src=", "href=", "url(", "@import", "<link", "<iframe"):
        assert external not in lowered, external
    # the only URL is the SVG namespace, which is a name, never fetched
    assert set(re.findall(r"https?://[^\"' ]+", text)) == {"http://www.w3.org/2000/svg"}
    assert HOSTILE not in text
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in text
    assert "Ash &quot;&amp;&quot; &lt;Oak&gt;" in text
    for section in SECTIONS:
        assert f'<section id="{section}">' in text


def test_html_dash_is_the_page_on_stdout_alone(report: Path, tmp_path: Path) -> None:
    lake = str(report.parent / "lake")
    result = runner.invoke(app, ["audit", "--lake", lake, "--html", "-"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert result.stdout == report.read_text(encoding="utf-8")  # the page, and no table
    assert not Path("-").exists()
    markdown = tmp_path / "audit.md"
    result = runner.invoke(app, ["audit", "--lake", lake, "--html", "-", "-o", str(markdown)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("<!DOCTYPE html>") or result.stdout.startswith("<!doctype")
    assert markdown.read_text(encoding="utf-8").startswith("#")


def test_format_html_is_the_page_too(report: Path, tmp_path: Path) -> None:
    lake = str(report.parent / "lake")
    result = runner.invoke(app, ["audit", "--lake", lake, "--format", "html"])
    assert result.exit_code == 0, result.output
    assert result.stdout == report.read_text(encoding="utf-8")
    page = tmp_path / "page.html"
    result = runner.invoke(app, ["audit", "--lake", lake, "--format", "html", "-o", str(page)])
    assert result.exit_code == 0
    assert page.read_text(encoding="utf-8") == report.read_text(encoding="utf-8")


@pytest.mark.parametrize("extra", [["--format", "json"], ["-o", "-"]])
def test_html_dash_and_another_report_on_stdout_is_refused(report: Path, extra: list[str]) -> None:
    lake = str(report.parent / "lake")
    result = runner.invoke(app, ["audit", "--lake", lake, "--html", "-", *extra])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "would both go to standard output" in result.stderr
    assert not Path("-").exists()


def test_html_and_o_naming_one_file_is_refused(report: Path, tmp_path: Path) -> None:
    lake = str(report.parent / "lake")
    page = tmp_path / "audit.html"
    page.write_text("kept", encoding="utf-8")
    (tmp_path / "link.html").symlink_to(page)
    for other in (page, tmp_path / "." / "audit.html", tmp_path / "link.html"):
        result = runner.invoke(
            app, ["audit", "--lake", lake, "--html", str(page), "-o", str(other)]
        )
        assert result.exit_code == 2, result.output
        assert "both name" in result.stderr
        assert page.read_text(encoding="utf-8") == "kept"  # nothing written


def _browser() -> str:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip(
        "no Chromium on PATH (looked for " + ", ".join(BROWSERS) + "); "
        ".ci/run installs the chromium package where it runs as root with apt-get"
    )


def test_chromium_renders_the_page_without_errors(report: Path, tmp_path: Path) -> None:
    browser = _browser()
    done = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--enable-logging=stderr",
            "--v=0",
            "--dump-dom",
            report.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    assert "<title>Croupier audit</title>" in dom
    for section in SECTIONS:
        assert f'id="{section}"' in dom, section
    assert dom.count("<svg") >= 5  # heat maps per hole-card position and deck, month bars
    assert dom.count("<rect") >= 4 * 52
    assert "<script" not in dom.lower()
    assert "consistent with a fair deal" in dom
    console = [line for line in done.stderr.splitlines() if "CONSOLE" in line]
    assert console == []
    assert "Uncaught" not in done.stderr
    assert "net::ERR" not in done.stderr
