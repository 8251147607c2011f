#!/usr/bin/env python3
"""Build Citeline's installers and smoke-test them. Standard library only; run it with the project venv
(`pip install -e '.[desktop,local,claude,packaging]'` and models prepared by `python bootstrap.py setup`).

    python packaging/build.py bundle [--full]   PyInstaller one-folder build -> build/dist/citeline
    python packaging/build.py deb               -> dist/citeline_<version>_amd64.deb       (Linux)
    python packaging/build.py appimage          AppDir, and the .AppImage if appimagetool is on PATH
    python packaging/build.py smoke             unpack the .deb into a temp root; CLI self-test; window
                                                under Xvfb with a screenshot -> artifacts/
    python packaging/build.py smoke --installed DIR   the same against an installed folder / .app (CI)
    python packaging/build.py windows           Inno Setup -> dist/citeline-<version>-windows-x64-setup.exe
    python packaging/build.py dmg               dmgbuild   -> dist/Citeline-<version>-macos-<arch>.dmg
    python packaging/build.py all [--full]      bundle, deb, appimage, smoke

One version number: engine.__version__, read from engine/__init__.py, names every installer.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import platform
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build"
BUNDLE = BUILD / "dist" / "citeline"
REPORT = BUILD / "dist" / "bundle-report.json"
DIST = ROOT / "dist"
ARTIFACTS = ROOT / "artifacts"
LINUX = ROOT / "packaging" / "linux"
ICONS = BUILD / "icons"
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512, 1024)
FORBIDDEN = ("torch", "transformers", "sentence_transformers", "pyarrow", "pandas", "scipy", "sklearn")
EXE = ".exe" if sys.platform == "win32" else ""


def say(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


def run(cmd: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    say("$ " + " ".join(str(c) for c in cmd))
    done = subprocess.run(cmd, text=True, check=False, **kw)  # type: ignore[call-overload]
    if done.returncode != 0:
        sys.exit(f"[build] failed ({done.returncode}): {' '.join(str(c) for c in cmd)}")
    return done  # type: ignore[no-any-return]


def version() -> str:
    text = (ROOT / "engine" / "__init__.py").read_text(encoding="utf-8")
    found = re.search(r'^__version__ = "([^"]+)"', text, re.M)
    if not found:
        sys.exit("[build] no __version__ in engine/__init__.py")
    return found.group(1)


def variant() -> str:
    return json.loads(REPORT.read_text())["variant"] if REPORT.is_file() else "standard"


def suffix() -> str:
    return "-full" if variant() == "full" else ""


def du(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


# -- icons ------------------------------------------------------------------------------------------
RENDER = """
import sys
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer
app = QGuiApplication([])
svg, out = QSvgRenderer(sys.argv[1]), sys.argv[2]
for size in map(int, sys.argv[3:]):
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    svg.render(painter)
    painter.end()
    assert image.save(f"{out}/citeline-{size}.png"), size
"""


def icons() -> None:
    """PNGs rendered from assets/icons/citeline.svg by Qt (no extra tools), then .ico and .icns."""
    ICONS.mkdir(parents=True, exist_ok=True)
    svg = ROOT / "assets" / "icons" / "citeline.svg"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    run([sys.executable, "-c", RENDER, str(svg), str(ICONS), *map(str, ICON_SIZES)], env=env)
    png = {s: (ICONS / f"citeline-{s}.png").read_bytes() for s in ICON_SIZES}
    shutil.copyfile(svg, ICONS / "citeline.svg")
    shutil.copyfile(ICONS / "citeline-512.png", ICONS / "citeline.png")
    (ICONS / "citeline.ico").write_bytes(ico({s: png[s] for s in (16, 24, 32, 48, 64, 128, 256)}))
    kinds = {16: b"icp4", 32: b"icp5", 64: b"icp6", 128: b"ic07", 256: b"ic08", 512: b"ic09", 1024: b"ic10"}
    (ICONS / "citeline.icns").write_bytes(icns({kinds[s]: png[s] for s in kinds}))
    say(f"icons in {ICONS}")


def ico(images: dict[int, bytes]) -> bytes:
    """A Windows .ico whose entries are PNGs (supported since Vista)."""
    head = struct.pack("<HHH", 0, 1, len(images))
    offset, entries, blobs = 6 + 16 * len(images), b"", b""
    for size, data in images.items():
        side = 0 if size >= 256 else size
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(data), offset + len(blobs))
        blobs += data
    return head + entries + blobs


def icns(images: dict[bytes, bytes]) -> bytes:
    """A macOS .icns whose entries are PNGs."""
    body = b"".join(kind + struct.pack(">I", len(data) + 8) + data for kind, data in images.items())
    return b"icns" + struct.pack(">I", len(body) + 8) + body


# -- bundle -----------------------------------------------------------------------------------------
def bundle(full: bool) -> None:
    probe = subprocess.run([sys.executable, "-c", "import PyInstaller"], capture_output=True, check=False)
    if probe.returncode != 0:
        sys.exit("[build] PyInstaller is missing: pip install -e '.[packaging]' (with this venv's pip)")
    check_portable_llama()
    icons()
    started = time.monotonic()
    env = dict(os.environ, CITELINE_BUNDLE_VARIANT="full" if full else "standard")
    run(
        [
            sys.executable,
            "-m",
            "PyInstaller",
            "--noconfirm",
            "--clean",
            "--log-level",
            "WARN",
            "--distpath",
            str(BUILD / "dist"),
            "--workpath",
            str(BUILD / "pyinstaller"),
            str(ROOT / "packaging" / "citeline.spec"),
        ],
        env=env,
        cwd=ROOT,
    )
    seconds = time.monotonic() - started
    check_no_forbidden(BUNDLE)
    report = size_report(BUNDLE, seconds, "full" if full else "standard")
    REPORT.write_text(json.dumps(report, indent=2))
    say(f"bundle {BUNDLE}: {mb(report['bytes'])} ({report['variant']}) in {seconds:.0f} s")
    for name, size in report["largest"][:12]:
        say(f"  {mb(size):>9}  {name}")


def check_portable_llama() -> None:
    """An installer runs on other CPUs: its llama.cpp must not need AVX-512 (bootstrap.py compiles for the
    set-up machine's CPU unless CITELINE_PORTABLE_BUILD=1)."""
    probe = "import llama_cpp; print(llama_cpp.llama_print_system_info().decode())"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.exit(f"[build] llama_cpp does not load in this venv: {result.stderr.strip()[-500:]}")
    if non_portable(result.stdout):
        sys.exit(
            "[build] this venv's llama.cpp was compiled for this CPU (AVX-512): set up again with "
            "CITELINE_PORTABLE_BUILD=1 python3 bootstrap.py setup"
        )


def non_portable(system_info: str) -> bool:
    return "AVX512 = 1" in system_info


def check_no_forbidden(folder: Path) -> None:
    """The installers carry no torch: fail the build if a set-up-only package got in."""
    names = {p.name.split(".")[0].lower() for p in folder.rglob("*")}
    bad = sorted(n for n in names if n in FORBIDDEN or n.startswith("libtorch"))
    if bad:
        sys.exit(f"[build] forbidden packages in the bundle: {bad}")
    say(f"no {', '.join(FORBIDDEN)} in the bundle")


def size_report(folder: Path, seconds: float, kind: str) -> dict[str, Any]:
    inner = folder / "_internal"
    parts: dict[str, int] = {}
    for path in inner.iterdir() if inner.is_dir() else ():
        if path.is_symlink():
            continue
        key = re.sub(r"(\.cpython.*|\.so.*|\.dll|\.pyd|\.dylib)$", "", path.name)
        parts[key] = parts.get(key, 0) + du(path)
    models = du(inner / "bundled-models") if (inner / "bundled-models").is_dir() else 0
    return {
        "version": version(),
        "variant": kind,
        "bytes": du(folder),
        "models_bytes": models,
        "seconds": round(seconds),
        "platform": f"{sys.platform}-{platform.machine()}",
        "largest": sorted(parts.items(), key=lambda kv: -kv[1])[:25],
    }


# -- .deb -------------------------------------------------------------------------------------------
def deb() -> Path:
    if not BUNDLE.is_dir():
        sys.exit("[build] no bundle: run `build.py bundle` first")
    started = time.monotonic()
    stage = BUILD / "deb" / "root"
    shutil.rmtree(stage.parent, ignore_errors=True)
    stage_tree(stage)
    control = (
        (LINUX / "control.in")
        .read_text()
        .format(version=version(), installed_kb=du(stage) // 1024, depends=", ".join(shlibdeps(BUNDLE)))
    )
    (stage / "DEBIAN").mkdir(mode=0o755)
    (stage / "DEBIAN" / "control").write_text(control)
    (stage / "DEBIAN" / "md5sums").write_text(md5sums(stage))
    DIST.mkdir(exist_ok=True)
    out = DIST / f"citeline{suffix()}_{version()}_amd64.deb"
    run(["dpkg-deb", "--root-owner-group", "-Zxz", "-z6", "--build", str(stage), str(out)])
    run(["dpkg-deb", "--info", str(out)])
    say(f"{out}: {mb(out.stat().st_size)} in {time.monotonic() - started:.0f} s")
    return out


def copy_bundle(dest: Path) -> None:
    """Hard links where possible (fast; the sealed model mtimes stay), copies otherwise."""

    def link(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    shutil.copytree(BUNDLE, dest, symlinks=True, copy_function=link)


def stage_tree(stage: Path) -> None:
    copy_bundle(stage / "opt" / "citeline")
    (stage / "usr" / "bin").mkdir(parents=True)
    for name in ("citeline", "citeline-desktop"):
        (stage / "usr" / "bin" / name).symlink_to(f"../../opt/citeline/{name}")
    apps = stage / "usr" / "share" / "applications"
    apps.mkdir(parents=True)
    shutil.copyfile(LINUX / "citeline.desktop", apps / "citeline.desktop")
    hicolor = stage / "usr" / "share" / "icons" / "hicolor"
    for size in (16, 24, 32, 48, 64, 128, 256, 512):
        (hicolor / f"{size}x{size}" / "apps").mkdir(parents=True)
        shutil.copyfile(ICONS / f"citeline-{size}.png", hicolor / f"{size}x{size}" / "apps" / "citeline.png")
    (hicolor / "scalable" / "apps").mkdir(parents=True)
    shutil.copyfile(ICONS / "citeline.svg", hicolor / "scalable" / "apps" / "citeline.svg")
    doc = stage / "usr" / "share" / "doc" / "citeline"
    doc.mkdir(parents=True)
    shutil.copyfile(LINUX / "copyright", doc / "copyright")
    for path in stage.rglob("*"):
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o755)


def md5sums(stage: Path) -> str:
    lines = []
    for path in sorted(p for p in stage.rglob("*") if p.is_file() and not p.is_symlink()):
        rel = path.relative_to(stage).as_posix()
        if not rel.startswith("DEBIAN/"):
            lines.append(f"{hashlib.md5(path.read_bytes()).hexdigest()}  {rel}\n")
    return "".join(lines)


def elf_files(folder: Path) -> Iterator[Path]:
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            with path.open("rb") as fh:
                if fh.read(4) == b"\x7fELF":
                    yield path


def shlibdeps(folder: Path) -> list[str]:
    """Depends, like dh_shlibdeps: the packages holding each library the bundle needs but lacks, and libc6
    at least as new as the newest GLIBC symbol version used."""
    inside = {p.name for p in folder.rglob("*")}
    needed: set[str] = set()
    glibc = (2, 17)
    for elf in elf_files(folder):
        dyn = subprocess.run(["readelf", "-dW", str(elf)], capture_output=True, text=True, check=False).stdout
        needed |= set(re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", dyn))
        syms = subprocess.run(
            ["readelf", "-W", "--dyn-syms", str(elf)], capture_output=True, text=True, check=False
        ).stdout
        for major, minor in re.findall(r"UND \S+@GLIBC_(\d+)\.(\d+)", syms):
            glibc = max(glibc, (int(major), int(minor)))
    known = ldconfig()
    packages, unresolved = set(), []
    for soname in sorted(needed - inside):
        package = owner(known.get(soname))
        if package:
            packages.add(package)
        else:
            unresolved.append(soname)
    if unresolved:
        say(f"WARNING: no package found here for {unresolved}; Depends leaves them out")
    packages.discard("libc6")
    return [f"libc6 (>= {glibc[0]}.{glibc[1]})", *sorted(packages)]


def ldconfig() -> dict[str, str]:
    """soname -> path for this machine's 64-bit libraries."""
    out = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True, check=False).stdout
    found: dict[str, str] = {}
    for name, flags, path in re.findall(r"^\s+(\S+) \(([^)]*)\) => (\S+)$", out, re.M):
        if "x86-64" in flags:
            found.setdefault(name, path)
    return found


def owner(path: str | None) -> str | None:
    if not path:
        return None
    for candidate in dict.fromkeys(
        [
            path,
            os.path.realpath(path),
            path.replace("/usr/lib/", "/lib/", 1),
            path.replace("/lib/", "/usr/lib/", 1),
        ]
    ):
        out = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True, check=False)
        if out.returncode == 0:
            return out.stdout.split(":")[0].strip()
    return None


# -- AppImage ---------------------------------------------------------------------------------------
def appimage() -> Path:
    """AppDir from the bundle; the .AppImage itself when appimagetool is on PATH (CI downloads it)."""
    appdir = BUILD / "appimage" / "Citeline.AppDir"
    shutil.rmtree(appdir.parent, ignore_errors=True)
    copy_bundle(appdir / "usr" / "lib" / "citeline")
    shutil.copy2(LINUX / "AppRun", appdir / "AppRun")
    shutil.copyfile(LINUX / "citeline.desktop", appdir / "citeline.desktop")
    shutil.copyfile(ICONS / "citeline-256.png", appdir / "citeline.png")
    (appdir / ".DirIcon").symlink_to("citeline.png")
    check = subprocess.run(
        [str(appdir / "AppRun"), "cli", "--version"], capture_output=True, text=True, check=False
    )
    if check.stdout.strip() != f"citeline {version()}":
        sys.exit(f"[build] AppDir's AppRun does not start the CLI: {check.stdout!r} {check.stderr[-500:]!r}")
    say(f"AppDir {appdir}: AppRun cli --version -> {check.stdout.strip()}")
    tool = shutil.which("appimagetool") or shutil.which("appimagetool-x86_64.AppImage")
    out = DIST / f"Citeline{suffix()}-{version()}-x86_64.AppImage"
    if not tool:
        say("appimagetool is not on PATH (not packaged for Debian/PyPI): AppDir only; CI builds the AppImage")
        return appdir
    DIST.mkdir(exist_ok=True)
    run([tool, "--no-appstream", str(appdir), str(out)], env=dict(os.environ, ARCH="x86_64"))
    say(f"{out}: {mb(out.stat().st_size)}")
    return out


# -- smoke ------------------------------------------------------------------------------------------
def clean_env(home: Path) -> dict[str, str]:
    """A user's environment: no venv, no model cache override, HOME in a temp dir (fresh data dir)."""
    drop = ("CITELINE_", "VIRTUAL_ENV", "PYTHON", "LD_LIBRARY_PATH", "QT_", "CONDA")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    venv_bin = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != venv_bin)
    env["HOME"] = env["USERPROFILE"] = str(home)
    env["XDG_DATA_HOME"] = str(home / ".local" / "share")
    env["XDG_CONFIG_HOME"] = str(home / ".config")
    return env


def executables(installed: Path) -> tuple[Path, Path]:
    folder = installed / "Contents" / "MacOS" if installed.suffix == ".app" else installed
    return folder / f"citeline{EXE}", folder / f"citeline-desktop{EXE}"


def smoke(installed: Path | None, gguf: str | None, screenshot_only: bool = False) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="citeline-smoke-") as tmp:
        work = Path(tmp)
        if installed is None:
            installed = install_deb(work / "root")
        cli, gui = executables(installed)
        env = clean_env(work / "user")
        (work / "user").mkdir()
        results: dict[str, object] = {"installed": str(installed), "version": version()}
        if not screenshot_only:
            results["cli"] = cli_smoke(cli, env, gguf)
        results["gui"] = gui_smoke(cli, gui, env, work)
        (ARTIFACTS / "smoke-summary.json").write_text(json.dumps(results, indent=2))
    failed = [k for k, v in results.items() if isinstance(v, dict) and not v.get("ok")]
    if failed:
        sys.exit(f"[build] smoke test FAILED: {failed}; see {ARTIFACTS}")
    say(f"smoke test passed; artifacts in {ARTIFACTS}")


def install_deb(root: Path) -> Path:
    """dpkg -x into a temp root: the files a real install would lay down, without touching the system."""
    debs = sorted(DIST.glob(f"citeline*_{version()}_amd64.deb"))
    if not debs:
        sys.exit("[build] no .deb: run `build.py deb` first")
    ensure_depends(debs[-1])
    run(["dpkg-deb", "-x", str(debs[-1]), str(root)])
    for rel in (
        "usr/bin/citeline",
        "usr/bin/citeline-desktop",
        "usr/share/applications/citeline.desktop",
        "usr/share/icons/hicolor/256x256/apps/citeline.png",
        "usr/share/icons/hicolor/scalable/apps/citeline.svg",
    ):
        if not (root / rel).exists():
            sys.exit(f"[build] the .deb lacks {rel}")
    if shutil.which("desktop-file-validate"):
        run(["desktop-file-validate", str(root / "usr/share/applications/citeline.desktop")])
    return root / "usr" / "bin"  # through the symlinks, as a user's PATH would


def ensure_depends(package: Path) -> None:
    """What apt would do for the .deb's Depends: install the missing ones (as root), else say which."""
    field = subprocess.run(
        ["dpkg-deb", "-f", str(package), "Depends"], capture_output=True, text=True, check=True
    ).stdout
    names = [alt.split("|")[0].split("(")[0].strip() for alt in field.split(",") if alt.strip()]
    missing = [
        n
        for n in names
        if "install ok installed"
        not in subprocess.run(
            ["dpkg-query", "-W", "-f=${Status}", n], capture_output=True, text=True, check=False
        ).stdout
    ]
    if missing and shutil.which("apt-get") and os.geteuid() == 0:
        run(
            ["apt-get", "install", "-y", "-q", "--no-install-recommends", *missing],
            env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"),
        )
    elif missing:
        say(f"WARNING: Depends not installed here: {missing}")
    say(f"Depends: {', '.join(names)}")


def cli_smoke(cli: Path, env: dict[str, str], gguf: str | None) -> dict[str, object]:
    cmd = [str(cli), "self-test", str(ARTIFACTS / "smoke"), "--expect-version", version(), "--expect-bundled"]
    if gguf:
        cmd += ["--gguf", gguf]
    say("$ " + " ".join(cmd))
    started = time.monotonic()
    done = subprocess.run(cmd, env=env, text=True, capture_output=True, check=False)
    (ARTIFACTS / "smoke").mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "smoke" / "cli.log").write_text(done.stdout + done.stderr)
    print(done.stdout + done.stderr, flush=True)
    return {
        "ok": done.returncode == 0,
        "rc": done.returncode,
        "seconds": round(time.monotonic() - started, 1),
    }


def gui_smoke(cli: Path, gui: Path, env: dict[str, str], work: Path) -> dict[str, object]:
    """Index the demo with the frozen CLI, open the window on it, wait for its first paint, screenshot."""
    home = work / "gui-home"
    demo = work / "demo"
    runtime = work / "xdg-runtime"
    runtime.mkdir(mode=0o700)
    env = dict(env, XDG_RUNTIME_DIR=str(runtime))
    shutil.copytree(resources_of(cli) / "assets" / "demo", demo)
    subprocess.run(
        [str(cli), "--data-dir", str(home), "add", str(demo)], env=env, capture_output=True, check=False
    )
    # The standard installer has no GGUF yet: the window answers extractively, as a new user's would.
    (home / "settings.json").write_text(json.dumps({"generator": "extractive"}), encoding="utf-8")
    with display(env, work) as shot:
        log = home / "logs" / "citeline.log"
        proc = subprocess.Popen(
            [str(gui), "--data-dir", str(home)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        shown = wait_for(lambda: log.is_file() and "window shown" in log.read_text(errors="replace"), 90)
        time.sleep(3)  # let the first search/paint settle
        alive = proc.poll() is None
        picture = ARTIFACTS / f"citeline-desktop-{sys.platform}.png"
        took = shot(picture) if alive else None
        answered = ask_in_window(env, shot) if alive and took else None
        alive = alive and proc.poll() is None
        stop(proc)
    output = proc.stdout.read() if proc.stdout else ""
    logged = log.read_text(errors="replace") if log.is_file() else ""
    (ARTIFACTS / "gui.log").write_text(f"--- stdout/stderr\n{output}\n--- {log}\n{logged}")
    errors = [line for line in logged.splitlines() if " ERROR " in line or "Traceback" in line]
    say(f"window shown: {shown}; alive: {alive}; screenshots: {took}, {answered}; errors: {errors}")
    return {
        "ok": bool(shown and alive and took and not errors),
        "shown": shown,
        "alive": alive,
        "screenshot": str(took) if took else None,
        "screenshot_answer": str(answered) if answered else None,
        "errors": errors,
    }


def ask_in_window(env: dict[str, str], shot: Any) -> Path | None:
    """Best effort, Linux: type the demo question into the window (Ctrl+K, Enter) and screenshot the
    cited answer. The answer itself is checked by the CLI self-test; this picture is for people."""
    if sys.platform != "linux" or not shutil.which("xdotool"):
        return None
    found = subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--class", "citeline"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()
    if not found:
        return None
    question = "How long does a whole laptop restore take?"
    for cmd in (
        ["windowfocus", "--sync", found[-1]],
        ["key", "ctrl+k"],
        ["type", "--delay", "15", question],
        ["key", "Return"],
    ):
        subprocess.run(["xdotool", *cmd], env=env, capture_output=True, check=False)
        time.sleep(0.3)
    time.sleep(8)  # extractive answer, evidence and source preview
    picture: Path | None = shot(ARTIFACTS / f"citeline-desktop-{sys.platform}-answer.png")
    return picture


def resources_of(cli: Path) -> Path:
    """Where the frozen app's data lies (sys._MEIPASS): _internal/ beside it, Resources/ in a .app."""
    real = cli.resolve().parent
    return real.parent / "Resources" if real.name == "MacOS" else real / "_internal"


def wait_for(condition: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.25)
    return False


def stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


@contextlib.contextmanager
def display(env: dict[str, str], work: Path) -> Iterator[Any]:
    """Linux: a private Xvfb (from Debian if missing) and `import`/xwd; macOS/Windows: the desktop."""
    if sys.platform == "darwin":
        yield lambda out: out if subprocess.run(["screencapture", "-x", str(out)]).returncode == 0 else None
        return
    if sys.platform == "win32":
        command = ["powershell", "-NoProfile", "-Command"]
        yield (
            lambda out: out if subprocess.run([*command, WIN_SHOT.format(out=out)]).returncode == 0 else None
        )
        return
    ensure_xvfb()
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as fh:
        number = fh.readline().strip()
    env["DISPLAY"] = f":{number}"
    try:
        yield lambda out: x_screenshot(out, env)
    finally:
        xvfb.send_signal(signal.SIGTERM)
        xvfb.wait(10)
        env.pop("DISPLAY", None)


WIN_SHOT = (
    "Add-Type -AssemblyName System.Windows.Forms,System.Drawing;"
    "$b=[System.Windows.Forms.Screen]::PrimaryScreen.Bounds;"
    "$i=New-Object System.Drawing.Bitmap $b.Width,$b.Height;"
    "$g=[System.Drawing.Graphics]::FromImage($i);$g.CopyFromScreen($b.Location,[System.Drawing.Point]::Empty,$b.Size);"
    "$i.Save('{out}')"
)


def ensure_xvfb() -> None:
    tools = (("xvfb", "Xvfb"), ("imagemagick", "import"), ("xdotool", "xdotool"))
    missing = [p for p, tool in tools if not shutil.which(tool)]
    if missing and shutil.which("apt-get") and os.geteuid() == 0:
        run(
            ["apt-get", "install", "-y", "-q", "--no-install-recommends", *missing],
            env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"),
        )
    if not shutil.which("Xvfb"):
        sys.exit("[build] Xvfb is missing: apt-get install -y xvfb imagemagick")


def x_screenshot(out: Path, env: dict[str, str]) -> Path | None:
    if shutil.which("import"):
        cmd = ["import", "-display", env["DISPLAY"], "-window", "root", str(out)]
        return out if subprocess.run(cmd, check=False).returncode == 0 and out.is_file() else None
    xwd = out.with_suffix(".xwd")  # no ImageMagick: keep the raw X dump
    done = subprocess.run(
        ["xwd", "-root", "-silent", "-display", env["DISPLAY"], "-out", str(xwd)], check=False
    )
    return xwd if done.returncode == 0 else None


# -- Windows and macOS ------------------------------------------------------------------------------
def windows() -> Path:
    iscc = shutil.which("iscc") or r"C:\Program Files (x86)\Inno Setup 6\ISCC.exe"
    if not Path(iscc).exists() and not shutil.which("iscc"):
        sys.exit("[build] Inno Setup's ISCC.exe is missing (choco install innosetup)")
    DIST.mkdir(exist_ok=True)
    run(
        [
            iscc,
            f"/DAppVersion={version()}",
            f"/DSourceDir={BUNDLE}",
            f"/DIconFile={ICONS / 'citeline.ico'}",
            f"/DOutputDir={DIST}",
            f"/DVariant={suffix()}",
            str(ROOT / "packaging" / "windows" / "citeline.iss"),
        ]
    )
    out = DIST / f"citeline{suffix()}-{version()}-windows-x64-setup.exe"
    say(f"{out}: {mb(out.stat().st_size)}")
    return out


def dmg() -> Path:
    app = BUILD / "dist" / "Citeline.app"
    if not app.is_dir():
        sys.exit("[build] no Citeline.app: run `build.py bundle` on macOS first")
    arch = platform.machine()
    out = DIST / f"Citeline{suffix()}-{version()}-macos-{arch}.dmg"
    DIST.mkdir(exist_ok=True)
    run(
        [
            sys.executable,
            "-m",
            "dmgbuild",
            "-s",
            str(ROOT / "packaging" / "macos" / "dmg_settings.py"),
            "-D",
            f"app={app}",
            "-D",
            f"icon={ICONS / 'citeline.icns'}",
            f"Citeline {version()}",
            str(out),
        ]
    )
    say(f"{out}: {mb(out.stat().st_size)}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("bundle", "all"):
        p = sub.add_parser(name)
        p.add_argument("--full", action="store_true", help="also bundle the default GGUF generator (1.1 GB)")
        p.add_argument("--gguf", help="smoke: also import this GGUF and answer with llama.cpp")
    for name in ("deb", "appimage", "icons", "windows", "dmg"):
        sub.add_parser(name)
    p = sub.add_parser("smoke")
    p.add_argument("--installed", type=Path, help="an installed folder or .app instead of the .deb")
    p.add_argument("--gguf", help="also import this GGUF and answer with llama.cpp")
    p.add_argument("--screenshot-only", action="store_true", help="only the window check")
    args = parser.parse_args()
    started = time.monotonic()
    if args.command in ("bundle", "all"):  # CI picks the variant with CITELINE_BUNDLE_VARIANT
        bundle(args.full or os.environ.get("CITELINE_BUNDLE_VARIANT") == "full")
    if args.command in ("deb", "all"):
        deb()
    if args.command in ("appimage", "all"):
        appimage()
    if args.command in ("smoke", "all"):
        smoke(getattr(args, "installed", None), args.gguf, getattr(args, "screenshot_only", False))
    if args.command == "icons":
        icons()
    if args.command == "windows":
        windows()
    if args.command == "dmg":
        dmg()
    say(f"{args.command} done in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
