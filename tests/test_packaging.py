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


def _build_script() -> object:
    import importlib.util

    spec = importlib.util.spec_from_file_location("citeline_build", REPO / "packaging/build.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_icon_containers_index_their_pngs() -> None:
    import struct

    build = _build_script()
    png = {16: b"\x89PNG-16", 256: b"\x89PNG-256"}
    ico = build.ico(png)  # type: ignore[attr-defined]
    assert struct.unpack("<HHH", ico[:6]) == (0, 1, 2)
    width, _, _, _, _, _, size, offset = struct.unpack("<BBBBHHII", ico[22:38])
    assert width == 0 and ico[offset : offset + size] == png[256]  # 256 px is written as 0
    icns = build.icns({b"ic08": png[256]})  # type: ignore[attr-defined]
    assert icns[:4] == b"icns" and struct.unpack(">I", icns[4:8])[0] == len(icns)
    assert icns[8:12] == b"ic08" and icns[16:] == png[256]


def test_workflow_scripts_pass_shellcheck() -> None:
    import shutil
    import subprocess

    yaml = pytest.importorskip("yaml")
    if not shutil.which("shellcheck"):
        pytest.skip("shellcheck is not installed")
    steps = yaml.safe_load((REPO / ".github/workflows/installers.yml").read_text(encoding="utf-8"))
    for step in steps["jobs"]["build"]["steps"]:
        if "run" in step:
            script = "#!/bin/bash\nset -e\n" + re.sub(r"\$\{\{[^}]*\}\}", "X", step["run"])
            done = subprocess.run(
                ["shellcheck", "-s", "bash", "-"], input=script, capture_output=True, text=True, check=False
            )
            assert done.returncode == 0, f"{step.get('name')}: {done.stdout}"


def test_desktop_entry_is_valid() -> None:
    import shutil
    import subprocess

    if not shutil.which("desktop-file-validate"):
        pytest.skip("desktop-file-utils is not installed")
    entry = REPO / "packaging/linux/citeline.desktop"
    done = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout


def test_every_data_file_of_the_code_ships_in_the_bundle_and_the_wheel() -> None:
    """A data file beside the code (the fitted lines in engine/answer/calibration.json, the style sheet)
    is read at run time: the frozen bundle and a pip install must carry it. The bundle once shipped
    without calibration.json and could not answer at all (found by the smoke test)."""
    import fnmatch
    import subprocess

    import tomllib

    tracked = subprocess.run(
        ["git", "ls-files", "engine", "desktop"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    data = [f for f in tracked if not f.endswith(".py")]
    assert "engine/answer/calibration.json" in data
    spec = (REPO / "packaging" / "citeline.spec").read_text(encoding="utf-8")
    package_data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"
    ]
    for name in data:
        package, rest = name.split("/", 1)
        parts = name.split("/")
        assert f'"{parts[0]}" / ' in spec and all(f'"{p}"' in spec for p in parts), f"{name} not in the spec"
        globs = package_data.get(package, [])
        assert any(fnmatch.fnmatch(rest, g) for g in globs), f"{name} not in the wheel"


def test_an_installer_refuses_a_llama_cpp_compiled_for_avx512() -> None:
    build = _build_script()
    avx2 = "CPU : SSE3 = 1 | AVX = 1 | AVX2 = 1 | F16C = 1 | FMA = 1 | BMI2 = 1 | OPENMP = 1 | REPACK = 1 |"
    avx512 = "CPU : SSE3 = 1 | AVX2 = 1 | AVX512 = 1 | AVX512_VNNI = 1 | OPENMP = 1 |"
    assert not build.non_portable(avx2)  # type: ignore[attr-defined]
    assert build.non_portable(avx512)  # type: ignore[attr-defined]
