"""Installer recipes that cannot be built here are at least well-formed and agree with the build script."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import __version__

REPO = Path(__file__).resolve().parents[1]


def test_installer_workflow_is_valid_and_covers_three_systems() -> None:
    yaml = pytest.importorskip("yaml")
    workflow = yaml.safe_load((REPO / ".github/workflows/installers.yml").read_text(encoding="utf-8"))
    job = workflow["jobs"]["build"]
    assert set(job["strategy"]["matrix"]["os"]) == {"ubuntu-22.04", "windows-latest", "macos-14"}
    runs = "\n".join(step.get("run", "") for step in job["steps"])
    for command in ("build.py bundle", "build.py deb", "build.py windows", "build.py dmg", "build.py smoke"):
        assert command in runs
    assert all("uses" in step or "run" in step for step in job["steps"])


def test_inno_setup_script_names_the_installer_like_the_build_script() -> None:
    iss = (REPO / "packaging/windows/citeline.iss").read_text(encoding="utf-8")
    build = (REPO / "packaging/build.py").read_text(encoding="utf-8")
    assert "OutputBaseFilename=citeline{#Variant}-{#AppVersion}-windows-x64-setup" in iss
    assert '-windows-x64-setup.exe"' in build
    assert re.search(r"^\[Icons\]", iss, re.M) and "{uninstallexe}" in iss


def test_one_version_number() -> None:
    control = (REPO / "packaging/linux/control.in").read_text(encoding="utf-8")
    assert "Version: {version}" in control
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)
